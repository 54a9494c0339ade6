// The map tool through its other front doors: the JSON API (POST /tools/map, in-process HTTP server), the CLI
// (`web-reader map`, the built binary) and the library (`call('map')`), against the same loopback documentation site as the MCP tests.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createWebReader } from '../src/index.js';
import { callApi, useTestHttpServer, type ApiResult } from './http/http-harness.js';
import { addMapSite } from './map-site-routes.js';
import { runCli } from './run-cli.js';
import { respondWith, startFixtureServer } from './fixture-server.js';
import { useFixtureServer } from './use-fixture-server.js';

const server = useFixtureServer(addMapSite);
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: server.hostPort }));
const cliEnv = () => ({ ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0' });

describe('map over the JSON API', () => {
  it('POST /tools/map answers with the URLs, their sources and the text', async () => {
    const response = await fetch(`${http.url}/tools/map`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: server.url('/map-start'), patterns: ['/docs/**'], max_urls: 2 }),
    });
    expect(response.status).toBe(200);
    const json = (await response.json()) as ApiResult;
    expect(json).toMatchObject({
      success: true,
      result: {
        status: 'ok',
        total: 2,
        truncated: true,
        stop_reason: 'max_urls',
        urls: [
          { url: server.url('/docs/a'), title: 'Doc A', source: 'llms.txt' },
          { url: server.url('/docs/guide.md'), title: 'Guide', source: 'llms.txt' },
        ],
      },
    });
    expect(json.result?.text).toMatch(/^2 URLs found on /);
  });

  it('a bad argument is success: false naming it', async () => {
    const json = await callApi(http.url, 'map', { url: server.url('/map-start'), search: '' });
    expect(json).toMatchObject({ success: false, result: { error: { code: 'INVALID_ARGUMENT' } } });
    expect(json.result?.error?.message).toContain('search');
  });
});

describe('web-reader map', () => {
  it('prints one URL a line, with --search and --max-urls', async () => {
    const url = server.url('/map-start');
    const run = await runCli(['map', url, '--search', 'docs/', '--max-urls', '3'], cliEnv());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `3 URLs found on ${url}\n\n- ${server.url('/docs/a')} — Doc A\n- ${server.url('/docs/guide.md')} — Guide\n` +
        `- ${server.url('/docs/listed')} — Listed page\n\n` +
        'The site lists more URLs than max_urls (3): narrow with search or patterns, or raise max_urls.\n',
    );
  });

  it('--json gives the structured result; nothing found exits 3', async () => {
    const run = await runCli(['map', server.url('/map-start'), '--json'], cliEnv());
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { total: number; counts: Record<string, number> };
    expect(result).toMatchObject({ total: 10, counts: { 'llms.txt': 4, page: 2, sitemap: 4 } });
    const none = await runCli(['map', server.url('/map-start'), '--search', 'zzz-none'], cliEnv());
    expect(none.code).toBe(3);
    expect(none.stdout).toMatch(/^0 URLs found on /);
  });

  it('map without a URL is a usage error', async () => {
    const run = await runCli(['map'], cliEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('map takes exactly one URL; none was given. Run web-reader map --help.');
  });
});

describe('map from the library', () => {
  it('a sitemap past MAX_RESPONSE_SIZE (plain, or gzip unpacked) is a note that says what it cost, not "fetch a more specific URL"', async () => {
    // Issue 23 item 9 (session-36 cold trial): the page reader's advice was given for a file the agent never asked for.
    const big = `<urlset>${'<url><loc>https://big.example/p</loc></url>'.repeat(200)}</urlset>`; // 8.6 KB, in one line, sent without Content-Length
    const site = await startFixtureServer();
    site.route(
      '/robots.txt',
      respondWith('text/plain', `Sitemap: ${site.url('/big.xml')}\nSitemap: ${site.url('/bomb.xml.gz')}\n`),
    );
    site.route('/big.xml', respondWith('application/xml', big));
    site.route('/bomb.xml.gz', respondWith('application/gzip', zlib.gzipSync(big)));
    site.route('/', respondWith('text/html', '<a href="/a">A</a>'));
    const env = { ALLOW_PRIVATE_HOSTS: site.hostPort, PER_DOMAIN_INTERVAL: '0', MAX_RESPONSE_SIZE: '4096' };
    const reader = createWebReader({ env });
    try {
      const output = await reader.call('map', { url: site.url('/') });
      const notes = (output.structured as unknown as { notes: string[] }).notes;
      expect(notes).toEqual(
        expect.arrayContaining([
          `Sitemap ${site.url('/big.xml')} could not be read: Response from ${site.url('/big.xml')} exceeds ` +
            'MAX_RESPONSE_SIZE (4096 bytes). Its URLs are not listed; raise ' +
            'MAX_RESPONSE_SIZE to read it.',
          `Sitemap ${site.url('/bomb.xml.gz')} could not be read: Response from ${site.url('/bomb.xml.gz')} exceeds ` +
            'MAX_RESPONSE_SIZE (4096 bytes) once unpacked (a gzipped sitemap). Its URLs are not listed; raise ' +
            'MAX_RESPONSE_SIZE to read it.',
        ]),
      );
      expect(notes.join('\n')).not.toContain('more specific URL');
    } finally {
      await reader.close();
      await site.close();
    }
  });

  it("reader.call('map') gives the same structured result", async () => {
    const reader = createWebReader({ env: { ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0' } });
    try {
      const output = await reader.call('map', { url: server.url('/map-start'), search: 'launch' });
      expect(output.structured).toMatchObject({
        status: 'ok',
        total: 1,
        urls: [{ url: server.url('/blog/launch'), title: 'We launched & more', source: 'sitemap' }],
      });
    } finally {
      await reader.close();
    }
  });
});

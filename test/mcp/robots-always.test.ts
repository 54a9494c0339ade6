// RESPECT_ROBOTS=always through a real MCP client over stdio (SPEC "Safety and politeness"): every single-page tool
// refuses a URL the site's robots.txt disallows for web-reader, with status `robots_denied` and code ROBOTS_DENIED,
// before the page is requested; the default (`crawl`) reads the same URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixture-server.js';
import { connectStdio, type StdioSession } from './stdio-client.js';

const PAGE = '<!doctype html><title>Private</title><body><article><h1>Private</h1><p>Not for robots.</p></article>';

let site: FixtureServer; // robots.txt: web-reader may not read /private/
let broken: FixtureServer; // robots.txt answers 503: RFC 9309 reads it as "disallow everything"
let always: StdioSession;
let crawlOnly: StdioSession;

beforeAll(async () => {
  site = await startFixtureServer();
  site.route('/robots.txt', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('User-agent: web-reader\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n');
  });
  broken = await startFixtureServer();
  broken.route('/robots.txt', (_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain' });
    res.end('down');
  });
  for (const server of [site, broken]) {
    server.route('/private/page', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    });
  }
  const env = { ALLOW_PRIVATE_HOSTS: `${site.hostPort},${broken.hostPort}`, PER_DOMAIN_INTERVAL: '0' };
  always = await connectStdio(['--tools', 'all'], { ...env, RESPECT_ROBOTS: 'always' });
  crawlOnly = await connectStdio(['--tools', 'all'], env);
});

afterAll(async () => {
  await always?.close();
  await crawlOnly?.close();
  await site?.close();
  await broken?.close();
});

const CALLS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['fetch', {}],
  ['read_url', {}],
  ['web', {}],
  ['web', { mode: 'links' }],
  ['web_scraper', {}],
  ['links', {}],
  ['extract_links', {}],
];

describe('RESPECT_ROBOTS=always over MCP', () => {
  it.each(CALLS)('%s %j refuses a disallowed URL with robots_denied, without requesting it', async (tool, args) => {
    const url = site.url('/private/page');
    const before = site.hits('/private/page');
    const result = await always.call(tool, { url, ...args });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`${site.url('/robots.txt')} disallows it for web-reader`);
    expect(result.text).toContain('RESPECT_ROBOTS=crawl');
    // Every failure carries its structured outcome, web_scraper's too (its outputSchema admits failures): in
    // `outcome` there, whose `status` is the seed's HTTP status (0: no request was made).
    const structured = result.structuredContent as { status: unknown; outcome?: string; error: { code: string } };
    if (tool === 'web_scraper') expect([structured.outcome, structured.status]).toEqual(['robots_denied', 0]);
    else expect(structured.status).toBe('robots_denied');
    expect(structured.error.code).toBe('ROBOTS_DENIED');
    expect(site.hits('/private/page')).toBe(before);
  });

  it('reads what robots.txt allows for web-reader, and reads robots.txt itself', async () => {
    const page = await always.call('fetch', { url: site.url('/html') });
    expect(page.isError).toBeFalsy();
    expect(page.text).toContain('Fixture article');
    const robots = await always.call('fetch', { url: site.url('/robots.txt') });
    expect(robots.isError).toBeFalsy();
    expect(robots.text).toContain('Disallow: /private/');
  });

  it('a robots.txt that answers 503 disallows every URL (RFC 9309 §2.3.1.4), saying why', async () => {
    const result = await always.call('fetch', { url: broken.url('/private/page') });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('robots.txt answered HTTP 503');
    expect((result.structuredContent as Record<string, unknown>).status).toBe('robots_denied');
    expect(broken.hits('/private/page')).toBe(0);
  });

  it('asks robots.txt once per origin, not once per read', async () => {
    const before = site.hits('/robots.txt');
    await always.call('fetch', { url: site.url('/html?again=1') });
    await always.call('links', { url: site.url('/html?again=2') });
    expect(site.hits('/robots.txt')).toBe(before);
  });
});

describe('RESPECT_ROBOTS=crawl (the default) over MCP', () => {
  it('single-page tools read what the user asked for', async () => {
    const result = await crawlOnly.call('fetch', { url: site.url('/private/page') });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('Not for robots.');
  });
});

// JavaScript pages through every front door (issue 13): a page whose content scripts build is read from a real
// headless Chromium's DOM by fetch, read_url, web, web_scraper and crawl over MCP, by the JSON tools API and by the
// CLI, with `rendered: true`; `render: "never"` and a missing browser keep the static read and say why.
import { describe, expect, it } from 'vitest';
import { PRODUCT_USER_AGENT } from '../../src/config.js';
import { describeWithBrowser, SLOW_MACHINE_RENDER_TIMEOUT, TEST_BROWSER_PATH } from '../browser-available.js';
import type { FixtureServer } from '../fixture-server.js';
import { respondWith } from '../fixture-server.js';
import { callApi, useTestHttpServer } from '../http/http-harness.js';
import { runCli } from '../run-cli.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { useMcpSession } from './session.js';

const LONG = 'Tide tables are printed for every harbour on this coast, a little later each day. '.repeat(6);

/** An application shell: nothing but a mount point in its HTML, its article and links written by a script. */
function shell(title: string, body: string, links: readonly string[]): string {
  const anchors = links.map((href) => `<a href="${href}">Next: ${href}</a>`).join(' ');
  const html = `<article><h1>${title}</h1><p>${body}</p><p>${anchors}</p></article>`;
  return (
    `<!doctype html><html><head><title>${title}</title></head><body><div id="root"></div>` +
    `<script>document.getElementById('root').innerHTML = ${JSON.stringify(html)};</script></body></html>`
  );
}

function addRoutes(server: FixtureServer): void {
  server.route('/app', respondWith('text/html', shell('Harbour guide', LONG, ['/app/two'])));
  server.route('/app/two', respondWith('text/html', shell('Second harbour', `Page two. ${LONG}`, [])));
  // Content fetched by a script from a same-origin JSON endpoint.
  server.route('/api/story', respondWith('application/json', JSON.stringify({ text: `From the API. ${LONG}` })));
  server.route(
    '/data',
    respondWith(
      'text/html',
      '<!doctype html><title>Data page</title><div id="app"></div><script>' +
        "fetch('/api/story').then((r) => r.json()).then((d) => { document.getElementById('app').innerHTML = " +
        "'<article><h1>Data page</h1><p>' + d.text + '</p></article>'; });</script>",
    ),
  );
  // A new token at every render: two reads of one rendered snapshot show the same one.
  server.route(
    '/token',
    respondWith(
      'text/html',
      '<!doctype html><title>Token</title><div id="root"></div><script>const t = Math.random().toString(36).slice(2);' +
        "document.getElementById('root').innerHTML = '<article><h1>Token</h1><p>render ' + t + '. ' + " +
        JSON.stringify(LONG) +
        " + '</p></article>';</script>",
    ),
  );
  // Content that appears long after the page went quiet: only `wait_for` waits for it.
  server.route(
    '/late',
    respondWith(
      'text/html',
      '<!doctype html><title>Late</title><div id="app"></div><script>setTimeout(() => { ' +
        "document.getElementById('app').innerHTML = '<article id=\"late\"><h1>Late</h1><p>" +
        LONG +
        "</p></article>'; }, 1500);</script>",
    ),
  );
}

describeWithBrowser('rendering over MCP, with Chromium', (browserPath) => {
  const { server, session } = useMcpSession({
    tools: 'all',
    setup: addRoutes,
    env: { CHROMIUM_PATH: browserPath, RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT },
  });

  it('fetch reads a script-built page from the rendered DOM (render "auto", the default)', async () => {
    const result = await session.call('fetch', { url: server.url('/app') });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain(`Contents of ${server.url('/app')}:`);
    expect(result.text).toContain('Tide tables are printed for every harbour');
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true });
  });

  it('a rendered snapshot is cached: a continuation reads the same DOM, not a second render', async () => {
    const first = await session.call('fetch', { url: server.url('/token'), max_length: 200 });
    const token = /render (\w+)\./.exec(first.text)?.[1];
    expect(token).toBeDefined();
    const next = (first.structuredContent as { next_start_index: number }).next_start_index;
    const rest = await session.call('fetch', { url: server.url('/token'), start_index: next });
    expect(rest.structuredContent).toMatchObject({ rendered: true, from_cache: true });
    const again = await session.call('fetch', { url: server.url('/token') });
    expect(again.text).toContain(`render ${token}.`);
    const fresh = await session.call('fetch', { url: server.url('/token'), max_age: 0 });
    expect(fresh.text).not.toContain(`render ${token}.`);
  });

  it('content a script fetched from a same-origin JSON endpoint is read', async () => {
    const result = await session.call('read_url', { url: server.url('/data') });
    expect(result.text).toContain('From the API. Tide tables');
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true });
  });

  it('render "never" keeps the static read: needs_js, and the sentence says how to read it', async () => {
    const result = await session.call('fetch', { url: server.url('/app'), render: 'never' });
    expect(result.text).toMatch(/^Status: needs_js — /);
    expect(result.text).toContain('Rendering was off for this call: call again with render "auto" or "always"');
    expect(result.structuredContent).toMatchObject({ status: 'needs_js', rendered: false });
  });

  it('web reads the rendered page in markdown mode and lists its rendered links in links mode', async () => {
    const markdown = await session.call('web', { url: server.url('/app') });
    expect(markdown.text).toContain('Tide tables are printed');
    expect(markdown.structuredContent).toMatchObject({ rendered: true });
    const links = await session.call('web', { url: server.url('/app'), mode: 'links' });
    expect(links.text).toContain(server.url('/app/two'));
    expect(links.structuredContent).toMatchObject({ rendered: true });
  });

  it('web_scraper numbers the rendered links and reports rendered', async () => {
    const result = await session.call('web_scraper', { url: server.url('/app') });
    const data = JSON.parse(result.text) as { text: string; rendered: boolean; references: { url: string }[] };
    expect(data.rendered).toBe(true);
    expect(data.text).toContain('Tide tables are printed');
    expect(data.references.map((reference) => reference.url)).toContain(server.url('/app/two'));
  });

  it('crawl renders each page by the same rule and follows links only the rendered DOM has', async () => {
    const result = await session.call('crawl', { url: server.url('/app'), max_pages: 5 });
    const pages = (result.structuredContent as { pages: { url: string; rendered: boolean }[] }).pages;
    expect(pages.map((page) => [page.url, page.rendered])).toEqual([
      [server.url('/app'), true],
      [server.url('/app/two'), true],
    ]);
    expect(result.text).toContain('Page two.');
    // The crawler names itself in the browser too: /app/two is fetched by this crawl only, read and rendered.
    const agents = server.requestHeaders('/app/two').map((headers) => headers['user-agent']);
    expect(agents.length).toBeGreaterThanOrEqual(2);
    expect(new Set(agents)).toEqual(new Set([PRODUCT_USER_AGENT]));
  });

  it('wait_for waits for a selector the page adds after it went quiet', async () => {
    const result = await session.call('fetch', { url: server.url('/late'), render: 'always', wait_for: '#late' });
    expect(result.text).toContain('Tide tables are printed');
    expect(result.structuredContent).toMatchObject({ rendered: true });
  });
});

describeWithBrowser('rendering through the JSON API and the CLI', (browserPath) => {
  const server = useFixtureServer(addRoutes);
  // The harness's FETCH_TIMEOUT of 5 s would give renders 10 s (RENDER_TIMEOUT follows it).
  const http = useTestHttpServer(() => ({
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    CHROMIUM_PATH: browserPath,
    RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT,
  }));

  it('POST /tools/fetch with render "always" answers with the rendered content', async () => {
    const body = await callApi(http.url, 'fetch', { url: server.url('/app'), render: 'always' });
    expect(body.success).toBe(true);
    expect(body.result).toMatchObject({ status: 'ok', rendered: true });
    expect(body.result?.text).toContain('Tide tables are printed');
  });

  it('web-reader read --render always prints the rendered content', async () => {
    const env = {
      ALLOW_PRIVATE_HOSTS: server.hostPort,
      CHROMIUM_PATH: browserPath,
      RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT,
    };
    const run = await runCli(['read', server.url('/app'), '--render', 'always'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Tide tables are printed');
  });
});

// No browser needed: what a user without Chromium meets.
describe('without a browser', () => {
  const { server: plain, connect } = useMcpSession({ tools: 'all', setup: addRoutes, perTest: true });

  it('without a browser, a script-built page is needs_js with the one command that enables rendering', async () => {
    const session = await connect({ CHROMIUM_PATH: '/nonexistent/chromium' });
    const result = await session.call('fetch', { url: plain.url('/app') });
    expect(result.text).toMatch(/^Status: needs_js — /);
    expect(result.text).toContain(
      'CHROMIUM_PATH names "/nonexistent/chromium", which is not an executable file: point it at Chromium',
    );
    expect(result.structuredContent).toMatchObject({ status: 'needs_js', rendered: false });
    const always = await session.call('fetch', { url: plain.url('/app'), render: 'always' });
    expect(always.isError).toBe(true);
    expect(always.structuredContent).toMatchObject({ error: { code: 'BROWSER_MISSING' } });
    expect(always.text).toContain('apt-get install chromium');
  });

  it('a wrong render value is named', async () => {
    const session = await connect({ CHROMIUM_PATH: TEST_BROWSER_PATH ?? '/nonexistent/chromium' });
    const result = await session.call('fetch', { url: plain.url('/app'), render: 'sometimes' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('render must be one of "auto", "always", "never"');
  });
});

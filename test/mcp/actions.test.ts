// `actions` before reading (issue 28 item 2) through a real MCP client and a real Chromium on loopback: a "load more"
// page whose second batch appears only after a click, an endless list read by scrolling until it stops growing, a
// search box typed into and submitted with Enter, a selector that matches nothing reported while the page is read as
// it is; bad actions, actions with headers and actions with render "never" refused before anything is fetched; no
// browser, BROWSER_MISSING with the install line.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeWithBrowser, SLOW_MACHINE_RENDER_TIMEOUT } from '../browser-available.js';
import type { FixtureServer } from '../fixture-server.js';
import { respondWith } from '../fixture-server.js';
import { useMcpSession } from './session.js';

const LONG = 'Every harbour on this coast keeps a ledger of the boats that come and go with the tide. '.repeat(5);

const items = (batch: string, count: number) =>
  Array.from({ length: count }, (_, index) => `<li>${batch} batch item ${index + 1}</li>`).join('');

/** A page with its first batch in its HTML and a button that fetches the second. */
const LOAD_MORE =
  `<!doctype html><html><head><title>Harbour ledger</title></head><body><main><article><h1>Harbour ledger</h1>` +
  `<p>${LONG}</p><ul id="list">${items('First', 3)}</ul><button id="more">Load more</button></article></main>` +
  `<button id="hidden" style="display: none">Hidden</button><button id="spin">Spin</button>` +
  `<script>document.getElementById('spin').onclick = () => { while (true) {} };</script>` +
  `<script>document.getElementById('more').addEventListener('click', async () => {` +
  `const html = await (await fetch('/load-more/batch')).text();` +
  `document.getElementById('list').insertAdjacentHTML('beforeend', html); });</script></body></html>`;

/** An endless list: scrolling to the bottom fetches the next batch, three in all. */
const ENDLESS =
  `<!doctype html><html><head><title>Tide log</title><style>li { height: 300px; }</style></head><body><main>` +
  `<article><h1>Tide log</h1><p>${LONG}</p><ul id="log">${items('Batch 1', 4)}</ul></article></main><script>` +
  `let batch = 1; let loading = false;` +
  `addEventListener('scroll', async () => {` +
  `if (loading || batch >= 3 || innerHeight + scrollY < document.documentElement.scrollHeight - 20) return;` +
  `loading = true; batch++;` +
  `const html = await (await fetch('/endless/batch?n=' + batch)).text();` +
  `document.getElementById('log').insertAdjacentHTML('beforeend', html); loading = false; });` +
  `</script></body></html>`;

/** A search box: Enter submits the form, whose handler fetches the results. */
const SEARCH =
  `<!doctype html><html><head><title>Harbour search</title></head><body><main><article><h1>Harbour search</h1>` +
  `<p>${LONG}</p><form id="search"><input id="q" name="q"><button>Search</button></form><ul id="results"></ul>` +
  `</article></main><script>document.getElementById('search').addEventListener('submit', async (event) => {` +
  `event.preventDefault(); const q = document.getElementById('q').value;` +
  `const html = await (await fetch('/search/api?q=' + encodeURIComponent(q))).text();` +
  `document.getElementById('results').innerHTML = html; });</script></body></html>`;

function addRoutes(server: FixtureServer): void {
  server.route('/load-more', respondWith('text/html', LOAD_MORE));
  server.route('/load-more/batch', respondWith('text/html', items('Second', 3)));
  server.route('/endless', respondWith('text/html', ENDLESS));
  server.route('/endless/batch', (_req, res, _params, url) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(items(`Batch ${url.searchParams.get('n')}`, 4));
  });
  server.route('/search', respondWith('text/html', SEARCH));
  server.route('/search/api', (_req, res, _params, url) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<li>Result for ${url.searchParams.get('q')}: the north pier</li>`);
  });
}

describeWithBrowser('actions before reading, over MCP, with Chromium', (browserPath) => {
  const { server, session } = useMcpSession({
    tools: 'all',
    setup: addRoutes,
    env: { CHROMIUM_PATH: browserPath, RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT },
  });

  it('"load more": without actions the first batch only; with a click on #more both batches', async () => {
    const plain = await session.call('fetch', { url: server.url('/load-more') });
    expect(plain.text).toContain('First batch item 3');
    expect(plain.text).not.toContain('Second batch item');

    const clicked = await session.call('fetch', { url: server.url('/load-more'), actions: [{ click: '#more' }] });
    expect(clicked.isError).toBeFalsy();
    expect(clicked.text).toContain('First batch item 3');
    expect(clicked.text).toContain('Second batch item 3');
    expect(clicked.text).toMatch(/^Actions before reading:\n1\. click #more: done\n/);
    expect(clicked.structuredContent).toMatchObject({
      rendered: true,
      actions: [{ action: 'click', target: '#more', status: 'done' }],
    });
    expect(server.hits('/load-more/batch')).toBe(1);
  });

  it('a read with actions is neither served from nor kept in the page cache', async () => {
    const batches = server.hits('/load-more/batch');
    const args = { url: server.url('/load-more'), actions: [{ click: '#more' }] };
    expect((await session.call('fetch', args)).text).toContain('Second batch item 3');
    expect((await session.call('fetch', args)).structuredContent).toMatchObject({ from_cache: false });
    expect(server.hits('/load-more/batch')).toBe(batches + 2);
    // A plain render of the same page is the page as served, not the one the actions made.
    const plain = await session.call('fetch', { url: server.url('/load-more'), render: 'always' });
    expect(plain.structuredContent).toMatchObject({ rendered: true });
    expect(plain.text).not.toContain('Second batch item');
  });

  it('read_url and web_scraper take the same actions and report them', async () => {
    const read = await session.call('read_url', { url: server.url('/load-more'), actions: [{ click: '#more' }] });
    expect(read.text).toContain('Second batch item 2');
    expect(read.text).toContain('1. click #more: done');
    expect(read.structuredContent).toMatchObject({ actions: [{ action: 'click', status: 'done' }] });

    const scraped = await session.call('web_scraper', { url: server.url('/load-more'), actions: [{ click: '#more' }] });
    const data = JSON.parse(scraped.text) as { text: string; actions: unknown };
    expect(data.text).toContain('Second batch item 1');
    expect(data.actions).toEqual([{ action: 'click', target: '#more', status: 'done' }]);
  });

  it('an endless list is read whole by scrolling until it stops growing', async () => {
    const plain = await session.call('fetch', { url: server.url('/endless'), render: 'always' });
    expect(plain.text).toContain('Batch 1 batch item 4');
    expect(plain.text).not.toContain('Batch 2 batch item');

    const result = await session.call('fetch', { url: server.url('/endless'), actions: [{ scroll: 'until_stable' }] });
    expect(result.text).toContain('Batch 2 batch item 4');
    expect(result.text).toContain('Batch 3 batch item 4');
    // Two scrolls grew the list, a third found it stable.
    expect(result.structuredContent).toMatchObject({
      actions: [{ action: 'scroll', target: 'until_stable', status: 'done', scrolls: 3 }],
    });
    expect(result.text).toContain('1. scroll until_stable: done (scrolled 3 times)');
  });

  it('a search box: type, press Enter, wait for the results, then read', async () => {
    const result = await session.call('fetch', {
      url: server.url('/search'),
      actions: [{ type: '#q', text: 'lighthouse' }, { press: 'Enter' }, { wait: '#results li' }],
    });
    expect(result.text).toContain('Result for lighthouse: the north pier');
    expect(result.structuredContent).toMatchObject({
      actions: [
        { action: 'type', target: '#q', status: 'done' },
        { action: 'press', target: 'Enter', status: 'done' },
        { action: 'wait', target: '#results li', status: 'done' },
      ],
    });
  });

  it('README "Actions": a selector that matches nothing is reported and the page is read as it is, as shown', async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const shown = /<!-- actions-example:[^\n]*-->\s*```json\n(.*)\n```\s*```text\n([\s\S]*?)\n```/.exec(readme);
    expect(shown).not.toBeNull();
    const local = (text: string) => text.replaceAll('https://example.com/ledger', server.url('/load-more'));
    const result = await session.call('fetch', JSON.parse(local(shown![1]!)) as Record<string, unknown>);
    expect(result.isError).toBeFalsy();
    expect(result.text.startsWith(local(shown![2]!))).toBe(true);
    expect(result.text).toContain('Second batch item 3');
    expect(result.structuredContent).toMatchObject({
      actions: [
        { action: 'click', target: '#accept-cookies', status: 'not_found' },
        { action: 'click', target: '#more', status: 'done' },
      ],
    });
  });

  it('typing into a button fails, a click on a hidden element times out; each is reported and the next runs', async () => {
    const result = await session.call('fetch', {
      url: server.url('/load-more'),
      actions: [{ type: '#more', text: 'x' }, { click: '#hidden' }, { click: '#more' }],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      actions: [
        { action: 'type', target: '#more', status: 'failed' },
        { action: 'click', target: '#hidden', status: 'timed_out' },
        { action: 'click', target: '#more', status: 'done' },
      ],
    });
    expect(result.text).toContain('1. type #more: failed: the browser could not do it');
    expect(result.text).toContain('2. click #hidden: timed out');
    expect(result.text).toContain('Second batch item 3');
  });

  it('a click whose handler never returns is timed_out; its script is ended and the next action runs', async () => {
    const result = await session.call('fetch', {
      url: server.url('/load-more'),
      actions: [{ click: '#spin' }, { click: '#more' }],
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      actions: [
        { action: 'click', target: '#spin', status: 'timed_out' },
        { action: 'click', target: '#more', status: 'done' },
      ],
    });
    expect(result.text).toContain('Second batch item 3');
  });

  it('bad actions are refused before anything is fetched, naming the action by its index', async () => {
    const hits = server.hits('/load-more');
    const cases: [unknown, string][] = [
      [[{ click: '#more' }, { press: 'Entr' }], 'actions[1] (press) "Entr" is not a key'],
      [[{ click: 'div[' }], 'actions[0] (click) "div[" is not valid CSS'],
      [[{ wait: 1 }, { scroll: 'top' }], 'actions[1] (scroll) must be "bottom", "until_stable" or a number'],
      [[{ evaluate: 'document.cookie' }], 'actions[0] has no action'],
      [Array.from({ length: 21 }, () => ({ wait: 1 })), 'actions may have at most 20 entries'],
    ];
    for (const [actions, words] of cases) {
      const result = await session.call('fetch', { url: server.url('/load-more'), actions });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
      expect(result.text).toContain(words);
    }
    expect(server.hits('/load-more')).toBe(hits);
  });

  it('actions with headers, or with render "never", are refused before anything is fetched', async () => {
    const hits = server.hits('/load-more');
    const withHeaders = await session.call('fetch', {
      url: server.url('/load-more'),
      headers: { cookie: 'session=1' },
      actions: [{ click: '#more' }],
    });
    expect(withHeaders.isError).toBe(true);
    expect(withHeaders.structuredContent).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    expect(withHeaders.text).toContain('actions cannot be used with headers');
    const never = await session.call('read_url', {
      url: server.url('/load-more'),
      render: 'never',
      actions: [{ click: '#more' }],
    });
    expect(never.isError).toBe(true);
    expect(never.text).toContain('actions run in a browser: they cannot be used with render "never"');
    expect(server.hits('/load-more')).toBe(hits);
  });
});

describe('actions without a browser', () => {
  const { server, connect } = useMcpSession({ tools: 'all', setup: addRoutes, perTest: true });

  it('is BROWSER_MISSING with the install line: actions need a render', async () => {
    const session = await connect({ CHROMIUM_PATH: '/nonexistent/chromium' });
    const result = await session.call('fetch', { url: server.url('/load-more'), actions: [{ click: '#more' }] });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'BROWSER_MISSING' } });
    expect(result.text).toContain('apt-get install chromium');
    expect(result.text).not.toContain('screenshot'); // no screenshot was asked for
  });
});

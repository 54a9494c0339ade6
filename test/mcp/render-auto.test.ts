// RENDER_JS=auto renders only when it changes the answer (issue 23 item 6), over MCP with a real Chromium: a page
// whose HTML already holds its text is read as served — no browser fetches it — even when its main block is short
// and it carries heavy scripts (a product page, as the modern eval set's listings and shops); a script shell, with
// an empty mount point or with hardly any text, is still rendered.
import { expect, it } from 'vitest';
import { describeWithBrowser, SLOW_MACHINE_RENDER_TIMEOUT } from '../browser-available.js';
import { respondWith, type FixtureServer } from '../fixture-server.js';
import { useMcpSession } from './session.js';

const TIDES = 'Tide tables are printed for every harbour on this coast, a little later each day. '.repeat(6);
const ARTICLE = `<article><h1>Tide tables</h1><p>${TIDES}</p></article>`;
/** A 60 KB bundle that writes the article into `target`: heavy scripts, as a framework's are. */
const bundle = (target: string) =>
  `<script>var pad = ${JSON.stringify('x'.repeat(60_000))};` +
  `document.querySelector(${JSON.stringify(target)}).innerHTML = ${JSON.stringify(ARTICLE)};</script>`;

const links = (names: readonly string[], suffix = '') =>
  names.map((name) => `<a href="/${name.toLowerCase()}">${name}${suffix}</a>`).join(' ');

/**
 * A product page served whole: a short main block (a blurb and a spec list), its related products and its footer
 * in the HTML, eight scripts and a 60 KB block of JSON state that writes nothing.
 */
function productPage(): string {
  const specs = [
    'Length 4.9 m',
    'Beam 56 cm',
    'Weight 23 kg',
    'Hull polyethylene',
    'Cockpit 82 × 45 cm',
    'Load 140 kg',
  ];
  const related = [
    'Spray deck, neoprene, fits the Harbour cockpit',
    'Carbon touring paddle, 220 cm, two pieces',
    'Buoyancy aid for touring, four pockets, size M–L',
    'Deck compass with a bungee mount and a night light',
  ];
  const state = JSON.stringify({ reviews: Array.from({ length: 600 }, (_, i) => ({ id: i, stars: 4, by: `r${i}` })) });
  const scripts = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => `<script src="/js/${name}.js"></script>`).join('');
  return (
    '<!doctype html><html><head><title>Harbour sea kayak</title></head><body>' +
    `<header><nav>${links(['Kayaks', 'Canoes', 'Paddles', 'Clothing', 'Courses', 'Trips', 'Repairs', 'About'])}</nav></header>` +
    '<main><h1>Harbour sea kayak</h1><p>A stable touring kayak for sheltered coasts, with two hatches and a skeg.</p>' +
    `<ul>${specs.map((spec) => `<li>${spec}</li>`).join('')}</ul><button>Add to basket</button></main>` +
    '<section class="related"><h2>Customers also bought</h2>' +
    related.map((name, i) => `<div class="card"><a href="/p/${i}">${name}</a><span>In stock</span></div>`).join('') +
    '</section><footer><p>Harbour Paddle Sports, 4 Quay Street, Oban. Open Tuesday to Saturday, nine to five; the ' +
    'workshop repairs hulls and paddles of any make.</p></footer>' +
    `<script id="state" type="application/json">${state}</script>${scripts}</body></html>`
  );
}

function addRoutes(server: FixtureServer): void {
  server.route('/product', respondWith('text/html', productPage()));
  // A shell whose header and menu are served (more than a few hundred characters) and whose article a bundle
  // writes into the framework's empty mount point.
  server.route(
    '/shell',
    respondWith(
      'text/html',
      '<!doctype html><html><head><title>Harbour guide</title></head><body><header><nav>' +
        links(
          [
            'Harbours',
            'Tides',
            'Moorings',
            'Fuel',
            'Weather',
            'Pilotage',
            'Charts',
            'Slipways',
            'Ferries',
            'Lifeboats',
            'Lighthouses',
            'Contact',
          ],
          ' of the isles',
        ) +
        '</nav><p>The harbour guide is loading the page you asked for; it takes a moment on a slow connection. ' +
        'Every harbour of the isles is listed, with its tides, moorings and fuel.</p>' +
        `</header><div id="app"></div>${bundle('#app')}</body></html>`,
    ),
  );
  // Nothing to read in the HTML, and one small inline script that writes the article (session-36 cold trial: `empty`,
  // not rendered, no hint).
  server.route(
    '/written',
    respondWith(
      'text/html',
      '<!doctype html><html><head><title>Tides</title></head><body><main id="m"></main>' +
        `<script>document.getElementById('m').innerHTML = ${JSON.stringify(ARTICLE)};</script></body></html>`,
    ),
  );
  // A "Loading…" shell with no mount point: a line of text and the bundle that replaces it.
  server.route(
    '/loading',
    respondWith(
      'text/html',
      '<!doctype html><html><head><title>Tide tables</title></head><body>' +
        '<main class="content"><p>Loading the tide tables for this harbour, one moment…</p></main>' +
        `${bundle('main.content')}</body></html>`,
    ),
  );
}

describeWithBrowser('RENDER_JS=auto over MCP, with Chromium', (browserPath) => {
  const { server, session } = useMcpSession({
    tools: 'all',
    setup: addRoutes,
    env: { CHROMIUM_PATH: browserPath, RENDER_JS: 'auto', RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT },
  });

  it('a page whose HTML holds its text is read as served: a short main block and heavy scripts are not a shell', async () => {
    const result = await session.call('fetch', { url: server.url('/product') });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('A stable touring kayak for sheltered coasts');
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: false });
    // Only the static read fetched it: a render would have asked for it again.
    expect(server.hits('/product')).toBe(1);
  });

  it('a shell with its menu served and an empty mount point is rendered', async () => {
    const result = await session.call('fetch', { url: server.url('/shell') });
    expect(result.text).toContain('Tide tables are printed for every harbour');
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true });
    expect(server.hits('/shell')).toBe(2);
  });

  it('a page with nothing to read but one small script that writes it is rendered, through fetch and links alike', async () => {
    const result = await session.call('fetch', { url: server.url('/written') });
    expect(result.text).toContain('Tide tables are printed for every harbour');
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true });
    const links = await session.call('links', { url: server.url('/written') });
    expect(links.structuredContent).toMatchObject({ status: 'ok' });
  });

  it('a shell with a line of text and a heavy bundle is rendered', async () => {
    const result = await session.call('read_url', { url: server.url('/loading') });
    expect(result.text).toContain('Tide tables are printed for every harbour');
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true });
    expect(server.hits('/loading')).toBe(2);
  });
});

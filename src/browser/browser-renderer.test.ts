import { afterAll, describe, expect, it } from 'vitest';
import { describeWithBrowser, ORDINARY_RENDER_MS } from '../../test/browser-available.js';
import { useFixtureServer } from '../../test/use-fixture-server.js';
import { resolveConfig } from '../config.js';
import { createBrowserRenderer, type BrowserRenderer } from './browser-renderer.js';

const page = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Rendered</title>${head}</head><body>${body}</body></html>`;

const server = useFixtureServer((server) => {
  const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  server.route(
    '/js/inline',
    html(
      page(
        '<main id="app"></main><script id="data" type="application/json">{"title":"Built from inline data","items":["one","two"]}</script>' +
          '<script>const d = JSON.parse(document.getElementById("data").textContent);' +
          'document.getElementById("app").innerHTML = "<h1>" + d.title + "</h1><ul>" + d.items.map(i => "<li>" + i + "</li>").join("") + "</ul>";</script>',
      ),
    ),
  );
  server.route('/js/api/items', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ heading: 'Fetched from the API', text: 'Paragraph the script fetched.' }));
  });
  server.route(
    '/js/fetched',
    html(
      page(
        '<main id="app">Loading…</main><script>setTimeout(() => fetch("/js/api/items").then(r => r.json()).then(d => {' +
          'document.getElementById("app").innerHTML = "<h1>" + d.heading + "</h1><p>" + d.text + "</p>"; }), 300);</script>',
      ),
    ),
  );
  server.route(
    '/js/spa',
    html(
      page(
        '<nav><a href="#/about">About</a></nav><main id="view"></main><script>' +
          'const views = { "/": "<h1>Home view</h1>", "/about": "<h1>About view</h1><p>Hash-routed content.</p>" };' +
          'function show() { document.getElementById("view").innerHTML = views[location.hash.slice(1) || "/"] || "<h1>Not found</h1>"; }' +
          'addEventListener("hashchange", show); show();</script>',
      ),
    ),
  );
  server.route(
    '/js/navigates',
    html(
      page(
        '<p>Redirecting…</p><script>setTimeout(() => { location.href = "/js/landing?from=script"; }, 100);</script>',
      ),
    ),
  );
  server.route(
    '/js/trickle',
    html(
      page(
        '<main id="app"></main><script>let n = 0; const add = () => { const p = document.createElement("p"); ' +
          'p.textContent = "step " + (++n); app.append(p); if (n < 8) setTimeout(add, 120); else app.append("all steps done"); }; add();</script>',
      ),
    ),
  );
  server.route(
    '/js/restless',
    html(
      page(
        '<h1>Restless</h1><p id="clock"></p><script>setInterval(() => { clock.textContent = Date.now(); }, 20);</script>',
      ),
    ),
  );
  server.route('/js/landing', html(page('<h1>Landing page</h1><p>Reached by script navigation.</p>')));
});

describeWithBrowser('createBrowserRenderer: renders script-built pages', (browserPath) => {
  let renderer: BrowserRenderer;
  const render = (path: string, waitFor?: string) => {
    renderer ??= createBrowserRenderer(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, CHROMIUM_PATH: browserPath }),
    );
    return renderer.render(server.url(path), { deadlineMs: ORDINARY_RENDER_MS, waitFor });
  };
  afterAll(() => renderer?.close());

  it('content built by an inline script from inline data', async () => {
    const result = await render('/js/inline');
    expect(result.html).toContain('<h1>Built from inline data</h1>');
    expect(result.html).toContain('<li>two</li>');
    expect(result).toMatchObject({ status: 200, finalUrl: server.url('/js/inline') });
    expect(result.contentType).toMatch(/^text\/html/);
    expect(result.downloadedBytes).toBeGreaterThan(0);
  });

  it('content a script fetched from a same-origin JSON endpoint', async () => {
    const result = await render('/js/fetched');
    expect(result.html).toContain('<h1>Fetched from the API</h1>');
    expect(result.html).not.toContain('Loading…');
  });

  it('a hash-routed SPA renders the route in the URL', async () => {
    const result = await render('/js/spa#/about');
    expect(result.html).toContain('<h1>About view</h1>');
    expect(result.finalUrl).toBe(server.url('/js/spa#/about'));
  });

  it('a page that navigates by script: the final URL is the new page', async () => {
    const result = await render('/js/navigates', 'h1');
    expect(result.html).toContain('Reached by script navigation.');
    expect(result.finalUrl).toBe(server.url('/js/landing?from=script'));
  });

  it('waits for the DOM to settle after the network is idle: content added by a chain of timers is all there', async () => {
    const result = await render('/js/trickle');
    expect(result.html).toContain('all steps done');
  });

  it('a page that never stops changing is read at the settle cap, not failed', async () => {
    const result = await render('/js/restless');
    expect(result.html).toContain('<h1>Restless</h1>');
  });

  // An invalid wait_for never reaches the browser: the tools check it in Node with the selector parser
  // (tools/render-arguments.ts; test/mcp/reading-controls.test.ts), issue 23.
  // The deadline leaves a loaded machine time to load the page first (3 s did not, at load 23): the wait is what
  // times out, and the message names it.
  it('wait_for: a selector that never appears is a timeout naming it', async () => {
    await expect(
      renderer.render(server.url('/js/inline'), { deadlineMs: 10_000, waitFor: '#never' }),
    ).rejects.toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT', message: expect.stringContaining("'#never'") });
  });
});

describe('createBrowserRenderer without a browser', () => {
  it('CHROMIUM_PATH naming nothing is BROWSER_MISSING with the install hint, and no other browser is tried', async () => {
    const renderer = createBrowserRenderer(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, CHROMIUM_PATH: '/nonexistent/chromium' }),
      // A browser that exists in the default places must not be used instead.
      { browserPaths: ['/bin/sh'] },
    );
    expect(renderer.available()).toBe(false);
    await expect(renderer.render(server.url('/html'), { deadlineMs: 5000 })).rejects.toMatchObject({
      name: 'FetchError',
      code: 'BROWSER_MISSING',
      message: expect.stringContaining('CHROMIUM_PATH names "/nonexistent/chromium", which is not an executable file'),
    });
    expect(renderer.browserProcess()).toBeUndefined();
    await renderer.close();
  });

  it('an executable that is not a browser: BROWSER_FAILED saying it would not start', async () => {
    const renderer = createBrowserRenderer(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, CHROMIUM_PATH: '/bin/false' }),
    );
    try {
      await expect(renderer.render(server.url('/html'), { deadlineMs: 10000 })).rejects.toMatchObject({
        name: 'FetchError',
        code: 'BROWSER_FAILED',
        message: expect.stringContaining('would not start'),
      });
      expect(server.hits('/html')).toBe(0);
    } finally {
      await renderer.close();
    }
  });
});

// Renders are isolated from each other (issue 23 item 2): a hostile page — endless iframes, a script that spins for
// ever, a heap that grows without end — ends alone; the renders beside it, and the ones waiting for a slot, finish.
import type { ServerResponse } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { describeWithBrowser, ORDINARY_RENDER_MS } from '../../test/browser-available.js';
import { useFixtureServer } from '../../test/use-fixture-server.js';
import { resolveConfig } from '../config.js';
import { createBrowserRenderer, type BrowserRenderer } from './browser-renderer.js';

const server = useFixtureServer((server) => {
  const html = (body: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Isolation</title></head><body>${body}</body></html>`);
  };
  // Content that a script writes after 3.5 s: a render still running when a hostile page beside it is closed.
  server.route(
    '/slow-normal',
    html(
      '<main id="app">waiting</main><script>setTimeout(() => { app.innerHTML = "<h1 id=done>Done</h1>" }, 4000)</script>',
    ),
  );
  // Every document loads three frames of itself: a tree without end, which the browser takes a while to tear down.
  server.route(
    '/endless-iframes',
    html(
      '<p>frames</p><script>for (let i = 0; i < 3; i++) { const f = document.createElement("iframe");' +
        ' f.src = "/endless-iframes?" + Math.random(); document.body.append(f); }</script>',
    ),
  );
  server.route('/spin', html('<script>while (true) {}</script>'));
  server.route('/ok', html('<main id="app"></main><script>app.textContent = "Rendered fine"</script>'));
  server.route(
    '/writes-then-spins',
    html(
      '<article><h1>Written first</h1><p>The content is there before the script spins.</p></article><script>while (true) {}</script>',
    ),
  );
  server.route(
    '/spins-after-load',
    html('<article><h1>Loaded</h1></article><script>setTimeout(() => { while (true) {} }, 0)</script>'),
  );
  server.route(
    '/grows',
    html('<p>growing</p><script>const keep = []; while (true) keep.push(new Array(2e7).fill(1.5));</script>'),
  );
});

describeWithBrowser('renders are isolated from each other', (browserPath) => {
  const renderers: BrowserRenderer[] = [];
  const create = (env: Record<string, string> = {}) => {
    const renderer = createBrowserRenderer(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, CHROMIUM_PATH: browserPath, ...env }),
    );
    renderers.push(renderer);
    return renderer;
  };
  afterAll(async () => {
    for (const renderer of renderers) await renderer.close();
  });

  it('a normal render beside an endless-iframes page succeeds, 10 runs of 10', async () => {
    const renderer = create();
    await renderer.render(server.url('/ok'), { deadlineMs: ORDINARY_RENDER_MS }); // the browser is up
    const outcomes: string[] = [];
    for (let run = 0; run < 10; run++) {
      // Its deadline passes while its page is busiest; closing it then is what used to kill the browser.
      const hostile = renderer.render(server.url('/endless-iframes'), { deadlineMs: 1500 });
      hostile.catch(() => {});
      const normal = await renderer
        .render(server.url('/slow-normal'), { deadlineMs: ORDINARY_RENDER_MS, waitFor: '#done' })
        .then(
          (result) => (result.html.includes('<h1 id="done">Done</h1>') ? 'ok' : 'no content'),
          (error: Error) => error.message,
        );
      outcomes.push(normal);
      await hostile.catch(() => {});
    }
    expect(outcomes).toEqual(Array(10).fill('ok'));
  }, 400_000); // ten renders on a machine at load 20 or more

  it('beside two spinning pages holding both slots, a third render succeeds', async () => {
    const renderer = create({ RENDER_CONCURRENCY: '2' });
    const spinning = [1, 2].map(() => renderer.render(server.url('/spin'), { deadlineMs: 20_000 }));
    for (const render of spinning) render.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200)); // the spinning pages take the slots first
    const third = await renderer.render(server.url('/ok'), { deadlineMs: ORDINARY_RENDER_MS });
    expect(third.html).toContain('Rendered fine');
    await Promise.allSettled(spinning);
  }, 120_000);

  it.each([
    ['a script in the document', '/writes-then-spins', 'Written first'],
    ['a timer after load', '/spins-after-load', '<h1>Loaded</h1>'],
  ])(
    'a page that writes its content, then spins in %s, returns that content',
    async (_name, path, content) => {
      const renderer = create();
      // A deadline far past the test's own time-out: only ending the spin, not the deadline, can answer in time.
      const result = await renderer.render(server.url(path), { deadlineMs: 120_000 });
      expect(result.html).toContain(content);
      expect(result.status).toBe(200);
    },
    30_000,
  );

  it('a page past the memory cap (RENDER_MAX_MEMORY) fails alone, naming the cap; the render beside it succeeds', async () => {
    const renderer = create({ RENDER_MAX_MEMORY: '64' });
    const beside = renderer.render(server.url('/slow-normal'), { deadlineMs: ORDINARY_RENDER_MS, waitFor: '#done' });
    await expect(renderer.render(server.url('/grows'), { deadlineMs: ORDINARY_RENDER_MS })).rejects.toMatchObject({
      code: 'BROWSER_FAILED',
      message: expect.stringContaining('RENDER_MAX_MEMORY'),
    });
    expect((await beside).html).toContain('Done');
  }, 120_000);
});

// A render is bounded: a page that never finishes loading, a browser killed mid-render (twice), a page that
// downloads too much — each ends with a clear error; an endless script is ended and the page read; the next render
// works.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { describeWithBrowser, ORDINARY_RENDER_MS } from '../../test/browser-available.js';
import { useFixtureServer } from '../../test/use-fixture-server.js';
import { resolveConfig } from '../config.js';
import { createBrowserRenderer, type BrowserRenderer } from './browser-renderer.js';
import { processTree } from './launch-browser.js';

const held: ServerResponse[] = [];
let onHold: (res: ServerResponse) => void = () => {};

const server = useFixtureServer((server) => {
  const html = (body: string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Bounded</title></head><body>${body}</body></html>`);
  };
  server.route('/ok', html('<main id="app"></main><script>app.textContent = "Rendered fine"</script>'));
  server.route('/endless-script', html('<p>before</p><script>while (true) {}</script><p>after</p>'));
  server.route(
    '/endless-after-load',
    html('<p id="x">loaded</p><script>setTimeout(() => { while (true) {} }, 0)</script>'),
  );
  // The document's head and part of its body, then nothing, for ever.
  server.route('/never-finishes', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Partial</title></head><body><p>partial');
    held.push(res);
  });
  server.route('/hold', (_req, res) => {
    held.push(res);
    onHold(res);
  });
  server.route('/waits-on-hold', html('<p>waiting</p><script>fetch("/hold")</script>'));
  server.route('/big', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.alloc(2 * 1024 * 1024, 7));
  });
  server.route('/downloads-big', html('<p>big</p><script>fetch("/big").then(r => r.arrayBuffer())</script>'));
  server.route('/redirect-private', (_req, res) => {
    res.writeHead(302, { location: 'http://10.255.255.1/private' });
    res.end();
  });
  server.route(
    '/popup-and-file',
    html(
      '<p id="t">stays</p><script>window.open("/ok"); setTimeout(() => { location.href = "file:///etc/hostname"; }, 50)</script>',
    ),
  );
});

afterAll(() => {
  for (const res of held) res.destroy();
});

describeWithBrowser('a render is bounded', (browserPath) => {
  let renderer: BrowserRenderer;
  const config = (env: Record<string, string> = {}) =>
    resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, CHROMIUM_PATH: browserPath, ...env });
  const get = () => (renderer ??= createBrowserRenderer(config()));
  afterAll(() => renderer?.close());

  const expectNextRenderWorks = async () => {
    const result = await get().render(server.url('/ok'), { deadlineMs: ORDINARY_RENDER_MS });
    expect(result.html).toContain('Rendered fine');
  };

  // The call ends at its deadline (closing the page or killing the browser happens after, in the background): the
  // error's message says which deadline fired, and a call that waited on would reach the test's time limit instead.
  it('a document that never finishes loading: TIMEOUT at the deadline, then the next render works', async () => {
    await expect(get().render(server.url('/never-finishes'), { deadlineMs: 3000 })).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'TIMEOUT',
      message: expect.stringContaining('did not finish within 3000 ms'),
    });
    await expectNextRenderWorks();
  });

  it.each([
    ['an endless script in the document', '/endless-script', '<p>before</p>'],
    ['an endless script after load', '/endless-after-load', 'loaded'],
  ])('%s: the script is ended and what the page wrote is read, then the next render works', async (_n, path, text) => {
    const result = await get().render(server.url(path), { deadlineMs: ORDINARY_RENDER_MS });
    expect(result.html).toContain(text);
    await expectNextRenderWorks();
  });

  it('a browser killed mid-render is replaced and the render tried once more; killed again, BROWSER_FAILED', async () => {
    await expectNextRenderWorks();
    const first = get().browserProcess()?.pid;
    expect(first).toBeGreaterThan(0);
    // Killed once: the render is tried again on a new browser, which answers /hold.
    onHold = () => {
      onHold = (res) => res.end();
      process.kill(first!, 'SIGKILL');
    };
    try {
      const result = await get().render(server.url('/waits-on-hold'), { deadlineMs: 40_000 });
      expect(result.html).toContain('waiting');
      expect(get().browserProcess()?.pid).not.toBe(first);
      // Killed at each try: the second failure is the answer.
      const killed: number[] = [];
      onHold = () => {
        const pid = get().browserProcess()?.pid;
        if (pid !== undefined && !killed.includes(pid)) {
          killed.push(pid);
          process.kill(pid, 'SIGKILL');
        }
      };
      await expect(
        get().render(server.url('/waits-on-hold'), { deadlineMs: 40_000, waitFor: '#never' }),
      ).rejects.toMatchObject({
        name: 'FetchError',
        code: 'BROWSER_FAILED',
        message: expect.stringContaining('try again'),
      });
      expect(killed).toHaveLength(2);
    } finally {
      onHold = () => {};
    }
    await expectNextRenderWorks();
  }, 120_000);

  it('renders that arrive while the browser starts share one launch', async () => {
    const fresh = createBrowserRenderer(config());
    try {
      const results = await Promise.all(
        [1, 2, 3].map(() => fresh.render(server.url('/ok'), { deadlineMs: ORDINARY_RENDER_MS })),
      );
      for (const result of results) expect(result.html).toContain('Rendered fine');
      const browsers = processTree(process.pid).filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--web-reader-browser=');
        } catch {
          return false; // ended while we looked
        }
      });
      // This file's other renderer may have a browser too.
      const mine = fresh.browserProcess()?.pid;
      expect(browsers.filter((pid) => pid !== get().browserProcess()?.pid)).toEqual([mine]);
    } finally {
      await fresh.close();
    }
  });

  it('a page that downloads past the byte cap: RESPONSE_TOO_LARGE naming RENDER_MAX_SIZE', async () => {
    await expect(
      get().render(server.url('/downloads-big'), { deadlineMs: ORDINARY_RENDER_MS, maxBytes: 256 * 1024 }),
    ).rejects.toMatchObject({
      name: 'FetchError',
      code: 'RESPONSE_TOO_LARGE',
      message: expect.stringContaining('RENDER_MAX_SIZE'),
    });
    await expectNextRenderWorks();
  });

  it('a render waiting for a slot (RENDER_CONCURRENCY=1) gives up at its own deadline without loading anything', async () => {
    const single = createBrowserRenderer(config({ RENDER_CONCURRENCY: '1' }));
    try {
      // The browser started first: on a loaded machine its start alone can outlast the holding render's deadline,
      // which would then never reach the page that signals the hold.
      await single.render(server.url('/ok'), { deadlineMs: ORDINARY_RENDER_MS });
      const holding = single.render(server.url('/waits-on-hold'), { deadlineMs: 10_000, waitFor: '#never' });
      holding.catch(() => {});
      await new Promise<void>((resolve) => (onHold = () => resolve()));
      const before = server.hits('/ok');
      await expect(single.render(server.url('/ok'), { deadlineMs: 1000 })).rejects.toMatchObject({ code: 'TIMEOUT' });
      expect(server.hits('/ok')).toBe(before);
      await expect(holding).rejects.toMatchObject({ code: 'TIMEOUT' });
    } finally {
      onHold = () => {};
      await single.close();
    }
  });

  it('cancellation rejects with the signal reason', async () => {
    const controller = new AbortController();
    onHold = () => controller.abort(new Error('cancelled by the client'));
    try {
      await expect(
        get().render(server.url('/waits-on-hold'), { deadlineMs: 10000, waitFor: '#never', signal: controller.signal }),
      ).rejects.toThrow('cancelled by the client');
    } finally {
      onHold = () => {};
    }
    await expectNextRenderWorks();
  });

  it('a document redirected to a private address is refused as PRIVATE_ADDRESS', async () => {
    await expect(
      get().render(server.url('/redirect-private'), { deadlineMs: ORDINARY_RENDER_MS }),
    ).rejects.toMatchObject({
      name: 'SecurityError',
      code: 'PRIVATE_ADDRESS',
      message: expect.stringContaining('10.255.255.1:80 (private network 10.0.0.0/8 (RFC 1918))'),
    });
  });

  it('a URL the fetcher refuses is refused before any browser starts', async () => {
    await expect(get().render('http://127.0.0.1:9/', { deadlineMs: ORDINARY_RENDER_MS })).rejects.toMatchObject({
      name: 'SecurityError',
      code: 'PRIVATE_ADDRESS',
    });
    await expect(get().render('file:///etc/hostname', { deadlineMs: ORDINARY_RENDER_MS })).rejects.toMatchObject({
      code: 'UNSUPPORTED_PROTOCOL',
    });
  });

  it('pop-ups are closed and a file: navigation goes nowhere', async () => {
    const result = await get().render(server.url('/popup-and-file'), { deadlineMs: ORDINARY_RENDER_MS });
    expect(result.html).toContain('stays');
    expect(result.finalUrl).toBe(server.url('/popup-and-file'));
  });
});

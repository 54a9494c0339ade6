// Screenshots (issue 28 item 1) through the real surface: the built server over stdio with the SDK's Client, and the
// JSON tools API, against loopback pages. A "chart" drawn by script is decoded pixel by pixel; the full-page height
// cap, JPEG, fetch's `screenshot: true`, the egress guard (an image on a forbidden loopback listener is never
// fetched while the page is drawn) and the served link; without a browser, BROWSER_MISSING with the install line.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithBrowser, SLOW_MACHINE_RENDER_TIMEOUT } from '../browser-available.js';
import { decodePng } from '../decode-png.js';
import { respondWith, type FixtureServer } from '../fixture-server.js';
import { callApi, useTestHttpServer } from '../http/http-harness.js';
import { runCli } from '../run-cli.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { useMcpSession } from './session.js';

/** A canvas chart and a script-drawn bar in known colours, on white, at known places (no margins). */
const CHART =
  '<!doctype html><html><head><title>Quarterly chart</title><style>body{margin:0;background:#fff}' +
  'canvas{display:block}#bar{position:absolute;left:500px;top:100px;width:100px;height:200px}</style></head>' +
  '<body><canvas id="chart" width="400" height="300"></canvas><div id="bar"></div>' +
  '<article><h1>Quarterly sales</h1><p>Sales rose in every quarter of the year, most of all in the fourth.</p></article>' +
  "<script>const c = document.getElementById('chart').getContext('2d'); c.fillStyle = '#1e90ff';" +
  "c.fillRect(50, 50, 200, 200); const bar = document.getElementById('bar'); bar.style.background = 'rgb(220, 20, 60)';" +
  "bar.onclick = () => { bar.style.background = 'rgb(0, 128, 0)'; };</script>" +
  '</body></html>';

/** 20 000 px tall: a full-page screenshot stops at the cap. */
const TALL =
  '<!doctype html><html><head><title>Tall</title><style>body{margin:0}</style></head><body>' +
  '<div style="height:20000px;background:linear-gradient(#fff,#000)">A very long page.</div></body></html>';

/** A page whose pictures are on a listener the guard must refuse: one at once, one lazy at the bottom. */
const canaryPage = (port: number) =>
  '<!doctype html><html><head><title>Canary</title><style>body{margin:0}</style></head><body>' +
  `<img src="http://127.0.0.1:${port}/pixel.png" width="10" height="10">` +
  '<div style="height:3000px"><p>Between the pictures.</p></div>' +
  `<img loading="lazy" src="http://127.0.0.1:${port}/lazy.png" width="10" height="10"></body></html>`;

/** A listener that counts the requests it hears. */
interface Canary {
  readonly port: number;
  readonly hits: string[];
  close(): Promise<void>;
}

async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let canary: Canary;
beforeAll(async () => {
  canary = await startCanary();
});
afterAll(() => canary?.close());

function addRoutes(server: FixtureServer): void {
  server.route('/chart', respondWith('text/html', CHART));
  server.route('/tall', respondWith('text/html', TALL));
  server.route('/canary', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(canaryPage(canary.port));
  });
  server.route('/data.json', respondWith('application/json', '{"a": 1}'));
}

type Content = CallToolResult['content'][number];
const imageOf = (result: CallToolResult) =>
  result.content.find((item): item is Extract<Content, { type: 'image' }> => item.type === 'image');

describeWithBrowser('screenshots over MCP, with Chromium', (browserPath) => {
  const { server, session, connect } = useMcpSession({
    tools: 'fetch,screenshot',
    setup: addRoutes,
    env: { CHROMIUM_PATH: browserPath, RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT },
  });

  it('a chart drawn by script comes back as a PNG of the chosen width, with its colours where they were drawn', async () => {
    const result = await session.call('screenshot', { url: server.url('/chart'), width: 800 });
    expect(result.isError).toBeFalsy();
    const image = imageOf(result);
    expect(image?.mimeType).toBe('image/png');
    const png = decodePng(Buffer.from(image!.data, 'base64'));
    expect([png.width, png.height]).toEqual([800, 800]);
    expect(png.pixel(150, 150)).toEqual([30, 144, 255, 255]); // the canvas's rectangle
    expect(png.pixel(550, 200)).toEqual([220, 20, 60, 255]); // the bar the script coloured
    expect(png.pixel(700, 700)).toEqual([255, 255, 255, 255]); // the page's background
    const bytes = Buffer.from(image!.data, 'base64').byteLength;
    expect(result.text).toBe(`Screenshot of ${server.url('/chart')} (viewport): 800×800 px PNG, ${bytes} bytes.`);
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      title: 'Quarterly chart',
      screenshot: { format: 'png', mime_type: 'image/png', width: 800, height: 800, bytes, full_page: false },
    });
    // Over stdio nothing serves the image: no link.
    expect(result.content.some((item) => item.type === 'resource_link')).toBe(false);
  });

  it('a full page is cut at 8000 px, and the line says where and how tall the page is', async () => {
    const result = await session.call('screenshot', {
      url: server.url('/tall'),
      full_page: true,
      format: 'jpeg',
      quality: 40,
      width: 320,
    });
    expect(result.isError).toBeFalsy();
    const image = imageOf(result)!;
    expect(image.mimeType).toBe('image/jpeg');
    const bytes = Buffer.from(image.data, 'base64');
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]); // JPEG's start of image
    expect(result.structuredContent).toMatchObject({
      screenshot: { format: 'jpeg', width: 320, height: 8000, full_page: true, cut_from_height: 20000 },
    });
    expect(result.text).toContain('(full page): 320×8000 px JPEG');
    expect(result.text).toContain('The page is 20000 px tall; the screenshot stops at 8000 px, the full-page limit.');
  });

  it('a full page shorter than the viewport is the viewport (the page fills it), and nothing is cut', async () => {
    const result = await session.call('screenshot', { url: server.url('/chart'), full_page: true });
    const png = decodePng(Buffer.from(imageOf(result)!.data, 'base64'));
    expect(png.width).toBe(1280);
    expect(png.height).toBe(800);
    expect(png.pixel(150, 150)).toEqual([30, 144, 255, 255]);
    expect(result.structuredContent).not.toHaveProperty('screenshot.cut_from_height');
  });

  it('takes the picture after the actions: a click that recolours the bar shows in it, and is reported', async () => {
    const result = await session.call('screenshot', {
      url: server.url('/chart'),
      width: 800,
      actions: [{ click: '#bar' }, { click: '#nothing-here' }],
    });
    expect(result.isError).toBeFalsy();
    const png = decodePng(Buffer.from(imageOf(result)!.data, 'base64'));
    expect(png.pixel(550, 200)).toEqual([0, 128, 0, 255]); // green once clicked
    expect(result.text).toMatch(/^Actions before reading:\n1\. click #bar: done\n2\. click #nothing-here: not found/);
    expect(result.text).toMatch(/\n\nScreenshot of \S+ \(viewport\): 800×800 px PNG/);
    expect(result.structuredContent).toMatchObject({
      actions: [
        { action: 'click', target: '#bar', status: 'done' },
        { action: 'click', target: '#nothing-here', status: 'not_found' },
      ],
    });
  });

  it('fetch with screenshot: true returns the page text as without it, then the image and its line', async () => {
    const result = await session.call('fetch', { url: server.url('/chart'), screenshot: true });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('Sales rose in every quarter');
    expect(result.content.map((item) => item.type)).toEqual(['text', 'image', 'text']);
    const png = decodePng(Buffer.from(imageOf(result)!.data, 'base64'));
    expect([png.width, png.height]).toEqual([1280, 800]);
    expect(png.pixel(150, 150)).toEqual([30, 144, 255, 255]);
    expect((result.content[2] as { text: string }).text).toMatch(/^Screenshot of .*\(viewport\): 1280×800 px PNG/);
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true, screenshot: { width: 1280 } });
  });

  it('a page that is not HTML has no screenshot, and the agent is told why', async () => {
    const shot = await session.call('screenshot', { url: server.url('/data.json') });
    expect(shot.isError).toBe(true);
    expect(shot.text).toContain('it is json content, not a web page');
    const fetched = await session.call('fetch', { url: server.url('/data.json'), screenshot: true });
    expect(fetched.isError).toBeFalsy();
    expect(fetched.text).toMatch(/^No screenshot of .*: it is json content, not a web page/);
    expect(imageOf(fetched)).toBeUndefined();
  });

  it('arguments out of bounds are named: width, quality with PNG, render "never", headers', async () => {
    const wide = await session.call('screenshot', { url: server.url('/chart'), width: 5000 });
    expect(wide.text).toContain('width must be an integer between 320 and 1920');
    const quality = await session.call('screenshot', { url: server.url('/chart'), quality: 50 });
    expect(quality.text).toContain('quality applies to format "jpeg" only');
    // Both refused before anything is fetched: the page is never asked for.
    const asked = server.hits('/chart');
    const never = await session.call('fetch', { url: server.url('/chart'), screenshot: true, render: 'never' });
    expect(never.structuredContent).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    expect(never.text).toContain('screenshot cannot be used with render "never"');
    // Credentials: the browser would not carry them, so a read with headers for the page's origin takes none.
    const withHeaders = await session.call('fetch', {
      url: server.url('/chart'),
      screenshot: true,
      headers: { cookie: 'session=1' },
    });
    expect(withHeaders.structuredContent).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    expect(withHeaders.text).toContain('screenshot cannot be used with headers');
    expect(server.hits('/chart')).toBe(asked);
  });

  it('pictures on a forbidden address are never fetched while the page is drawn; allowed, they are', async () => {
    canary.hits.length = 0;
    const result = await session.call('screenshot', { url: server.url('/canary'), full_page: true });
    expect(result.isError).toBeFalsy();
    expect(imageOf(result)).toBeDefined();
    expect(canary.hits).toEqual([]);
    // The same page with the listener allowed: the attempts are real, so the empty list above means refused.
    const allowed = await connect({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${canary.port}` });
    const control = await allowed.call('screenshot', { url: server.url('/canary'), full_page: true });
    expect(control.isError).toBeFalsy();
    expect(canary.hits).toContain('/pixel.png');
  });
});

describeWithBrowser('screenshots through the JSON tools API', (browserPath) => {
  const server = useFixtureServer(addRoutes);
  const http = useTestHttpServer(() => ({
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    CHROMIUM_PATH: browserPath,
    RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT,
  }));

  it('POST /tools/screenshot answers with a link the server serves: the same PNG', async () => {
    const body = await callApi(http.url, 'screenshot', { url: server.url('/chart'), width: 640 });
    expect(body.success).toBe(true);
    const shot = body.result?.screenshot as { link: string; bytes: number };
    expect(shot.link).toMatch(new RegExp(`^${http.url}/screenshots/[0-9a-f-]{36}\\.png$`));
    expect(body.result?.text).toContain(`Also at ${shot.link} for 10 minutes.`);
    const served = await fetch(shot.link);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const png = decodePng(new Uint8Array(await served.arrayBuffer()));
    expect([png.width, png.height]).toEqual([640, 800]);
    expect(png.pixel(150, 150)).toEqual([30, 144, 255, 255]);
    const missing = await fetch(`${http.url}/screenshots/00000000-0000-0000-0000-000000000000.png`);
    expect(missing.status).toBe(404);
  });

  it('POST /tools/fetch with screenshot: the text says what the image is and where it is kept, as over MCP', async () => {
    const body = await callApi(http.url, 'fetch', { url: server.url('/chart'), screenshot: true });
    expect(body.success).toBe(true);
    const shot = body.result?.screenshot as { link: string };
    const text = body.result?.text as string;
    expect(text).toMatch(/\n\nScreenshot of .*\(viewport\): 1280×800 px PNG, \d+ bytes\./);
    expect(text.endsWith(`Also at ${shot.link} for 10 minutes.`)).toBe(true);
  });

  it('web-reader screenshot URL -o FILE writes the image and prints its line; without -o it says what it needs', async () => {
    const env = {
      ALLOW_PRIVATE_HOSTS: server.hostPort,
      CHROMIUM_PATH: browserPath,
      RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT,
    };
    const file = join(mkdtempSync(join(tmpdir(), 'web-reader-shot-')), 'chart.png');
    const run = await runCli(['screenshot', server.url('/chart'), '-o', file, '--width', '480'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd()).toMatch(
      /^Screenshot of .*\(viewport\): 480×800 px PNG, \d+ bytes\. Written to .*chart\.png\.$/,
    );
    const png = decodePng(readFileSync(file));
    expect([png.width, png.height]).toEqual([480, 800]);
    expect(png.pixel(150, 150)).toEqual([30, 144, 255, 255]);
    const bare = await runCli(['screenshot', server.url('/chart')], env);
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toContain('screenshot needs the file to write the image to');
  });
});

// No browser needed: what a user without Chromium meets.
describe('screenshots without a browser', () => {
  const { server, connect } = useMcpSession({ tools: 'fetch,screenshot', setup: addRoutes, perTest: true });

  it('is BROWSER_MISSING with the install line, from the screenshot tool and from fetch', async () => {
    const session = await connect({ CHROMIUM_PATH: '/nonexistent/chromium' });
    const result = await session.call('screenshot', { url: server.url('/chart') });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'BROWSER_MISSING' } });
    expect(result.text).toMatch(/^A screenshot needs a browser on the server\. No browser to render /);
    expect(result.text).toContain('apt-get install chromium');
    const fetched = await session.call('fetch', { url: server.url('/chart'), screenshot: true });
    expect(fetched.structuredContent).toMatchObject({ error: { code: 'BROWSER_MISSING' } });
  });
});

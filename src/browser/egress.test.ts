// The guarantee of issue 13: a rendered page reaches nothing the fetcher would refuse. A page on the allowed fixture
// server tries to reach a second loopback listener (not allowed) by every path a page has; the listener must
// record zero connections (and a UDP socket on the same port zero packets) while the allowed content renders.
// The same page with the listener allowed shows that each attempt is real: there, the listener hears them.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser } from '../../test/browser-available.js';
import { useFixtureServer } from '../../test/use-fixture-server.js';
import { resolveConfig } from '../config.js';
import { createBrowserRenderer } from './browser-renderer.js';

/** A listener nobody may reach: counts connections and the request line each one sends. */
interface Forbidden {
  port: number;
  connections: number;
  requests: string[];
  udpMessages: number;
  reset(): void;
  close(): Promise<void>;
}

async function startForbidden(): Promise<Forbidden> {
  const state = { connections: 0, requests: [] as string[], udpMessages: 0 };
  const servers: Server[] = [];
  const onConnection = (socket: import('node:net').Socket) => {
    state.connections++;
    socket.once('data', (data) => {
      const line = data.toString('latin1').split('\r\n')[0] ?? '';
      state.requests.push(/^[A-Z]+ \S+ HTTP\/1\.1$/.test(line) ? line : 'TLS or other bytes');
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    socket.on('error', () => {});
  };
  const v4 = createServer(onConnection);
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  servers.push(v4);
  const port = (v4.address() as AddressInfo).port;
  // The same port on [::1] when the machine has IPv6 loopback, so that [::1] attempts would be heard too.
  const v6 = createServer(onConnection);
  await new Promise<void>((resolve) => {
    v6.once('error', () => resolve());
    v6.listen(port, '::1', () => {
      servers.push(v6);
      resolve();
    });
  });
  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', () => state.udpMessages++);
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  return {
    port,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    get udpMessages() {
      return state.udpMessages;
    },
    reset() {
      state.connections = 0;
      state.requests = [];
      state.udpMessages = 0;
    },
    async close() {
      udp.close();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  } as Forbidden;
}

let forbidden: Forbidden;
beforeAll(async () => {
  forbidden = await startForbidden();
});
afterAll(() => forbidden?.close());

function egressPage(port: number): string {
  const target = `http://127.0.0.1:${port}`;
  const names = [
    `http://localhost:${port}`,
    `http://[::1]:${port}`,
    `http://0.0.0.0:${port}`,
    `http://2130706433:${port}`,
    `http://0x7f000001:${port}`,
    `http://127.1:${port}`,
    `https://127.0.0.1:${port}`,
    `https://localhost:${port}`,
  ];
  return `<!doctype html><html><head><meta charset="utf-8"><title>Egress</title>
<link rel="prefetch" href="${target}/prefetch">
<link rel="preconnect" href="${target}">
<link rel="dns-prefetch" href="${target}">
<link rel="stylesheet" href="${target}/style.css">
<style>
  @font-face { font-family: Leak; src: url(${target}/font.woff2); }
  body { background: url(${target}/background.png); font-family: Leak; }
</style>
</head><body>
<main id="app">waiting</main>
<img src="${target}/img.png">
<img src="/redirect-to?url=${encodeURIComponent(`${target}/redirected.png`)}">
<iframe src="${target}/iframe"></iframe>
<iframe src="/egress/frame-form"></iframe>
<iframe src="/egress/frame-refresh"></iframe>
<iframe src="/egress/frame-location"></iframe>
<object data="${target}/object"></object>
<video src="${target}/video.mp4" autoplay muted></video>
<script async src="${target}/script.js"></script>
<script>
  const target = ${JSON.stringify(target)};
  const names = ${JSON.stringify(names)};
  const attempts = [];
  const quietly = (promise) => attempts.push(Promise.resolve(promise).catch(() => {}));
  quietly(fetch(target + '/fetch', { mode: 'no-cors' }));
  quietly(new Promise((resolve) => { const x = new XMLHttpRequest(); x.onloadend = resolve; x.open('GET', target + '/xhr'); x.send(); }));
  for (const url of [${JSON.stringify(`ws://127.0.0.1:${port}/ws`)}, ${JSON.stringify(`wss://127.0.0.1:${port}/wss`)}]) {
    quietly(new Promise((resolve) => { const ws = new WebSocket(url); ws.onerror = ws.onclose = resolve; }));
  }
  quietly(new Promise((resolve) => { const es = new EventSource(target + '/events'); es.onerror = () => { es.close(); resolve(); }; }));
  try { navigator.sendBeacon(target + '/beacon', 'leak'); } catch {}
  quietly(navigator.serviceWorker ? navigator.serviceWorker.register('/egress/sw.js') : undefined);
  quietly(import(target + '/module.js'));
  for (const base of names) {
    quietly(fetch(base + '/name-fetch', { mode: 'no-cors' }));
    const image = new Image(); image.src = base + '/name-img.png';
  }
  // WebRTC: a STUN server on the listener's port; with the guard, no UDP packet may leave.
  quietly(new Promise((resolve) => {
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${port}' }] });
    pc.createDataChannel('leak');
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') resolve(); };
    pc.createOffer().then((offer) => pc.setLocalDescription(offer));
    setTimeout(resolve, 3000);
  }));
  document.getElementById('app').textContent = 'Allowed content rendered';
  // Done once every attempt has settled and the frames had time to navigate.
  Promise.all(attempts).then(() => new Promise((r) => setTimeout(r, 1000))).then(() => {
    const done = document.createElement('p'); done.id = 'done'; done.textContent = 'attempts finished'; document.body.append(done);
  });
</script>
</body></html>`;
}

const server = useFixtureServer((server) => {
  const html = (res: ServerResponse, body: string) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const target = () => `http://127.0.0.1:${forbidden.port}`;
  server.route('/egress/page', (_req, res) => html(res, egressPage(forbidden.port)));
  server.route('/egress/frame-form', (_req, res) =>
    html(
      res,
      `<form id="f" method="post" action="${target()}/form"><input name="a" value="leak"></form><script>document.getElementById('f').submit()</script>`,
    ),
  );
  server.route('/egress/frame-refresh', (_req, res) =>
    html(res, `<meta http-equiv="refresh" content="0;url=${target()}/refresh"><p>refresh</p>`),
  );
  server.route('/egress/frame-location', (_req, res) =>
    html(res, `<script>location.href = ${JSON.stringify(`${target()}/location`)}</script>`),
  );
  // Actions (issue 28 item 2): a button whose click fetches the listener, and a form whose submit posts to it.
  server.route('/egress/actions', (_req, res) =>
    html(
      res,
      `<main><h1>Actions</h1><p id="app">Allowed content rendered</p><button id="leak">Leak</button>` +
        `<form id="f" method="post" action="${target()}/submitted"><input name="a" value="leak">` +
        `<button id="send">Send</button></form></main><script>document.getElementById('leak').onclick = () => ` +
        `fetch(${JSON.stringify(`${target()}/clicked`)}, { mode: 'no-cors' }).catch(() => {}).finally(() => { ` +
        `const done = document.createElement('p'); done.id = 'clicked'; done.textContent = 'click finished'; ` +
        `document.body.append(done); });</script>`,
    ),
  );
  server.route('/egress/sw.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(`fetch(${JSON.stringify(`${target()}/service-worker`)}).catch(() => {});`);
  });
});

/**
 * The paths a page on the allowed server reaches the listener by when the listener is allowed too ('TLS…' is the
 * https fetches and wss). The service worker is not among them: contexts block service workers, so its script never
 * runs, guard or not.
 */
const PATHS = [
  'TLS or other bytes',
  '/prefetch',
  '/video.mp4',
  '/font.woff2',
  '/name-fetch',
  '/name-img.png',
  '/fetch',
  '/xhr',
  '/ws',
  '/events',
  '/beacon',
  '/img.png',
  '/redirected.png',
  '/iframe',
  '/form',
  '/refresh',
  '/location',
  '/script.js',
  '/style.css',
  '/background.png',
  '/module.js',
  '/object',
];

describeWithBrowser('the egress guard', (browserPath) => {
  it('a page reaches no address the fetcher would refuse, by any path, while its allowed content renders', async () => {
    const renderer = createBrowserRenderer(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, CHROMIUM_PATH: browserPath }),
    );
    try {
      forbidden.reset();
      const result = await renderer.render(server.url('/egress/page'), { deadlineMs: 20000, waitFor: '#done' });
      expect(result.html).toContain('Allowed content rendered');
      expect(result.html).toContain('attempts finished');
      expect(forbidden.requests).toEqual([]);
      expect(forbidden.connections).toBe(0);
      expect(forbidden.udpMessages).toBe(0);
      // The proxy saw them and said no: the attempts were made, not lost on the way.
      expect(result.refusedCount).toBeGreaterThanOrEqual(10);
      // Chromium's URL parser turns 2130706433, 0x7f000001 and 127.1 into 127.0.0.1 before the proxy sees them.
      const port = forbidden.port;
      expect(result.refusedTargets).toEqual(
        expect.arrayContaining([
          `127.0.0.1:${port} (loopback 127.0.0.0/8 (RFC 1122))`,
          `localhost:${port} (a loopback name (RFC 6761))`,
          `[::1]:${port} (loopback ::1 (RFC 4291))`,
          `0.0.0.0:${port} ("this network" 0.0.0.0/8 (RFC 791), which reaches this host)`,
        ]),
      );
    } finally {
      await renderer.close();
    }
  });

  it('control: with the listener allowed, the same page reaches it by each of those paths', async () => {
    const renderer = createBrowserRenderer(
      resolveConfig({
        ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${forbidden.port}`,
        CHROMIUM_PATH: browserPath,
      }),
    );
    try {
      forbidden.reset();
      await renderer.render(server.url('/egress/page'), { deadlineMs: 20000, waitFor: '#done' });
      const reached = forbidden.requests.map((line) => (line.startsWith('TLS') ? line : line.split(' ')[1]));
      for (const path of PATHS) expect(reached).toContain(path);
    } finally {
      await renderer.close();
    }
  });

  it('actions: a click that fetches a refused address and a form posted to one reach nothing', async () => {
    const renderer = createBrowserRenderer(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, CHROMIUM_PATH: browserPath }),
    );
    try {
      forbidden.reset();
      const clicked = await renderer.render(server.url('/egress/actions'), {
        deadlineMs: 20000,
        actions: [{ click: '#leak' }, { wait: '#clicked' }],
      });
      expect(clicked.html).toContain('click finished');
      expect(clicked.actions?.map((action) => action.status)).toEqual(['done', 'done']);
      expect(clicked.refusedTargets).toContain(`127.0.0.1:${forbidden.port} (loopback 127.0.0.0/8 (RFC 1122))`);
      // The form's post is the page's own navigation to a refused address: the read is refused, as the page would be.
      await expect(
        renderer.render(server.url('/egress/actions'), { deadlineMs: 20000, actions: [{ click: '#send' }] }),
      ).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
      expect(forbidden.requests).toEqual([]);
      expect(forbidden.connections).toBe(0);
    } finally {
      await renderer.close();
    }
  });

  it('control: with the listener allowed, the same actions reach it', async () => {
    const renderer = createBrowserRenderer(
      resolveConfig({
        ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${forbidden.port}`,
        CHROMIUM_PATH: browserPath,
      }),
    );
    try {
      forbidden.reset();
      await renderer.render(server.url('/egress/actions'), {
        deadlineMs: 20000,
        actions: [{ click: '#leak' }, { wait: '#clicked' }, { click: '#send' }],
      });
      const reached = forbidden.requests.map((line) => line.split(' ').slice(0, 2).join(' '));
      expect(reached).toEqual(expect.arrayContaining(['GET /clicked', 'POST /submitted']));
    } finally {
      await renderer.close();
    }
  });

  it('control: a browser without the guard sends the page STUN packets over UDP', async () => {
    const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      forbidden.reset();
      const page = await browser.newPage();
      await page.goto(server.url('/egress/page'));
      await page.waitForSelector('#done', { timeout: 15000 });
      expect(forbidden.udpMessages).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });
});

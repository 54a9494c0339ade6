// The one fixture server every test reaches the "web" through (STYLE §5): a real node:http server on
// 127.0.0.1, port 0, reached through ALLOW_PRIVATE_HOSTS=server.hostPort. A new hostile case is a new route.
//
//   const server = await startFixtureServer();
//   server.route('/mine/:id', (req, res, params) => res.end(params.id));
//   const config = resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort });
//   ...
//   await server.close();
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string>,
  url: URL,
) => void | Promise<void>;

export interface FixtureServer {
  /** "127.0.0.1:PORT", the value for ALLOW_PRIVATE_HOSTS. */
  readonly hostPort: string;
  readonly port: number;
  /** Absolute URL of a path on this server, e.g. url('/html'). */
  url(path: string): string;
  /** Requests received so far for a path: by pathname ('/html'), or exactly when the argument has a query. */
  hits(path: string): number;
  /** The headers of each request for a path (by pathname), in arrival order: who asked, with what User-Agent. */
  requestHeaders(path: string): IncomingHttpHeaders[];
  /** TCP connections accepted so far (keep-alive reuses one for several requests). */
  connections(): number;
  /** Adds a route (exact path, or with :params as in '/thing/:id'); later routes win over earlier and built-in ones. */
  route(path: string, handler: RouteHandler): void;
  /** Closes the server and every open connection (slow and endless routes never finish by themselves). */
  close(): Promise<void>;
}

const PAGES_DIR = fileURLToPath(new URL('./fixtures/pages/', import.meta.url));

export const ARTICLE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fixture article</title></head>
<body><nav><a href="/">Home</a></nav>
<article><h1>Fixture article</h1>
<p>This is a small article served by the fixture server. It has enough words to look like content.</p>
<p>A second paragraph with a <a href="/pages/short-page.html">relative link</a>.</p></article>
<footer>Footer text</footer></body></html>
`;

/**
 * Non-ASCII text pre-encoded in legacy charsets (Node has no TextEncoder for them). `text` is what a correct
 * decoder must produce from `bytes`.
 */
export const CHARSET_SAMPLES: Readonly<Record<string, { readonly bytes: Buffer; readonly text: string }>> = {
  // "Café — naïve €5": é E9, em dash 97, ï EF, euro 80 (the last two are where windows-1252 differs from latin1).
  'windows-1252': {
    bytes: Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x97, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x20, 0x80, 0x35]),
    text: 'Café — naïve €5',
  },
  shift_jis: { bytes: Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]), text: '日本語' },
  gbk: { bytes: Buffer.from([0xd6, 0xd0, 0xce, 0xc4]), text: '中文' },
  'euc-kr': { bytes: Buffer.from([0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee]), text: '한국어' },
  'koi8-r': { bytes: Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]), text: 'Привет' },
  'utf-8': { bytes: Buffer.from('Café — 日本語', 'utf8'), text: 'Café — 日本語' },
};

/** A 1×1 transparent PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function charsetPage(sample: Buffer, meta = ''): Buffer {
  return Buffer.concat([
    Buffer.from(`<!doctype html><html><head>${meta}<title>Charset</title></head><body><p id="text">`, 'latin1'),
    sample,
    Buffer.from('</p></body></html>', 'latin1'),
  ]);
}

function sampleFor(label: string) {
  return CHARSET_SAMPLES[label.toLowerCase()];
}

// Bombs are built on first use and kept: tests that never ask for them pay nothing.
let gzipBomb: Buffer | undefined;
let brotliBomb: Buffer | undefined;
/** 1 GiB of zeros as 100 gzip members of 10 MiB each (~1 MB on the wire); gunzip reads concatenated members. */
export const GZIP_BOMB_DECODED_BYTES = 100 * 10 * 1024 * 1024;
/** 100 MiB of zeros in one brotli stream (~20 KB on the wire). */
export const BROTLI_BOMB_DECODED_BYTES = 100 * 1024 * 1024;

function getGzipBomb(): Buffer {
  gzipBomb ??= Buffer.concat(new Array<Buffer>(100).fill(zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024), { level: 9 })));
  return gzipBomb;
}

function getBrotliBomb(): Buffer {
  brotliBomb ??= zlib.brotliCompressSync(Buffer.alloc(BROTLI_BOMB_DECODED_BYTES), {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 },
  });
  return brotliBomb;
}

/**
 * Builds the bombs now, not on their first request: a test timing the reader's CPU would otherwise count the
 * compression of 100 MiB in this process too (the brotli one: about 1 s on a busy machine).
 */
export function prepareBombs(): void {
  getGzipBomb();
  getBrotliBomb();
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
};

function html(res: ServerResponse, body: string | Buffer, status = 200, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
}

/** A route that always answers 200 with `body` as `contentType`: `server.route('/page', respondWith('text/html', PAGE))`. */
export function respondWith(contentType: string, body: string | Buffer): RouteHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  };
}

/** Sends the article page with a Content-Encoding applied. */
function encoded(encoding: string, encode: (input: Buffer) => Buffer): RouteHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': encoding });
    res.end(encode(Buffer.from(ARTICLE_HTML)));
  };
}

/** Writes `chunk` forever, respecting backpressure, until the client goes away. */
function writeForever(res: ServerResponse, chunk: Buffer) {
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

// Exact request URLs (with the port) that /retry-once has already failed once.
const onceSeen = new Set<string>();

const BUILT_IN_ROUTES: ReadonlyArray<readonly [string, RouteHandler]> = [
  ['/html', (_req, res) => html(res, ARTICLE_HTML)],
  [
    '/markdown',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
      res.end('# Fixture markdown\n\nServed as *text/markdown*.\n');
    },
  ],
  [
    '/text',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Plain text from the fixture server.\n');
    },
  ],
  [
    '/json',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: 'fixture', items: [1, 2, 3], nested: { ok: true } }));
    },
  ],
  [
    '/binary',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG_BYTES.length) });
      res.end(PNG_BYTES);
    },
  ],
  ['/empty', (_req, res) => html(res, '')],
  [
    '/echo-headers',
    (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.headers));
    },
  ],

  // Redirects (RFC 9110 §15.4): relative Locations, a loop, and an open redirect to anywhere.
  [
    '/redirect/:n',
    (_req, res, { n = '0' }) => {
      const left = Number(n);
      res.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : '/html' });
      res.end();
    },
  ],
  [
    '/redirect-loop',
    (_req, res) => {
      res.writeHead(302, { location: '/redirect-loop' });
      res.end();
    },
  ],
  [
    '/redirect-to',
    (_req, res, _params, url) => {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), {
        location: url.searchParams.get('url') ?? '/html',
      });
      res.end();
    },
  ],

  // Misbehaving servers.
  [
    '/slow',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<');
      const timer = setInterval(() => res.write('p'), 500);
      setTimeout(() => clearInterval(timer), 10 * 60 * 1000).unref();
      res.on('close', () => clearInterval(timer));
    },
  ],
  [
    '/slow-headers',
    () => {
      // Never answers: the request stays open until the client gives up or the server closes.
    },
  ],
  [
    '/endless',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      writeForever(res, Buffer.alloc(64 * 1024, 'x'));
    },
  ],
  [
    '/large/:bytes',
    (_req, res, { bytes = '0' }) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': bytes });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let left = Number(bytes);
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= part.length;
          if (!res.write(part)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
    },
  ],
  [
    '/gzip-bomb',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(getGzipBomb());
    },
  ],
  [
    '/brotli-bomb',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' });
      res.end(getBrotliBomb());
    },
  ],
  [
    '/corrupt-gzip',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(Buffer.from('this is not gzip at all, just text pretending'));
    },
  ],
  ['/gzip', encoded('gzip', (input) => zlib.gzipSync(input))],
  ['/deflate', encoded('deflate', (input) => zlib.deflateSync(input))],
  ['/deflate-raw', encoded('deflate', (input) => zlib.deflateRawSync(input))],
  ['/br', encoded('br', (input) => zlib.brotliCompressSync(input))],

  // Statuses, rate limits and bot walls.
  [
    '/status/:code',
    (_req, res, { code = '500' }) => {
      const status = Number(code);
      if (!(status >= 200 && status <= 599)) return html(res, 'bad status', 400);
      if (status === 204 || status === 304) {
        res.writeHead(status);
        return res.end();
      }
      html(res, `<html><body><h1>Status ${status}</h1></body></html>`, status);
    },
  ],
  [
    '/retry-after/:seconds',
    (_req, res, { seconds = '0' }) => {
      html(res, '<p>Too many requests</p>', 429, { 'retry-after': seconds });
    },
  ],
  [
    '/retry-after-date/:seconds',
    (_req, res, { seconds = '0' }) => {
      const date = new Date(Date.now() + Number(seconds) * 1000).toUTCString();
      html(res, '<p>Too many requests</p>', 429, { 'retry-after': date });
    },
  ],
  [
    '/unavailable/:seconds',
    (_req, res, { seconds = '0' }) => {
      html(res, '<p>Down for maintenance</p>', 503, { 'retry-after': seconds });
    },
  ],
  // Fails once (per exact path + query; use a unique query per test), then serves the article.
  // ?status=503 for a 503 instead of 429.
  [
    '/retry-once/:seconds',
    (req, res, { seconds = '0' }, url) => {
      if (onceSeen.has(`${url.port}${req.url}`)) return html(res, ARTICLE_HTML);
      onceSeen.add(`${url.port}${req.url}`);
      html(res, '<p>Try again</p>', Number(url.searchParams.get('status') ?? 429), { 'retry-after': seconds });
    },
  ],
  // A Cloudflare-style challenge for browser-like agents; the honest product agent gets the page.
  [
    '/challenge',
    (req, res) => {
      if ((req.headers['user-agent'] ?? '').startsWith('web-reader/')) return html(res, ARTICLE_HTML);
      html(res, '<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>', 403, {
        'cf-mitigated': 'challenge',
      });
    },
  ],

  // Character sets: /charset/:label declares it in the header only; -meta and -http-equiv in the page only.
  [
    '/charset/:label',
    (_req, res, { label = '' }) => {
      const sample = sampleFor(label);
      if (!sample) return html(res, 'unknown label', 404);
      html(res, charsetPage(sample.bytes), 200, { 'content-type': `text/html; charset=${label}` });
    },
  ],
  [
    '/charset-meta/:label',
    (_req, res, { label = '' }) => {
      const sample = sampleFor(label);
      if (!sample) return html(res, 'unknown label', 404);
      html(res, charsetPage(sample.bytes, `<meta charset="${label}">`), 200, { 'content-type': 'text/html' });
    },
  ],
  [
    '/charset-http-equiv/:label',
    (_req, res, { label = '' }) => {
      const sample = sampleFor(label);
      if (!sample) return html(res, 'unknown label', 404);
      const meta = `<meta http-equiv="Content-Type" content="text/html; charset=${label}">`;
      html(res, charsetPage(sample.bytes, meta), 200, { 'content-type': 'text/html' });
    },
  ],
  // UTF-8 with a byte order mark and no declared charset.
  [
    '/charset-bom',
    (_req, res) => {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), charsetPage(CHARSET_SAMPLES['utf-8']!.bytes)]);
      html(res, body, 200, { 'content-type': 'text/html' });
    },
  ],
  // The header (windows-1252, correct) contradicts the page's <meta charset="utf-8">: the header wins.
  [
    '/charset-conflict',
    (_req, res) => {
      const body = charsetPage(CHARSET_SAMPLES['windows-1252']!.bytes, '<meta charset="utf-8">');
      html(res, body, 200, { 'content-type': 'text/html; charset=windows-1252' });
    },
  ],
  // windows-1252 bytes and no declaration anywhere: invalid UTF-8, so the decoder falls back to windows-1252.
  [
    '/charset-none',
    (_req, res) => {
      html(res, charsetPage(CHARSET_SAMPLES['windows-1252']!.bytes), 200, { 'content-type': 'text/html' });
    },
  ],

  // Files from test/fixtures/pages/, by name.
  [
    '/pages/:name',
    async (_req, res, { name = '' }) => {
      if (!/^[\w-][\w.-]*$/.test(name)) return html(res, 'bad name', 400);
      try {
        const body = await readFile(join(PAGES_DIR, name));
        const type = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      } catch {
        // A missing file is the 404 the test asked for, not a server failure.
        html(res, `<h1>No fixture page ${name}</h1>`, 404);
      }
    },
  ],
];

function compile(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((part) => (part.startsWith(':') ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}$`);
}

/** A loopback port that was just free: connecting to it is refused (a site that is down). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const routes: Array<{ pattern: RegExp; handler: RouteHandler }> = BUILT_IN_ROUTES.map(([path, handler]) => ({
    pattern: compile(path),
    handler,
  }));
  const hitCounts = new Map<string, number>();
  const count = (key: string) => hitCounts.set(key, (hitCounts.get(key) ?? 0) + 1);
  const headersByPath = new Map<string, IncomingHttpHeaders[]>();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    count(url.pathname);
    const seen = headersByPath.get(url.pathname);
    if (seen) seen.push(req.headers);
    else headersByPath.set(url.pathname, [req.headers]);
    if (url.search !== '') count(url.pathname + url.search);
    for (const { pattern, handler } of routes) {
      const match = pattern.exec(url.pathname);
      if (!match) continue;
      const params = Object.fromEntries(
        Object.entries(match.groups ?? {}).map(([key, value]) => [key, decodeURIComponent(value)]),
      );
      Promise.resolve(handler(req, res, params, url)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fixture route failed: ${String(error)}`);
      });
      return;
    }
    html(res, `<h1>No fixture route for ${url.pathname}</h1>`, 404);
  });

  let connections = 0;
  server.on('connection', () => (connections += 1));

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const hostPort = `127.0.0.1:${port}`;

  return {
    hostPort,
    port,
    url: (path) => `http://${hostPort}${path.startsWith('/') ? '' : '/'}${path}`,
    hits: (path) => hitCounts.get(path) ?? 0,
    requestHeaders: (path) => headersByPath.get(path) ?? [],
    connections: () => connections,
    route(path, handler) {
      routes.unshift({ pattern: compile(path), handler });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

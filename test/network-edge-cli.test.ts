// Issue 10's network edge through the built CLI (`web-reader read`): one deadline over connect and TLS, a
// proxy asked for the checked address, stacked codings, a BOM over the header charset, declared HTML with a NUL.
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useFixtureServer } from './use-fixture-server.js';
import { runCli, type CliRun } from './run-cli.js';

let staller: Server;
let stallerPort: number;
const stalled: Socket[] = [];
/** How long each stalled handshake was held open, ms: from accept to the client's close. */
const heldOpen: number[] = [];
let proxy: HttpServer;
let proxyUrl: string;
const proxyTargets: string[] = [];

async function read(url: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(
    ['read', url],
    { ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0', ...env },
    { timeoutMs: 30_000 },
  );
}

const server = useFixtureServer((server) => {
  server.route('/html-with-nul', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Nul page</title><body><h1>Still a page</h1><p>before\u0000after</p></body>');
  });
  server.route('/bom-over-header', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=windows-1252' });
    res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Café crème', 'utf8')]));
  });
  server.route('/six-codings', (_req, res) => {
    let body = Buffer.from('layered');
    for (let layer = 0; layer < 6; layer += 1) body = zlib.gzipSync(body);
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip,gzip,gzip,gzip,gzip,gzip' });
    res.end(body);
  });
});

beforeAll(async () => {
  staller = createServer((socket) => {
    stalled.push(socket);
    const accepted = Date.now();
    socket.on('close', () => heldOpen.push(Date.now() - accepted));
    socket.on('error', () => {}).resume();
  });
  await new Promise<void>((resolve) => staller.listen(0, '127.0.0.1', resolve));
  stallerPort = (staller.address() as AddressInfo).port;

  // A forward proxy that records the request-target of each absolute-form request and forwards to loopback.
  proxy = createHttpServer((req, res) => {
    proxyTargets.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of stalled) socket.destroy();
  await new Promise((resolve) => staller.close(resolve));
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
});

describe('web-reader read at the network edge', () => {
  it('a redirect to https:// on a port that stalls the TLS handshake fails at FETCH_TIMEOUT, not after 10 s', async () => {
    const target = `https://127.0.0.1:${stallerPort}/`;
    const url = server.url(`/redirect-to?url=${encodeURIComponent(target)}`);
    const run = await read(url, {
      ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${stallerPort}`,
      FETCH_TIMEOUT: '1500',
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`Timed out after 1500 ms fetching ${url}`);
    // The stalled handshake was dropped at the 1.5 s deadline, well before the old code's control: undici's 10 s
    // connect timeout. Timed at the socket, so the process's start-up and a busy machine do not count.
    await vi.waitFor(() => expect(heldOpen).toHaveLength(1), { timeout: 10_000 });
    expect(heldOpen[0]).toBeLessThan(8000);
  });

  it('plain http:// through HTTP_PROXY goes as an absolute-form request to the checked address', async () => {
    proxyTargets.length = 0;
    const run = await read(server.url('/html'), { HTTP_PROXY: proxyUrl });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Fixture article');
    // The page first; anything after it (the origin's /llms.txt, an idle lookup that a one-shot read may exit before
    // it is made) goes through the same proxy, absolute-form, to the same checked origin.
    expect(proxyTargets[0]).toBe(server.url('/html'));
    for (const target of proxyTargets) expect([server.url('/html'), server.url('/llms.txt')]).toContain(target);
  });

  it('a declared text/html page with a NUL byte is read as HTML, not as binary', async () => {
    const run = await read(server.url('/html-with-nul'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Still a page');
    expect(run.stdout).not.toMatch(/Binary content/);
  });

  it('a byte order mark decides the encoding over the Content-Type charset', async () => {
    const run = await read(server.url('/bom-over-header'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Café crème');
  });

  it('six stacked content codings are refused with a clear error', async () => {
    const run = await read(server.url('/six-codings'));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('its Content-Encoding lists 6 codings, more than the limit of 5');
  });
});

// Keep-alive across calls (guarded-fetch.ts, idle-networks.ts): calls to one origin share a connection, while each
// call's deadline still ends only its own connects and requests.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../test/fixture-server.js';
import { resolveConfig } from '../config.js';
import { createFetcher } from './guarded-fetch.js';

let server: FixtureServer;
const stallers: Server[] = [];
const accepted: Socket[] = [];

/** A TCP server that accepts and never says a word: a TLS handshake to it stalls. */
async function startStaller() {
  const connections: Array<{ closedAt?: number }> = [];
  const staller = createServer((socket) => {
    const record: { closedAt?: number } = {};
    connections.push(record);
    accepted.push(socket);
    socket.on('error', () => {});
    socket.resume();
    socket.on('close', () => (record.closedAt = Date.now()));
  });
  await new Promise<void>((resolve) => staller.listen(0, '127.0.0.1', resolve));
  stallers.push(staller);
  return { port: (staller.address() as AddressInfo).port, connections };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/after/:ms', async (_req, res, params) => {
    await sleep(Number(params.ms));
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`after ${params.ms} ms`);
  });
});

afterEach(() => {
  for (const socket of accepted.splice(0)) socket.destroy();
});

afterAll(async () => {
  await server.close();
  await Promise.all(stallers.map((staller) => new Promise((resolve) => staller.close(resolve))));
});

function fetcher(env: Record<string, string> = {}) {
  return createFetcher(resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, FETCH_TIMEOUT: '5000', ...env }));
}

describe('connections are reused across calls', () => {
  it('10 sequential fetches of one origin use one connection', async () => {
    const fetchPage = fetcher();
    const before = server.connections();
    for (let i = 0; i < 10; i++) {
      const page = await fetchPage(server.url(`/html?i=${i}`));
      expect(page.status).toBe(200);
    }
    expect(server.connections() - before).toBe(1); // one per call before: 10
  });

  it('a redirect chain and an HTTP error do not stop reuse', async () => {
    const fetchPage = fetcher();
    const before = server.connections();
    await fetchPage(server.url('/redirect/3'));
    await expect(fetchPage(server.url('/missing-page'))).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    await fetchPage(server.url('/html'));
    expect(server.connections() - before).toBe(1);
  });

  it('concurrent calls open a connection each, and the next calls reuse them', async () => {
    const fetchPage = fetcher();
    const before = server.connections();
    await Promise.all([0, 1, 2, 3].map((i) => fetchPage(server.url(`/after/50?a=${i}`))));
    const opened = server.connections() - before;
    expect(opened).toBeLessThanOrEqual(4);
    await Promise.all([0, 1, 2, 3].map((i) => fetchPage(server.url(`/after/50?b=${i}`))));
    expect(server.connections() - before).toBe(opened);
  });

  it('a call that timed out mid-response leaves nothing to reuse: the next call opens its own connection', async () => {
    const fetchPage = fetcher();
    await fetchPage(server.url('/html'));
    const before = server.connections();
    await expect(fetchPage(server.url('/after/3000'), { timeoutMs: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const page = await fetchPage(server.url('/html'));
    expect(page.status).toBe(200);
    // The timed-out call reused the idle connection and it was destroyed with the call; the next one is new.
    expect(server.connections() - before).toBe(1);
  });

  it('a connection the server closed while idle is not handed on: the next call connects again', async () => {
    server.route('/close-after', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('bye');
    });
    const fetchPage = fetcher();
    const before = server.connections();
    await fetchPage(server.url('/close-after'));
    await sleep(100);
    const page = await fetchPage(server.url('/html'));
    expect(page.status).toBe(200);
    expect(server.connections() - before).toBe(2);
  });

  it('a request the server drops as it arrives on an idle connection is sent again on a new one', async () => {
    // The race every keep-alive client meets: the server closes an idle connection as the next request arrives.
    const served = new WeakSet<object>();
    server.route('/once-per-connection', (req, res) => {
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('fresh connection');
    });
    const fetchPage = fetcher();
    const before = server.connections();
    await fetchPage(server.url('/once-per-connection?1'));
    const page = await fetchPage(server.url('/once-per-connection?2'));
    expect(new TextDecoder().decode(page.body)).toBe('fresh connection');
    expect(server.hits('/once-per-connection?2')).toBe(2);
    expect(server.connections() - before).toBe(2);
  });

  it('is retried once only: a server that drops every request still fails the call', async () => {
    server.route('/drop-second', (req, res) => {
      if (req.url?.endsWith('?first')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      req.socket.destroy();
    });
    const fetchPage = fetcher();
    await fetchPage(server.url('/drop-second?first'));
    await expect(fetchPage(server.url('/drop-second?again'))).rejects.toMatchObject({ code: 'CONNECT_FAILED' });
    expect(server.hits('/drop-second?again')).toBe(2);
  });
});

describe("one call's deadline ends only its own connect", () => {
  it("A's deadline during a stalled TLS handshake spares a concurrent B, and C later gets its own full deadline", async () => {
    const stalled = await startStaller();
    const stalledUrl = (path: string) => `https://127.0.0.1:${stalled.port}${path}`;
    const fetchPage = fetcher({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${stalled.port}` });
    const started = Date.now();
    const a = fetchPage(stalledUrl('/a'), { timeoutMs: 400 });
    const b = fetchPage(server.url('/after/1200'), { timeoutMs: 5000 }); // still running when A times out
    let bSettled = false;
    void b.finally(() => (bSettled = true)).catch(() => undefined);
    const aLonger = fetchPage(stalledUrl('/a-longer'), { timeoutMs: 1500 }); // connecting to A's origin too
    await expect(a).rejects.toMatchObject({ code: 'TIMEOUT', timeoutMs: 400 });
    expect(bSettled).toBe(false); // A ended at its own deadline, not with B's page
    await expect(b).resolves.toMatchObject({ status: 200 });
    await expect(aLonger).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining(`Timed out after 1500 ms fetching ${stalledUrl('/a-longer')}`),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);

    const cStarted = Date.now();
    await expect(fetchPage(stalledUrl('/c'), { timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringContaining(`Timed out after 1000 ms fetching ${stalledUrl('/c')}`),
    });
    const cElapsed = Date.now() - cStarted;
    expect(cElapsed).toBeGreaterThanOrEqual(900); // its own full deadline (the message says which fired)
    // Three handshakes, each its own socket, each destroyed at its own call's deadline.
    await expect
      .poll(() => stalled.connections.every((connection) => connection.closedAt !== undefined), { timeout: 5000 })
      .toBe(true);
    expect(stalled.connections).toHaveLength(3);
  });
});

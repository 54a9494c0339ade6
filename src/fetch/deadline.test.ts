// One deadline (FETCH_TIMEOUT) over DNS, connect, TLS, headers and body: stalls that undici alone would wait
// 10 s (per address) for, or forever (DNS), end at the call's deadline with a TimeoutError.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../test/fixture-server.js';
import { resolveConfig } from '../config.js';
import type { LookupAddresses } from './guarded-connect.js';
import { createFetcher } from './guarded-fetch.js';

let server: FixtureServer;
const stallers: Server[] = [];
const accepted: Socket[] = [];

/** A TCP server on `host` that accepts and never says a word: a TLS handshake (or an HTTP request) stalls. */
async function startStaller(host = '127.0.0.1', port = 0) {
  const connections: Array<{ address: string; closedAt?: number }> = [];
  const staller = createServer((socket) => {
    const record: { address: string; closedAt?: number } = { address: socket.localAddress ?? '' };
    connections.push(record);
    accepted.push(socket);
    socket.on('error', () => {});
    socket.resume(); // read (and ignore) the ClientHello, so the client's close is seen
    socket.on('close', () => (record.closedAt = Date.now()));
  });
  await new Promise<void>((resolve, reject) => {
    staller.once('error', reject);
    staller.listen(port, host, resolve);
  });
  stallers.push(staller);
  return { port: (staller.address() as AddressInfo).port, connections };
}

beforeAll(async () => {
  server = await startFixtureServer();
});

afterEach(() => {
  for (const socket of accepted.splice(0)) socket.destroy();
});

afterAll(async () => {
  await server.close();
  await Promise.all(stallers.map((staller) => new Promise((resolve) => staller.close(resolve))));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The control a deadline is timed against: well under undici's own 10 s connect timeout (per address), which is what
 * the old code waited for. Far above the deadlines below, so a loaded machine does not reach it; the error's code
 * and message say which deadline fired.
 */
const CONTROL_MS = 8000;

describe('the deadline covers connecting', () => {
  it('a redirect to https:// on a port that never answers the TLS handshake times out at FETCH_TIMEOUT', async () => {
    const { port, connections } = await startStaller();
    const target = `https://127.0.0.1:${port}/`;
    const url = server.url(`/redirect-to?url=${encodeURIComponent(target)}`);
    const fetchPage = createFetcher(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${port}`, FETCH_TIMEOUT: '1500' }),
    );
    const started = Date.now();
    await expect(fetchPage(url)).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'TIMEOUT',
      timeoutMs: 1500,
      message: `Timed out after 1500 ms fetching ${url}. Try again later or raise FETCH_TIMEOUT.`,
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(CONTROL_MS); // the old code waited for undici's 10 s connect timeout
    // The half-open TLS socket was destroyed at the deadline, not left to undici's connect timeout.
    await expect.poll(() => connections[0]?.closedAt, { timeout: 5000 }).toBeDefined();
    expect(connections).toHaveLength(1);
    expect(connections[0]!.closedAt! - started).toBeLessThan(CONTROL_MS);
  });

  it('a name with two stalled addresses ends at the deadline and tries no address after it', async () => {
    const first = await startStaller('127.0.0.2');
    const second = await startStaller('127.0.0.3', first.port);
    const lookups: string[] = [];
    const lookup: LookupAddresses = async (hostname) => {
      lookups.push(hostname);
      return [
        { address: '127.0.0.2', family: 4 },
        { address: '127.0.0.3', family: 4 },
      ];
    };
    const hostPort = `stalled.test:${first.port}`;
    const fetchPage = createFetcher(resolveConfig({ ALLOW_PRIVATE_HOSTS: hostPort, FETCH_TIMEOUT: '1500' }), {
      lookup,
    });
    const started = Date.now();
    await expect(fetchPage(`https://${hostPort}/`)).rejects.toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(CONTROL_MS); // the old code: 10 s per address, 21 s in all
    await expect.poll(() => first.connections[0]?.closedAt, { timeout: 5000 }).toBeDefined();
    await sleep(500); // time for a second address to be tried, were it to be
    expect(lookups).toEqual(['stalled.test']);
    expect(first.connections.map((c) => c.address)).toEqual(['127.0.0.2']);
    expect(second.connections).toEqual([]);
  });

  it('a plain http:// server that accepts and never answers times out at the deadline too', async () => {
    const { port } = await startStaller();
    const fetchPage = createFetcher(resolveConfig({ ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`, FETCH_TIMEOUT: '800' }));
    await expect(fetchPage(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 'TIMEOUT', timeoutMs: 800 });
  });
});

describe('the deadline covers DNS', () => {
  it('a resolver that never answers is abandoned at the deadline, and told so', async () => {
    let lookupSignal: AbortSignal | undefined;
    const lookup: LookupAddresses = (_hostname, options) => {
      lookupSignal = options?.signal;
      return new Promise(() => {});
    };
    const fetchPage = createFetcher(resolveConfig({ FETCH_TIMEOUT: '800' }), { lookup });
    const started = Date.now();
    await expect(fetchPage('https://silent-dns.test/')).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'TIMEOUT',
      message: 'Timed out after 800 ms fetching https://silent-dns.test/. Try again later or raise FETCH_TIMEOUT.',
    });
    expect(Date.now() - started).toBeLessThan(CONTROL_MS); // the old code waited for the resolver forever
    expect(lookupSignal?.aborted).toBe(true);
  });

  it("a caller's cancellation during DNS rejects at once with the caller's reason", async () => {
    const fetchPage = createFetcher(resolveConfig({ FETCH_TIMEOUT: '10000' }), {
      lookup: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    const reason = new DOMException('client went away', 'AbortError');
    setTimeout(() => controller.abort(reason), 100);
    // The caller's reason, not the TimeoutError that FETCH_TIMEOUT (10 s) would end it with.
    await expect(fetchPage('https://silent-dns.test/', { signal: controller.signal })).rejects.toBe(reason);
  });
});

describe('cancellation during the TLS handshake', () => {
  it("rejects at once with the caller's reason and closes the socket", async () => {
    const { port, connections } = await startStaller();
    const fetchPage = createFetcher(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`, FETCH_TIMEOUT: '20000' }),
    );
    const controller = new AbortController();
    const reason = new DOMException('cancelled', 'AbortError');
    setTimeout(() => controller.abort(reason), 300);
    // The caller's reason, not the TimeoutError that FETCH_TIMEOUT (20 s) would end it with.
    await expect(fetchPage(`https://127.0.0.1:${port}/`, { signal: controller.signal })).rejects.toBe(reason);
    await expect.poll(() => connections[0]?.closedAt, { timeout: 5000 }).toBeDefined();
  });
});

// Through HTTP_PROXY / HTTPS_PROXY the product still decides where the connection goes: the proxy is asked for
// the address we resolved and checked, never a name it could resolve differently (a real loopback proxy below
// records what it was asked). Plain http:// goes as an absolute-form proxy request, https:// as CONNECT.
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { connect as netConnect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../test/fixture-server.js';
import { resolveConfig } from '../config.js';
import type { LookupAddresses } from './guarded-connect.js';
import { createFetcher } from './guarded-fetch.js';

let server: FixtureServer;
let proxy: HttpServer;
let proxyUrl: string;
let staller: Server;
let stallerUrl: string;
const stallerConnections: Array<{ closed: boolean }> = [];

/** What the test proxy was asked for. */
const log = {
  connects: [] as string[],
  requests: [] as Array<{ target: string; host: string | undefined; auth: string | undefined }>,
  tunnelBytes: [] as Buffer[],
  /** TCP connections the proxy accepted. */
  connections: 0,
};

// Our resolver's answers (the product's view of DNS).
const ourDns: Record<string, string[]> = {
  'site.test': ['127.0.0.1'],
  'rebind.test': ['127.0.0.1'],
  'public.test': ['93.184.216.34'],
};
const lookup: LookupAddresses = async (hostname) => {
  const addresses = ourDns[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 }));
};
// The proxy's own DNS disagrees: it sends public.test (and egress.test, unknown to us) to loopback, where the
// fixture server listens. It never reaches the internet: anything else is a 502.
const proxyDns: Record<string, string> = { 'public.test': '127.0.0.1', 'egress.test': '127.0.0.1' };
function resolveAtProxy(host: string): string | undefined {
  const address = proxyDns[host] ?? host;
  return address.startsWith('127.') ? address : undefined;
}

function splitAuthority(authority: string): [string, number] {
  const colon = authority.lastIndexOf(':');
  return [authority.slice(0, colon), Number(authority.slice(colon + 1))];
}

function fetcher(env: Record<string, string> = {}) {
  const config = resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, FETCH_TIMEOUT: '3000', ...env });
  return createFetcher(config, { lookup });
}

beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/proxy-secret', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret');
  });

  // A minimal forward proxy: absolute-form requests (RFC 9112 §3.2.2) and CONNECT tunnels (RFC 9110 §9.3.6).
  proxy = createHttpServer((req, res) => {
    log.requests.push({ target: req.url ?? '', host: req.headers.host, auth: req.headers['proxy-authorization'] });
    const target = new URL(req.url ?? '');
    const address = resolveAtProxy(target.hostname);
    if (!address) return void res.writeHead(502).end('proxy: no route');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { host: address, port: target.port || 80, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end();
  });
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    log.connects.push(req.url ?? '');
    client.on('error', () => {});
    const [host, port] = splitAuthority(req.url ?? '');
    const address = resolveAtProxy(host);
    if (!address) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const upstream = netConnect(port, address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      client.once('data', (chunk: Buffer) => log.tunnelBytes.push(chunk));
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  proxy.on('connection', () => (log.connections += 1));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  // A "proxy" that accepts and never answers.
  staller = createServer((socket) => {
    const record = { closed: false };
    stallerConnections.push(record);
    socket
      .on('error', () => {})
      .on('close', () => (record.closed = true))
      .resume();
  });
  await new Promise<void>((resolve) => staller.listen(0, '127.0.0.1', resolve));
  stallerUrl = `http://127.0.0.1:${(staller.address() as AddressInfo).port}`;
});

beforeEach(() => {
  log.connects.length = 0;
  log.requests.length = 0;
  log.tunnelBytes.length = 0;
  log.connections = 0;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => staller.close(resolve));
  await server.close();
});

describe('plain http:// through HTTP_PROXY', () => {
  it('goes as an absolute-form proxy request, not CONNECT', async () => {
    const page = await fetcher({ HTTP_PROXY: proxyUrl })(server.url('/html'));
    expect(new TextDecoder().decode(page.body)).toContain('Fixture article');
    expect(log.connects).toEqual([]);
    expect(log.requests).toEqual([{ target: server.url('/html'), host: server.hostPort, auth: undefined }]);
  });

  it('pins the checked address in the request-target and keeps the name in Host', async () => {
    const hostPort = `site.test:${server.port}`;
    const fetchPage = fetcher({ HTTP_PROXY: proxyUrl, ALLOW_PRIVATE_HOSTS: hostPort });
    const page = await fetchPage(`http://${hostPort}/echo-headers?x=1`);
    expect(log.requests).toEqual([
      { target: `http://127.0.0.1:${server.port}/echo-headers?x=1`, host: hostPort, auth: undefined },
    ]);
    expect(JSON.parse(new TextDecoder().decode(page.body))).toMatchObject({ host: hostPort });
    expect(page.finalUrl).toBe(`http://${hostPort}/echo-headers?x=1`);
  });

  it("sends the proxy URL's credentials as Proxy-Authorization", async () => {
    const withCredentials = proxyUrl.replace('http://', 'http://reader:pa%20ss@');
    await fetcher({ HTTP_PROXY: withCredentials })(server.url('/html'));
    expect(log.requests[0]?.auth).toBe(`Basic ${Buffer.from('reader:pa ss').toString('base64')}`);
  });

  it('a name the proxy would resolve to loopback is fetched at our checked address, so loopback stays out of reach', async () => {
    const url = `http://public.test:${server.port}/proxy-secret`;
    await expect(fetcher({ HTTP_PROXY: proxyUrl })(url)).rejects.toMatchObject({
      name: 'HttpStatusError',
      status: 502,
    });
    expect(log.requests.map((r) => r.target)).toEqual([`http://93.184.216.34:${server.port}/proxy-secret`]);
    expect(server.hits('/proxy-secret')).toBe(0);
  });

  it('checks the target before asking the proxy', async () => {
    const fetchPage = fetcher({ HTTP_PROXY: proxyUrl });
    const sentinel = `127.0.0.1:${server.port + 1}`;
    await expect(fetchPage(`http://rebind.test:${server.port}/`)).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
    await expect(fetchPage(`http://${sentinel}/`)).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(log.requests).toEqual([]);
  });

  it('keeps its connection to the proxy across calls, and still pins each call to its own checked address', async () => {
    const hostPort = `site.test:${server.port}`;
    const fetchPage = fetcher({ HTTP_PROXY: proxyUrl, ALLOW_PRIVATE_HOSTS: hostPort });
    await fetchPage(`http://${hostPort}/html`);
    await fetchPage(`http://${hostPort}/html?again`);
    await expect(fetchPage(`http://public.test:${server.port}/proxy-secret`)).rejects.toMatchObject({ status: 502 });
    expect(log.requests.map((r) => r.target)).toEqual([
      `http://127.0.0.1:${server.port}/html`,
      `http://127.0.0.1:${server.port}/html?again`,
      `http://93.184.216.34:${server.port}/proxy-secret`,
    ]);
    expect(log.connections).toBe(1);
    expect(server.hits('/proxy-secret')).toBe(0);
  });

  it('bypasses the proxy for NO_PROXY hosts', async () => {
    const page = await fetcher({ HTTP_PROXY: proxyUrl, NO_PROXY: 'localhost, 127.0.0.1' })(server.url('/html'));
    expect(page.status).toBe(200);
    expect(log.requests).toEqual([]);
  });
});

describe('https:// through HTTPS_PROXY', () => {
  it('asks the proxy to CONNECT to the checked address and keeps the name in SNI', async () => {
    const hostPort = `site.test:${server.port}`;
    const fetchPage = fetcher({ HTTPS_PROXY: proxyUrl, ALLOW_PRIVATE_HOSTS: hostPort });
    // The fixture server speaks plain HTTP, so the TLS handshake through the tunnel fails; what matters is
    // where the tunnel went and what the ClientHello named.
    await expect(fetchPage(`https://${hostPort}/html`)).rejects.toMatchObject({ code: 'CONNECT_FAILED' });
    expect(log.connects).toEqual([`127.0.0.1:${server.port}`]);
    expect(log.requests).toEqual([]);
    const hello = log.tunnelBytes[0]!;
    expect(hello[0]).toBe(0x16); // a TLS handshake record
    expect(hello.toString('latin1')).toContain('site.test');
  });

  it('never hands the proxy a name it could resolve to loopback', async () => {
    await expect(fetcher({ HTTPS_PROXY: proxyUrl })('https://public.test/proxy-secret')).rejects.toMatchObject({
      code: 'CONNECT_FAILED',
      message: expect.stringContaining('answered HTTP 502 to CONNECT 93.184.216.34:443'),
    });
    expect(log.connects).toEqual(['93.184.216.34:443']);
    expect(server.hits('/proxy-secret')).toBe(0);
  });

  it('a proxy that never answers CONNECT ends at FETCH_TIMEOUT', async () => {
    // The staller never answers: only the deadline ends the call, and its error says so.
    await expect(
      fetcher({ HTTPS_PROXY: stallerUrl, FETCH_TIMEOUT: '800' })('https://public.test/'),
    ).rejects.toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT', timeoutMs: 800 });
    // The connection to the proxy is not left open.
    await expect.poll(() => stallerConnections, { timeout: 5000 }).toEqual([{ closed: true }]);
  });
});

describe('PROXY_IS_EGRESS_POLICY: a machine whose only way out is the proxy', () => {
  it('without it, a name our resolver cannot resolve fails before the proxy is asked', async () => {
    await expect(fetcher({ HTTP_PROXY: proxyUrl })(`http://egress.test:${server.port}/html`)).rejects.toMatchObject({
      code: 'CONNECT_FAILED',
      message: expect.stringContaining('ENOTFOUND egress.test'),
    });
    expect(log.requests).toEqual([]);
  });

  it('with it, the name goes to the proxy: absolute-form for http://, CONNECT for https://', async () => {
    const fetchPage = fetcher({ HTTP_PROXY: proxyUrl, PROXY_IS_EGRESS_POLICY: '1' });
    const page = await fetchPage(`http://egress.test:${server.port}/html`);
    expect(new TextDecoder().decode(page.body)).toContain('Fixture article');
    expect(log.requests.map((r) => [r.target, r.host])).toEqual([
      [`http://egress.test:${server.port}/html`, `egress.test:${server.port}`],
    ]);
    await expect(fetchPage(`https://egress.test:${server.port}/`)).rejects.toMatchObject({ code: 'CONNECT_FAILED' });
    expect(log.connects).toEqual([`egress.test:${server.port}`]);
  });

  it('with it, a name our resolver answers with a private address is still refused', async () => {
    const fetchPage = fetcher({ HTTP_PROXY: proxyUrl, PROXY_IS_EGRESS_POLICY: 'true' });
    await expect(fetchPage(`http://rebind.test:${server.port}/`)).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(log.requests).toEqual([]);
  });

  it('is a start-up error when misspelt', () => {
    expect(() => resolveConfig({ PROXY_IS_EGRESS_POLICY: 'maybe' })).toThrow(/PROXY_IS_EGRESS_POLICY must be one of/);
  });
});

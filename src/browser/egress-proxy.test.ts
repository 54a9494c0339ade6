// The proxy alone, without a browser: what it lets through, what it refuses, and to whom it answers at all.
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixtureServer } from '../../test/use-fixture-server.js';
import { startEgressProxy, type EgressProxy, type EgressSession } from './egress-proxy.js';

const server = useFixtureServer((server) => {
  server.route('/big', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.alloc(256 * 1024, 1));
  });
});

let proxy: EgressProxy;
beforeAll(async () => {
  proxy = await startEgressProxy({ allowPrivateHosts: new Set([server.hostPort]) });
});
afterAll(() => proxy?.close());

const basic = (session: Pick<EgressSession, 'username' | 'password'>) =>
  `Basic ${Buffer.from(`${session.username}:${session.password}`).toString('base64')}`;

/** A plain-http request through the proxy in absolute-form. */
function viaProxy(
  url: string,
  authorization?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        headers: { host: new URL(url).host, ...(authorization ? { 'proxy-authorization': authorization } : {}) },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** CONNECT through the proxy; resolves with the status line and the socket (left open on 200). */
function tunnel(target: string, authorization?: string): Promise<{ statusLine: string; socket: Socket }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      const auth = authorization ? `Proxy-Authorization: ${authorization}\r\n` : '';
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
    });
    socket.once('data', (data) => resolve({ statusLine: data.toString('latin1').split('\r\n')[0] ?? '', socket }));
    socket.once('error', reject);
  });
}

describe('egress proxy', () => {
  it('answers nobody without a session: 407 for plain requests and CONNECT, also with a wrong password', async () => {
    const session = proxy.openSession({ maxBytes: 1e6 });
    try {
      const none = await viaProxy(server.url('/html'));
      expect(none.status).toBe(407);
      expect(none.headers['proxy-authenticate']).toMatch(/^Basic/);
      expect((await viaProxy(server.url('/html'), basic({ ...session, password: 'guess' }))).status).toBe(407);
      const { statusLine, socket } = await tunnel(server.hostPort);
      socket.destroy();
      expect(statusLine).toBe('HTTP/1.1 407 Proxy Authentication Required');
      expect(server.hits('/html')).toBe(0);
    } finally {
      session.close();
    }
  });

  it('forwards an allowed host and counts the bytes; a closed session is refused again', async () => {
    const session = proxy.openSession({ maxBytes: 1e6 });
    const answer = await viaProxy(server.url('/html'), basic(session));
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Fixture article');
    expect(session.downloadedBytes).toBeGreaterThanOrEqual(answer.body.length);
    session.close();
    expect((await viaProxy(server.url('/html'), basic(session))).status).toBe(407);
  });

  it.each([
    ['a loopback address on another port', 'http://127.0.0.1:1/x', '127.0.0.1:1 (loopback 127.0.0.0/8 (RFC 1122))'],
    ['localhost', 'http://localhost:1/x', 'localhost:1 (a loopback name (RFC 6761))'],
    ['link-local metadata', 'http://169.254.169.254/latest', '169.254.169.254:80 (link-local 169.254.0.0/16'],
    ['the allowed port under another name', 'http://localhost:PORT/html', 'localhost:PORT (a loopback name'],
  ])('refuses %s with 403 and counts it', async (_name, rawUrl, reason) => {
    const session = proxy.openSession({ maxBytes: 1e6 });
    try {
      const url = rawUrl.replace('PORT', String(server.port));
      const answer = await viaProxy(url, basic(session));
      expect(answer.status).toBe(403);
      expect(answer.headers['x-web-reader-refused']).toBe('403');
      expect(session.refusedCount).toBe(1);
      expect(session.refusedTargets[0]).toContain(reason.replace('PORT', String(server.port)));
    } finally {
      session.close();
    }
  });

  it('CONNECT: an allowed host:port gets a tunnel, a private one 403', async () => {
    const session = proxy.openSession({ maxBytes: 1e6 });
    try {
      const allowed = await tunnel(server.hostPort, basic(session));
      expect(allowed.statusLine).toBe('HTTP/1.1 200 Connection Established');
      const refused = await tunnel('[::1]:443', basic(session));
      expect(refused.statusLine).toBe('HTTP/1.1 403 Forbidden');
      refused.socket.destroy();
      // Ending the session destroys the tunnel it opened.
      const closed = new Promise((resolve) => allowed.socket.once('close', resolve));
      session.close();
      await closed;
      expect(allowed.socket.destroyed).toBe(true);
    } finally {
      session.close();
    }
  });

  it('past the byte cap the session is over: its connections close and later requests are refused', async () => {
    const session = proxy.openSession({ maxBytes: 64 * 1024 });
    await viaProxy(server.url('/big'), basic(session)).catch(() => undefined);
    expect(session.overLimit).toBe(true);
    expect((await viaProxy(server.url('/html'), basic(session))).status).toBe(407);
  });
});

// Issue 10's network edge through a real MCP client over stdio: the fetch tool's deadline covers a stalled TLS
// handshake, and declared HTML with a NUL byte is read as a page.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { useMcpSession } from './session.js';

let staller: Server;
let stallerPort: number;
const stalled: Socket[] = [];

const { server, session } = useMcpSession({
  async setup(server) {
    server.route('/nul-page', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Nul page</title><body><h1>Still a page</h1><p>one\u0000two</p></body>');
    });
    staller = createServer((socket) => {
      stalled.push(socket);
      socket.on('error', () => {}).resume();
    });
    await new Promise<void>((resolve) => staller.listen(0, '127.0.0.1', resolve));
    stallerPort = (staller.address() as AddressInfo).port;
  },
  env: (server) => ({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${stallerPort}`, FETCH_TIMEOUT: '1500' }),
});

afterAll(async () => {
  for (const socket of stalled) socket.destroy();
  await new Promise((resolve) => staller.close(resolve));
});

describe('fetch over MCP at the network edge', () => {
  it('a redirect to a port that stalls the TLS handshake is a timeout at FETCH_TIMEOUT, not after 10 s', async () => {
    const target = `https://127.0.0.1:${stallerPort}/`;
    const url = server.url(`/redirect-to?url=${encodeURIComponent(target)}`);
    const started = Date.now();
    const result = await session.call('fetch', { url });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Timed out after 1500 ms');
    expect(Date.now() - started).toBeLessThan(7000); // the old code: undici's 10 s connect timeout
  });

  it('declared text/html with a NUL byte is read as HTML', async () => {
    const result = await session.call('fetch', { url: server.url('/nul-page') });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('Still a page');
    expect(result.text).not.toContain('Binary content');
  });
});

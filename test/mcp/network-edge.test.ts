// Issue 10's network edge through a real MCP client over stdio: the fetch tool's deadline covers a stalled TLS
// handshake, and declared HTML with a NUL byte is read as a page.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { useMcpSession } from './session.js';

let staller: Server;
let stallerPort: number;
const stalled: Socket[] = [];
/** How long each stalled handshake was held open, ms: from accept to the client's close. */
const heldOpen: number[] = [];

const { server, session } = useMcpSession({
  async setup(server) {
    server.route('/nul-page', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Nul page</title><body><h1>Still a page</h1><p>one\u0000two</p></body>');
    });
    staller = createServer((socket) => {
      stalled.push(socket);
      const accepted = Date.now();
      socket.on('close', () => heldOpen.push(Date.now() - accepted));
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
    const result = await session.call('fetch', { url });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Timed out after 1500 ms');
    // The stalled handshake was dropped at the 1.5 s deadline, well before the old code's control: undici's 10 s
    // connect timeout. Timed at the socket, so a slow process start or a busy machine does not count.
    await expect.poll(() => heldOpen.length).toBe(1);
    expect(heldOpen[0]).toBeLessThan(8000);
  });

  it('declared text/html with a NUL byte is read as HTML', async () => {
    const result = await session.call('fetch', { url: server.url('/nul-page') });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('Still a page');
    expect(result.text).not.toContain('Binary content');
  });
});

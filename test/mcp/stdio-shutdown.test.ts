// SIGTERM on `web-reader` over stdio (issue 10, scope 3): a graceful stop. A call running when the signal arrives
// still gets its answer (within the grace period), then the process exits 0. Before, the process died at once and
// the client's call failed with "Connection closed".
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { connectStdio } from './stdio-client.js';

const fixtures = useFixtureServer((server) =>
  server.route('/slow-answer', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>Slow</title></head><body><main><h1>Slow answer</h1>' +
          `<p>${'Worth the wait, this page says, in enough words to count as content. '.repeat(5)}</p></main></body></html>`,
      );
    }, 1000);
  }),
);

describe('web-reader over stdio on SIGTERM', () => {
  it('lets a running call answer, then exits', async () => {
    const session = await connectStdio([], { ALLOW_PRIVATE_HOSTS: fixtures.hostPort, PER_DOMAIN_INTERVAL: '0' });
    const transport = session.client.transport as StdioClientTransport;
    const exited = new Promise<void>((resolve) => (session.client.onclose = () => resolve()));
    const call = session.call('fetch', { url: fixtures.url('/slow-answer') });
    await expect.poll(() => fixtures.hits('/slow-answer'), { timeout: 10_000 }).toBe(1);
    process.kill(transport.pid!, 'SIGTERM');
    const result = await call;
    expect(result.isError, result.text).toBeFalsy();
    expect(result.text).toContain('Slow answer');
    await exited;
  });
});

// MCP logging over Streamable HTTP (issue 15 item 5): many clients share one process, and a log line reaches only
// the session whose call caused it. Two sessions at debug read two pages of one host at once; PER_DOMAIN_INTERVAL
// makes the second wait in the shared queue, started from the other call's stack (src/fetch/queue.ts binds it back).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { useTestHttpServer } from './http-harness.js';

const fixtures = useFixtureServer();
// PER_DOMAIN_INTERVAL far above QUEUE_WAIT_LOG_MS (1 s), so the second call's wait is logged however late a loaded
// machine queues it after the first: with 3 s, two test suites on two cores once queued b's request more than 3 s
// after a's last one, and nobody waited.
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, PER_DOMAIN_INTERVAL: '8000' }));
const clients: Client[] = [];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
});

async function debugSession(): Promise<{ client: Client; lines: string[] }> {
  const client = new Client({ name: 'web-reader-logging-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(http.mcpUrl));
  clients.push(client);
  const lines: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    lines.push(String((notification.params as LoggingMessageNotification['params']).data));
  });
  await client.setLoggingLevel('debug');
  return { client, lines };
}

describe('MCP logging over Streamable HTTP', () => {
  it("sends each session only its own calls' lines, the queue wait included", async () => {
    const a = await debugSession();
    const b = await debugSession();
    const pathA = '/retry-once/0';
    const pathB = '/html';
    const call = (session: { client: Client }, path: string, query = '') =>
      session.client.callTool({ name: 'fetch', arguments: { url: fixtures.url(path + query) } });
    // b's call starts once a's first request has reached the host, so b's is the one that waits for its turn.
    const first = call(a, pathA, '?who=a');
    await expect.poll(() => fixtures.hits(pathA)).toBeGreaterThan(0);
    const results = (await Promise.all([first, call(b, pathB)])) as CallToolResult[];
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false]);
    await Promise.all([a.client.ping(), b.client.ping()]); // every notification written before the results is handled

    expect(a.lines).toContainEqual(expect.stringContaining('answered HTTP 429 with Retry-After 0 s'));
    expect(a.lines).toContainEqual(expect.stringMatching(new RegExp(`^fetched \\S+${pathA}\\?…: HTTP 200`)));
    expect(b.lines).toContainEqual(expect.stringMatching(new RegExp(`^fetched \\S+${pathB}: HTTP 200`)));
    expect(b.lines.join('\n')).not.toContain(pathA);
    expect(a.lines.join('\n')).not.toContain(pathB);
    // One of the two waited up to 8 s behind the other's request; its line went to it, naming its own page.
    const waits = [...a.lines, ...b.lines].filter((line) => line.startsWith('waited '));
    expect(waits.length).toBeGreaterThan(0);
  });
});

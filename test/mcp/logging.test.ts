// MCP logging over stdio through the SDK's real Client (issue 15 item 5; src/server-logging.ts): the server declares
// `logging`, honours logging/setLevel, and sends the log lines its calls cause as notifications/message.
//
// Ordering: the server writes a call's notifications before its result, but the SDK's client handles a
// notification a microtask after reading it; a ping round trip after the call guarantees every notification written
// before the result has been handled (stdio is one ordered stream).
import {
  CallToolResultSchema,
  EmptyResultSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { useMcpSession } from './session.js';
import type { StdioSession } from './stdio-client.js';

type Message = LoggingMessageNotification['params'];

const { server, session, connect } = useMcpSession({
  tools: 'fetch,crawl',
  setup(site) {
    site.route('/robots.txt', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private/\n');
    });
  },
});

/** The log notifications `mcp` receives from now on. */
function listen(mcp: StdioSession): Message[] {
  const messages: Message[] = [];
  mcp.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(notification.params);
  });
  return messages;
}

async function callAndSettle(mcp: StdioSession, args: Record<string, unknown>) {
  const result = await mcp.call('fetch', args);
  await mcp.client.ping();
  return result;
}

let messages: Message[];
beforeEach(() => {
  messages = listen(session);
});

describe('MCP logging', () => {
  it('declares the logging capability', () => {
    expect(session.client.getServerCapabilities()?.logging).toEqual({});
  });

  it("at debug, sends the call's retry after a 429 with Retry-After, and each fetch", async () => {
    await session.client.setLoggingLevel('debug');
    const url = server.url('/retry-once/0?case=debug');
    const result = await callAndSettle(session, { url });
    expect(result.isError).toBeFalsy();
    const origin = new URL(url).origin;
    expect(messages).toContainEqual({
      level: 'info',
      logger: 'web-reader',
      data: `${new URL(url).host} answered HTTP 429 with Retry-After 0 s; fetching ${origin}/retry-once/0?… again in 0 s`,
    });
    expect(messages).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        data: expect.stringMatching(/^fetched .*\/retry-once\/0\?…: HTTP 200/),
      }),
    );
  });

  it('at error, sends none of those lines', async () => {
    await session.client.setLoggingLevel('error');
    await callAndSettle(session, { url: server.url('/retry-once/0?case=error') });
    expect(messages).toEqual([]);
  });

  it('before any logging/setLevel, sends warning and above only: no retry or fetch lines', async () => {
    const fresh = await connect();
    const heard = listen(fresh);
    await callAndSettle(fresh, { url: server.url('/retry-once/0?case=default') });
    expect(heard).toEqual([]);
    await fresh.client.setLoggingLevel('info'); // the same call after asking for info: heard
    await callAndSettle(fresh, { url: server.url('/retry-once/0?case=default-info') });
    expect(heard.map((message) => message.data)).toEqual([expect.stringContaining('answered HTTP 429')]);
  });

  it('never sends the values of `headers` or the query of a URL', async () => {
    await session.client.setLoggingLevel('debug');
    const url = server.url('/retry-once/0?token=SECRET-IN-QUERY');
    await callAndSettle(session, { url, headers: { authorization: 'Bearer SECRET-IN-HEADER' } });
    expect(messages.length).toBeGreaterThan(1);
    expect(JSON.stringify(messages)).not.toContain('SECRET');
  });

  it('sends a robots.txt refusal (RESPECT_ROBOTS=always) to the call it refused', async () => {
    const strict = await connect({ RESPECT_ROBOTS: 'always' });
    const heard = listen(strict);
    await strict.client.setLoggingLevel('info');
    const result = await callAndSettle(strict, { url: server.url('/private/page') });
    expect(result.isError).toBe(true);
    expect(heard).toContainEqual(
      expect.objectContaining({
        level: 'info',
        data: `robots.txt of ${new URL(server.url('/')).origin} disallows ${server.url('/private/page')}: refused (RESPECT_ROBOTS=always)`,
      }),
    );
  });

  it("sends a task crawl's lines (its robots.txt skip) to the session that started it", async () => {
    await session.client.setLoggingLevel('info');
    const stream = session.client.experimental.tasks.callToolStream(
      { name: 'crawl', arguments: { url: server.url('/private/page') } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    for await (const message of stream) kinds.push(message.type);
    // Nothing read (the one URL is disallowed), so the task ends failed; its lines are what this test is about.
    expect([kinds[0], kinds.at(-1)]).toEqual(['taskCreated', 'error']);
    await session.client.ping();
    expect(messages).toContainEqual(
      expect.objectContaining({
        level: 'info',
        data: `crawl: skipped ${server.url('/private/page')}: disallowed by robots.txt`,
      }),
    );
  });

  it('refuses an unknown level with Invalid params', async () => {
    const request = { method: 'logging/setLevel', params: { level: 'verbose' } };
    await expect(session.client.request(request, EmptyResultSchema)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });
});

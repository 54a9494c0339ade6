// MCP over Streamable HTTP through the SDK's real Client and StreamableHTTPClientTransport, against the loopback
// fixture server: list and call tools, progress over SSE, cancellation, sessions (DELETE, cap, idle expiry),
// Origin and token refusals.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS, findTool } from '../../src/tools/registry.js';
import { SLOW_MACHINE_RENDER_TIMEOUT } from '../browser-available.js';
import { useFixtureServer } from '../use-fixture-server.js';
import {
  countdownTool,
  startTestHttpServer,
  toolEvents,
  useTestHttpServer,
  waitForCancelTool,
} from './http-harness.js';

const fixtures = useFixtureServer();
const http = useTestHttpServer(
  // screenshot renders (Chromium from PATH): the deadline a busy machine needs to start it (test/browser-available.ts).
  () => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT }),
  [...ALL_TOOLS, countdownTool, waitForCancelTool],
);
const clients: Client[] = [];

async function connect(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'web-reader-http-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

function textOf(result: unknown): string {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
}

// Runs before the servers close: vitest runs after-hooks as a stack, and useTestHttpServer registered its own first.
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
});

describe('tools over MCP Streamable HTTP', () => {
  it('lists the chosen tools with their JSON Schemas and annotations', async () => {
    const client = await connect(http.mcpUrl);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...ALL_TOOLS.map((t) => t.name), 'countdown', 'wait_for_cancel']);
    const fetch = tools.find((tool) => tool.name === 'fetch');
    expect(fetch?.inputSchema.required).toEqual(['url']);
    expect(fetch?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  });

  // The tools that read one URL; read_many and search have their own tests (test/http/many-api.test.ts).
  const oneUrlTools = ALL_TOOLS.filter((tool) => 'url' in tool.inputShape);
  it.each(oneUrlTools.map((tool) => [tool.name]))('calls %s on a fixture page', async (name) => {
    const client = await connect(http.mcpUrl);
    const tool = findTool(name)!;
    expect(Object.keys(tool.inputShape)).toContain('url');
    const result = (await client.callTool({ name, arguments: { url: fixtures.url('/html') } })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result).length).toBeGreaterThan(0);
  });

  it('reports a tool failure as isError with the message, and an argument error naming the argument', async () => {
    const client = await connect(http.mcpUrl);
    const failed = await client.callTool({ name: 'fetch', arguments: { url: fixtures.url('/status/404') } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('404');
    const invalid = await client.callTool({ name: 'fetch', arguments: { url: fixtures.url('/html'), max_length: -1 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('max_length');
  });

  it('streams progress notifications over SSE while the call runs', async () => {
    const client = await connect(http.mcpUrl);
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'countdown', arguments: { steps: 4 } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(textOf(result)).toBe('counted 4');
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
    expect(progress[0]).toMatchObject({ total: 4, message: 'step 1' });
  });

  it.skipIf(!findTool('crawl'))('streams progress on a crawl, one notification per page read', async () => {
    const page = (title: string, links: string[]) =>
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
      `<p>${`${title} is a page of the small progress site, long enough to count as content. `.repeat(8)}</p>` +
      `${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</main></body></html>`;
    const site: Record<string, string[]> = {
      '/progress/a': ['/progress/b', '/progress/c'],
      '/progress/b': ['/progress/c'],
      '/progress/c': ['/progress/a'],
    };
    for (const [path, links] of Object.entries(site)) {
      fixtures.route(path, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page(path, links));
      });
    }
    const client = await connect(http.mcpUrl);
    const progress: Progress[] = [];
    const result = (await client.callTool(
      { name: 'crawl', arguments: { url: fixtures.url('/progress/a'), patterns: ['/progress/*'] } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    )) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.map((update) => update.progress)).toEqual(progress.map((_update, i) => i + 1));
  });

  it('cancels a running call on the server when the client aborts it', async () => {
    const client = await connect(http.mcpUrl);
    const abortedBefore = toolEvents.aborted;
    const controller = new AbortController();
    const started = toolEvents.nextStart.promise;
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, { signal: controller.signal });
    await started;
    controller.abort('the user changed their mind');
    await expect(call).rejects.toThrow();
    await expect.poll(() => toolEvents.aborted, { timeout: 8000 }).toBe(abortedBefore + 1);
  });
});

describe('sessions', () => {
  it('gives each client its own session and ends it on DELETE', async () => {
    const client = await connect(http.mcpUrl);
    const transport = client.transport as StreamableHTTPClientTransport;
    const before = http.handle.sessionCount;
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await transport.terminateSession();
    await expect.poll(() => http.handle.sessionCount).toBe(before - 1);
    const response = await fetch(http.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId ?? 'ended',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });

  // The session cap (LRU eviction of an idle session, 503 when all are busy): test/http/admission.test.ts.

  it('expires a session with no open request after the idle time', async () => {
    const idle = await startTestHttpServer({}, ALL_TOOLS, { sessionIdleMs: 200 });
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(idle.mcpUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        }),
      });
      expect(init.status).toBe(200);
      await init.text();
      const sessionId = init.headers.get('mcp-session-id')!;
      expect(idle.handle.sessionCount).toBe(1);
      await expect.poll(() => idle.handle.sessionCount, { timeout: 15_000 }).toBe(0);
      const later = await fetch(idle.mcpUrl, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(later.status).toBe(404);
    } finally {
      await idle.close();
    }
  });
});

describe('refusals', () => {
  it('refuses a browser Origin that is not this server with 403', async () => {
    await expect(connect(http.mcpUrl, { origin: 'http://evil.example' })).rejects.toMatchObject({ code: 403 });
  });

  it('accepts an Origin listed in WEB_READER_ALLOWED_ORIGINS', async () => {
    const listed = await startTestHttpServer({ WEB_READER_ALLOWED_ORIGINS: 'http://app.example:8080' });
    try {
      const client = await connect(listed.mcpUrl, { origin: 'http://app.example:8080' });
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      await listed.close();
    }
  });

  it('requires the bearer token when one is configured: 401 without it, a session with it', async () => {
    const guarded = await startTestHttpServer({ WEB_READER_TOKEN: 's3cret' }, [countdownTool]);
    try {
      await expect(connect(guarded.mcpUrl)).rejects.toMatchObject({ code: 401 });
      await expect(connect(guarded.mcpUrl, { authorization: 'Bearer wrong' })).rejects.toMatchObject({ code: 401 });
      const client = await connect(guarded.mcpUrl, { authorization: 'Bearer s3cret' });
      expect(textOf(await client.callTool({ name: 'countdown', arguments: { steps: 1 } }))).toBe('counted 1');
    } finally {
      await guarded.close();
    }
  });
});

// The crawl as a task for 2026-07-28 clients: the tasks extension `io.modelcontextprotocol/tasks` (SEP-2663, issue 25
// scope 2), over Streamable HTTP with raw JSON-RPC — the SDK's v2 client (2.4.0) does not speak the extension.
// A request that declares the extension gets a flat CreateTaskResult for a crawl; tasks/get inlines the result once
// it has ended; tasks/cancel stops the crawl's upstream requests; without the extension, the crawl answers in the
// call and tasks/* answer -32021; the removed 2025 methods answer -32601.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { useTestHttpServer } from './http-harness.js';
import { requestModern, TASKS_EXTENSION as TASKS, withoutMeta } from './modern-rpc.js';

const article = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${`${title} is a page of this small site, with words enough to count as its main content. `.repeat(6)}</p>` +
  `${links}</main></body></html>`;

const held = { arrived: 0, dropped: 0, responses: [] as ServerResponse[] };

const fixtures = useFixtureServer((server) => {
  const page = (body: string) => (_req: unknown, res: ServerResponse) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  };
  server.route('/docs/', page(article('Docs', '<a href="/docs/a">A</a> <a href="/docs/b">B</a>')));
  server.route('/docs/a', page(article('Docs A')));
  server.route('/docs/b', page(article('Docs B')));
  server.route('/held/', page(article('Held', '<a href="/held/1">1</a> <a href="/held/2">2</a>')));
  server.route('/held/:n', (_req, res) => {
    held.arrived += 1;
    held.responses.push(res);
    res.on('close', () => {
      if (!res.writableEnded) held.dropped += 1;
    });
  });
});
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, MAX_OUTPUT_TOKENS: '0' }));

const request = (method: string, params: Record<string, unknown>, declared = true) =>
  requestModern(http.mcpUrl, method, params, declared);

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

describe('crawl as a 2026-07-28 task', () => {
  it('is advertised under capabilities.extensions by server/discover, not as a 2025 tasks capability', async () => {
    const { result } = await request('server/discover', {});
    const capabilities = result!.capabilities as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(capabilities).not.toHaveProperty('tasks');
  });

  it('answers a crawl with a flat task at once; tasks/get inlines the crawl once it has ended', async () => {
    const created = (await request('tools/call', { name: 'crawl', arguments: { url: fixtures.url('/docs/') } }))
      .result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(created).not.toHaveProperty('task');
    expect(created).not.toHaveProperty('ttl');
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const taskId = created.taskId as string;
    // Durable before the answer: a tasks/get at once finds it.
    expect((await request('tasks/get', { taskId })).result).toMatchObject({ taskId, resultType: 'complete' });
    let task: Record<string, unknown> = {};
    await until('the task completes', async () => {
      task = (await request('tasks/get', { taskId })).result!;
      return task.status !== 'working';
    });
    expect(task.status).toBe('completed');
    const result = task.result as {
      resultType: string;
      content: Array<{ text: string }>;
      structuredContent: { pages_read: number };
    };
    expect(result.resultType).toBe('complete'); // the call's own answer in this era, as the requester reads it
    expect(result.content[0]!.text).toContain('Docs B');
    expect(result.structuredContent.pages_read).toBe(3);
    expect(task).not.toHaveProperty('error');
  });

  it('answers the crawl in the call for a request that does not declare the extension', async () => {
    const answer = await request('tools/call', { name: 'crawl', arguments: { url: fixtures.url('/docs/') } }, false);
    expect(answer.result!.resultType).toBe('complete');
    expect(answer.result).not.toHaveProperty('taskId');
    expect(JSON.stringify(answer.result!.content)).toContain('Docs A');
  });

  it('runs a tool that is not long as a plain call, extension or not', async () => {
    const answer = await request('tools/call', { name: 'fetch', arguments: { url: fixtures.url('/docs/a') } });
    expect(answer.result!.resultType).toBe('complete');
    expect(JSON.stringify(answer.result!.content)).toContain('Docs A');
  });

  it('refuses tasks/* without the extension (-32021), an unknown task (-32602) and the removed methods (-32601)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const undeclared = await request('tasks/get', { taskId: unknown }, false);
    expect(undeclared.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    expect((await request('tasks/cancel', { taskId: unknown }, false)).error?.code).toBe(-32021);
    expect((await request('tasks/get', { taskId: unknown })).error).toMatchObject({ code: -32602 });
    expect((await request('tasks/get', { taskId: unknown })).error!.message).toContain(`Unknown task '${unknown}'`);
    expect((await request('tasks/cancel', { taskId: unknown })).error?.code).toBe(-32602);
    expect((await request('tasks/update', { taskId: unknown, inputResponses: {} })).error?.code).toBe(-32602);
    expect((await request('tasks/list', {})).error?.code).toBe(-32601);
    expect((await request('tasks/result', { taskId: unknown })).error?.code).toBe(-32601);
  });

  it('stops the crawl on tasks/cancel: an empty acknowledgement, its upstream requests dropped, then cancelled', async () => {
    const created = (await request('tools/call', { name: 'crawl', arguments: { url: fixtures.url('/held/') } }))
      .result!;
    const taskId = created.taskId as string;
    await until('the crawl waits on a held page', () => held.arrived > 0);
    const ack = await request('tasks/cancel', { taskId });
    expect(withoutMeta(ack.result)).toEqual({ resultType: 'complete' });
    await until('the held requests are dropped', () => held.dropped === held.arrived);
    const task = (await request('tasks/get', { taskId })).result!;
    expect(task).toMatchObject({ status: 'cancelled', statusMessage: 'cancelled by the client' });
    expect(task).not.toHaveProperty('result');
    // Idempotent on an ended task.
    expect(withoutMeta((await request('tasks/cancel', { taskId })).result)).toEqual({ resultType: 'complete' });
    // tasks/update of a task that asked for nothing is acknowledged.
    const update = await request('tasks/update', { taskId, inputResponses: {} });
    expect(withoutMeta(update.result)).toEqual({ resultType: 'complete' });
  });

  it("tells a crawl's progress in tasks/get's statusMessage: pages read of max_pages, tokens of max_tokens", async () => {
    const arrived = held.arrived;
    const created = (
      await request('tools/call', { name: 'crawl', arguments: { url: fixtures.url('/held/'), max_pages: 7 } })
    ).result!;
    const taskId = created.taskId as string;
    expect(created.statusMessage).toBe('started');
    await until('the crawl waits on a held page', () => held.arrived > arrived);
    let task: Record<string, unknown> = {};
    await until('the start page is read', async () => {
      task = (await request('tasks/get', { taskId })).result!;
      return String(task.statusMessage).startsWith('1 ');
    });
    expect(task.status).toBe('working');
    // The spec's one channel for a polled task's progress (SEP-2663 DetailedTask.statusMessage): the crawl's own
    // progress sentence, with both budgets.
    expect(task.statusMessage).toMatch(/^1 of at most 7 pages read, \d+ of \d+ tokens, 2 URLs in the frontier$/);
    await request('tasks/cancel', { taskId });
    await until('the held requests are dropped', () => held.dropped === held.arrived);
  });
});

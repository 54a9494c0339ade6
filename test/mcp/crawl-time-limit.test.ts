// A crawl finishes inside a client's patience (issue 10, scope 6): the crawl tool through the SDK's real Client over
// stdio, the JSON tools API and the tool itself, against slow loopback sites (test/crawl-site.ts addSlowTree). It
// stops at max_seconds with what it read and a continue_from id; continuing reads the rest, no page twice, budgets
// held over the sum; progress carries a total and none arrives after the result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { createEngine } from '../../src/engine/engine.js';
import { DEFAULT_MAX_SECONDS, type CrawlToolResult } from '../../src/tools/crawl-schema.js';
import { crawlTool } from '../../src/tools/crawl-tool.js';
import { runTool } from '../../src/tools/run-tool.js';
import { addSlowTree } from '../crawl-site.js';
import { startTestHttpServer, type TestHttpServer } from '../http/http-harness.js';
import { expectStopsGrowing } from '../stops-growing.js';
import { useMcpSession } from './session.js';

const CONTINUE_LINE = /To continue: call crawl with continue_from="([0-9a-f-]{36})"/;

let trees = 0;

const { server, connect } = useMcpSession({
  tools: 'all',
  perTest: true,
  env: { FETCH_TIMEOUT: '20000', MAX_OUTPUT_TOKENS: '0' },
});

/**
 * A fresh slow tree (its own prefix, so hit counts are this test's): 150 ms a page, page 2 hangs once; or, once a
 * test calls `release`, page 2 hangs until then and answers after, whichever request it is (a first call that ends
 * before it asks for page 2, as on a loaded machine, leaves the continuation a page that answers).
 */
function slowTree(count = 30, hangOnce: number | null = 2): { paths: string[]; start: string; release: () => void } {
  const prefix = `/tree${++trees}`;
  let released: boolean | undefined;
  const hangWhile = () => (released === undefined ? server.hits(`${prefix}/${hangOnce}`) === 1 : !released);
  const paths = addSlowTree(server, { count, delayMs: 150, hangOnce: hangOnce ?? undefined, hangWhile, prefix });
  return { paths, start: server.url(`${prefix}/0`), release: () => (released = true) };
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

const pathsOf = (data: CrawlToolResult) => data.pages.map((page) => new URL(page.url).pathname);

describe('crawl within max_seconds over MCP', () => {
  it('declares max_seconds (default 45, under the SDK client 60 s timeout) and continue_from; url is optional', async () => {
    expect(DEFAULT_MAX_SECONDS).toBe(45);
    const { client } = await connect();
    const crawl = (await client.listTools()).tools.find((tool) => tool.name === 'crawl')!;
    expect(crawl.inputSchema.properties).toMatchObject({
      max_seconds: { type: 'integer', default: 45, minimum: 1, maximum: 3600 },
      continue_from: { type: 'string' },
    });
    expect(crawl.inputSchema.required ?? []).not.toContain('url');
    expect(crawl.outputSchema?.properties).toHaveProperty('continue_from');
  });

  it('stops at max_seconds without waiting for a hanging page, then continues: every page once, nothing fetched twice', async () => {
    const { paths, start } = slowTree();
    const { client } = await connect();
    // The crawler, the engine and the tokenizer load on a server's first call (start-up, issue 15): this test is
    // about the deadline, so a first crawl loads them before the timed one.
    const warm = slowTree(1, null);
    await client.callTool({ name: 'crawl', arguments: { url: warm.start, max_pages: 1 } });
    const began = Date.now();
    const first = (await client.callTool({
      name: 'crawl',
      arguments: { url: start, max_seconds: 2, max_pages: 100 },
    })) as CallToolResult;
    // The hanging page would hold the call for FETCH_TIMEOUT (20 s), and the crawl would then end another way:
    // stop_reason 'time_limit' below says the deadline ended it. Only the lower bound is timed (load never makes a
    // timer early).
    expect(Date.now() - began).toBeGreaterThanOrEqual(1900);
    const one = first.structuredContent as CrawlToolResult;
    const text = textOf(first);
    expect(first.isError).toBeFalsy();
    expect(one.stop_reason).toBe('time_limit');
    expect(one.status).toBe('ok');
    expect(one.truncated).toBe(true);
    expect(one.max_seconds).toBe(2);
    expect(pathsOf(one)).toEqual([paths[0], paths[1]]); // page 2 hangs at the head of the frontier
    expect(text).toContain('- Stopped: time limit (max_seconds 2)');
    const id = CONTINUE_LINE.exec(text)?.[1];
    expect(id).toBeDefined();
    expect(one.continue_from).toBe(id);
    expect(one.skipped_counts.budget).toBe(0);

    const second = (await client.callTool({ name: 'crawl', arguments: { continue_from: id } })) as CallToolResult;
    const two = second.structuredContent as CrawlToolResult;
    expect(two.stop_reason).toBe('frontier_empty');
    expect(two.continue_from).toBeUndefined();
    expect(textOf(second)).not.toMatch(CONTINUE_LINE);
    expect(textOf(second)).toContain(`## [3] Tree 2`); // numbered after the first call's pages
    expect(two.total_pages_read).toBe(paths.length);
    const all = [...pathsOf(one), ...pathsOf(two)];
    expect([...all].sort()).toEqual([...paths].sort());
    // Pages read by the first call were fetched once; the page abandoned in flight was requested again. Others
    // fetched ahead of their turn came from the cache if they finished before the deadline, which a loaded machine
    // decides: none was requested more than twice, and no more than one slot's worth each (MAX_CONCURRENT) twice.
    const readFirst = new Set(pathsOf(one));
    for (const path of paths) {
      if (path === paths[2]) expect.soft(server.hits(path), path).toBe(2);
      else if (readFirst.has(path)) expect.soft(server.hits(path), path).toBe(1);
      else expect.soft(server.hits(path), path).toBeLessThanOrEqual(2);
    }
    const twice = paths.filter((path) => server.hits(path) === 2);
    expect(twice.length, twice.join(', ')).toBeLessThanOrEqual(resolveConfig({}).maxConcurrent);
  });

  it('holds max_pages and max_tokens over the sum of the calls', async () => {
    const { start, release } = slowTree(30);
    const { client } = await connect();
    const first = (await client.callTool({
      name: 'crawl',
      arguments: { url: start, max_seconds: 2, max_pages: 6 },
    })) as CallToolResult;
    release();
    const one = first.structuredContent as CrawlToolResult;
    // Page 2 hangs at the head of the frontier: at most pages 0 and 1 before the time limit (fewer when a loaded
    // machine starts the server's first crawl slowly); the count is what the sum below is held to.
    expect(one.stop_reason).toBe('time_limit');
    expect(one.pages_read).toBeLessThanOrEqual(2);
    const second = (await client.callTool({
      name: 'crawl',
      // Scope and budgets are the crawl's: a max_pages given again does not reset them.
      arguments: { continue_from: one.continue_from, max_pages: 100 },
    })) as CallToolResult;
    const two = second.structuredContent as CrawlToolResult;
    expect(two.pages_read).toBe(6 - one.pages_read);
    expect(two.total_pages_read).toBe(6);
    expect(two.stop_reason).toBe('max_pages');

    const { start: tokensStart, release: releaseTokens } = slowTree(30);
    // Two pages' worth (what the time-limited call below can read at most, page 2 hanging), then about one more.
    const perPage = Math.max(...[...one.pages, ...two.pages].map((page) => page.tokens));
    const budget = 2 * perPage + 250;
    const a = (
      await client.callTool({ name: 'crawl', arguments: { url: tokensStart, max_seconds: 2, max_tokens: budget } })
    ).structuredContent as CrawlToolResult;
    releaseTokens();
    expect(a.stop_reason).toBe('time_limit');
    const b = (await client.callTool({ name: 'crawl', arguments: { continue_from: a.continue_from } }))
      .structuredContent as CrawlToolResult;
    expect(b.stop_reason).toBe('max_tokens');
    expect(b.max_tokens).toBe(budget);
    expect(a.tokens_used + b.tokens_used).toBeLessThanOrEqual(budget);
    expect(b.total_tokens_used).toBe(a.tokens_used + b.tokens_used);
  });

  it('keeps one id for the whole crawl: continued, and continued again, with the id first given (issue 23)', async () => {
    // More pages than any machine reads in the first call's 1 s (150 ms each, MAX_CONCURRENT at a time): the first
    // call must stop at its time limit, however fast or loaded the machine.
    const { paths, start } = slowTree(40, null);
    const { client } = await connect();
    const warm = slowTree(1, null); // the crawler loads with a server's first crawl
    await client.callTool({ name: 'crawl', arguments: { url: warm.start, max_pages: 1 } });
    const first = (await client.callTool({ name: 'crawl', arguments: { url: start, max_seconds: 1 } }))
      .structuredContent as CrawlToolResult;
    const id = first.continue_from!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const read = pathsOf(first);
    // A call continues it (the site sees its requests); while it runs, the same id is refused with when to retry,
    // never "unknown".
    const hits = () => paths.reduce((sum, path) => sum + server.hits(path), 0);
    const before = hits();
    const second = client.callTool({
      name: 'crawl',
      arguments: { continue_from: id, max_seconds: 2 },
    }) as Promise<CallToolResult>;
    for (let i = 0; i < 500 && hits() === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hits()).toBeGreaterThan(before);
    const refused = (await client.callTool({ name: 'crawl', arguments: { continue_from: id } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      new RegExp(`continue_from '${id}': this crawl is running on this server; try again in \\d+ s`),
    );
    expect(refused.structuredContent).toMatchObject({
      error: { code: 'QUEUE_TIMEOUT', retry_after_seconds: expect.any(Number) },
    });
    let answer = (await second).structuredContent as CrawlToolResult;
    read.push(...pathsOf(answer));
    // The id it gives back is the one it was sent; continuing that id again goes on to the end.
    for (let call = 0; answer.continue_from !== undefined && call < 20; call++) {
      expect(answer.continue_from).toBe(id);
      answer = (await client.callTool({ name: 'crawl', arguments: { continue_from: id, max_seconds: 1 } }))
        .structuredContent as CrawlToolResult;
      read.push(...pathsOf(answer));
    }
    expect(answer.stop_reason).toBe('frontier_empty');
    expect(read.sort()).toEqual([...paths].sort());
    // Complete: its id says so, rather than "unknown or expired".
    const done = (await client.callTool({ name: 'crawl', arguments: { continue_from: id } })) as CallToolResult;
    expect(done.isError).toBe(true);
    expect(textOf(done)).toContain(`continue_from '${id}': this crawl is complete`);
  }, 60_000);

  it('refuses an expired continue_from and says what to do; with neither url nor continue_from it names both', async () => {
    const { start } = slowTree();
    const { client } = await connect({ CRAWL_RESUME_TTL: '1' });
    const first = (await client.callTool({ name: 'crawl', arguments: { url: start, max_seconds: 1 } }))
      .structuredContent as CrawlToolResult;
    expect(first.continue_from).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = (await client.callTool({
      name: 'crawl',
      arguments: { continue_from: first.continue_from },
    })) as CallToolResult;
    expect(expired.isError).toBe(true);
    expect(textOf(expired)).toContain(`continue_from '${first.continue_from}' is unknown or expired`);
    expect(textOf(expired)).toContain('CRAWL_RESUME_TTL (1 s)');
    expect(textOf(expired)).toContain('Start a new crawl with url');

    const missing = (await client.callTool({ name: 'crawl', arguments: {} })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/url is missing\. Give url .* or continue_from/);
  });
});

describe.each(['stdio', 'Streamable HTTP'])('crawl progress over %s', (transport) => {
  it('carries a total, and the last notification comes before the result', async () => {
    const { paths, start } = slowTree(15, null);
    let client: Client;
    let http: TestHttpServer | undefined;
    if (transport === 'stdio') client = (await connect()).client;
    else {
      http = await startTestHttpServer({ ALLOW_PRIVATE_HOSTS: server.hostPort, MAX_OUTPUT_TOKENS: '0' });
      client = new Client({ name: 'web-reader-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(http.mcpUrl));
    }
    try {
      const errors: Error[] = [];
      client.onerror = (error) => errors.push(error);
      const progress: Progress[] = [];
      const done = (await client.callTool({ name: 'crawl', arguments: { url: start, max_seconds: 30 } }, undefined, {
        onprogress: (update) => progress.push(update),
      })) as CallToolResult;
      const countAtResult = progress.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((done.structuredContent as CrawlToolResult).pages_read).toBe(paths.length);
      // A notification after the result reaches a client that has forgotten the token: it reports an error.
      expect(errors.map((error) => error.message)).toEqual([]);
      expect(progress.length).toBe(countAtResult);
      expect(progress.length).toBeGreaterThanOrEqual(paths.length);
      for (const update of progress) expect(update.total).toBeGreaterThanOrEqual(update.progress);
      expect(progress.at(-1)).toMatchObject({ progress: progress.at(-1)!.total });
    } finally {
      await client.close();
      await http?.close();
    }
  });
});

describe('crawl within max_seconds elsewhere', () => {
  it('JSON tools API: the result carries continue_from, and continue_from alone continues', async () => {
    const { paths, start, release } = slowTree(12);
    const http = await startTestHttpServer({ ALLOW_PRIVATE_HOSTS: server.hostPort, FETCH_TIMEOUT: '20000' });
    try {
      const post = async (args: Record<string, unknown>) => {
        const response = await fetch(`${http.url}/tools/crawl`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(args),
        });
        return (await response.json()) as { success: boolean; result: CrawlToolResult & { text: string } };
      };
      const first = await post({ url: start, max_seconds: 1 });
      release();
      expect(first.success).toBe(true);
      expect(first.result.stop_reason).toBe('time_limit');
      expect(first.result.continue_from).toMatch(/^[0-9a-f-]{36}$/);
      const second = await post({ continue_from: first.result.continue_from });
      expect(second.success).toBe(true);
      expect(second.result.stop_reason).toBe('frontier_empty');
      expect(first.result.pages_read + second.result.pages_read).toBe(paths.length);
    } finally {
      await http.close();
    }
  });

  it('a graceful stop (server shutdown) returns the partial result, marked as stopped, and no id that dies with the server', async () => {
    const { start } = slowTree();
    const engine = createEngine(
      resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0', FETCH_TIMEOUT: '20000' }),
    );
    try {
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 1000);
      // Without the stop, the hanging page would hold the crawl for FETCH_TIMEOUT (20 s) and it would end another
      // way: stop_reason 'stopped' says the stop signal ended it. Page 2 hangs: at most pages 0 and 1 are read.
      const output = await runTool(crawlTool, { url: start }, { engine, stopSignal: stop.signal });
      const data = output.structured as unknown as CrawlToolResult;
      expect(data.stop_reason).toBe('stopped');
      expect(data.pages_read).toBeLessThanOrEqual(2);
      expect(output.text).toContain('- Stopped: server shutting down');
      // The in-memory resume store goes with the process: no continue_from, and the agent is told to start again.
      expect(output.text).not.toMatch(CONTINUE_LINE);
      expect(data.continue_from).toBeUndefined();
      expect(output.text).toContain('cannot be continued on it: call crawl with url again');
    } finally {
      await engine.close();
    }
  });
});

describe('crawl as an MCP task (protocol 2025-11-25)', () => {
  it('is offered as a task, answers with a task at once, and tasks/result gives the crawl', async () => {
    // More pages than any machine reads in the first call's 1 s (150 ms each, MAX_CONCURRENT at a time): the first
    // call must stop at its time limit, however fast or loaded the machine.
    const { paths, start } = slowTree(40, null);
    const { client } = await connect();
    const crawl = (await client.listTools()).tools.find((tool) => tool.name === 'crawl')!;
    expect(crawl.execution).toEqual({ taskSupport: 'optional' });
    const stream = client.experimental.tasks.callToolStream(
      { name: 'crawl', arguments: { url: start, max_seconds: 60 } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    let result: CallToolResult | undefined;
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect((result!.structuredContent as CrawlToolResult).pages_read).toBe(paths.length);
  });

  it('stops the crawl when the client cancels the task', async () => {
    const { paths, start } = slowTree(200, null);
    const { client } = await connect({ CRAWL_RESUME_TTL: '60' });
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'crawl', arguments: { url: start, max_seconds: 60 }, task: { ttl: 60_000 } },
      },
      (await import('@modelcontextprotocol/sdk/experimental/tasks')).CreateTaskResultSchema,
    );
    const hits = () => paths.reduce((sum, path) => sum + server.hits(path), 0);
    await expect.poll(hits, { timeout: 30_000 }).toBeGreaterThanOrEqual(2); // under way, however slow the machine
    await client.experimental.tasks.cancelTask(created.task.taskId);
    // A request already sent may still land; then no more (a crawl not stopped reads a page every 150 ms).
    await expectStopsGrowing(hits, 'pages read after the task was cancelled', { quietMs: 1200 });
    expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe('cancelled');
  });

  it('stops a task crawl when its session ends (DELETE over Streamable HTTP)', async () => {
    const { paths, start } = slowTree(200, null);
    const http = await startTestHttpServer({ ALLOW_PRIVATE_HOSTS: server.hostPort, MAX_OUTPUT_TOKENS: '0' });
    const client = new Client({ name: 'web-reader-test', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(http.mcpUrl);
    await client.connect(transport);
    const hits = () => paths.reduce((sum, path) => sum + server.hits(path), 0);
    try {
      await client.request(
        {
          method: 'tools/call',
          params: { name: 'crawl', arguments: { url: start, max_seconds: 60 }, task: { ttl: 60_000 } },
        },
        (await import('@modelcontextprotocol/sdk/experimental/tasks')).CreateTaskResultSchema,
      );
      await expect.poll(hits, { timeout: 30_000 }).toBeGreaterThanOrEqual(2); // under way, however slow the machine
      await transport.terminateSession();
      // A request already sent may still land; then no more (a crawl not stopped reads a page every 150 ms).
      await expectStopsGrowing(hits, 'pages read after the session ended', { quietMs: 1200 });
    } finally {
      await client.close().catch(() => undefined);
      await http.close();
    }
  });

  it('refuses a task for a tool that does not run as one', async () => {
    const { client } = await connect();
    await expect(
      client.request(
        { method: 'tools/call', params: { name: 'fetch', arguments: { url: server.url('/') }, task: { ttl: 1000 } } },
        (await import('@modelcontextprotocol/sdk/experimental/tasks')).CreateTaskResultSchema,
      ),
    ).rejects.toThrow(/does not run as a task/);
  });
});

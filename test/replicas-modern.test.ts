// A client pinned to MCP 2026-07-28 through three `serve --http` replicas on one Redis, round-robin with no sticky
// sessions (issue 25 scope 3): with no session, any replica answers any request, a call runs where its POST lands
// (its progress on that POST's own stream), and cancelling it — ending that request — stops the call's upstream
// requests on the replica running it. Redis holds no session and the cancellation bus carries nothing: those parts
// are the 2025 era's alone (docs/scale-out.md). A crawl run as a task (the tasks extension) lives on the task store
// on Redis: started on one replica, read and cancelled through the others; a task whose replica is killed ends, on
// the others, with the crawl's continue_from id, which reads on from the crawl's last page.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CANCEL_CHANNEL } from '../src/shared-state/redis-cancel-bus.js';
import { REDIS_KEY_PREFIX } from '../src/shared-state/redis-link.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { describeWithRedis } from './redis-server.js';
import { requestModern, withoutMeta } from './http/modern-rpc.js';
import { startReplica, startServeHttp, type Replica } from './replica-process.js';

const MODERN = '2026-07-28';

const page = (title: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${'A paragraph of text that reads like an article. '.repeat(12)}</p>` +
  `${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</main></body></html>`;

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

describeWithRedis('a 2026-07-28 client served by three replicas, round-robin', (redis) => {
  let origin: FixtureServer;
  let watcher: Redis;
  let subscriber: Redis;
  const published: string[] = [];
  const replicas: Replica[] = [];
  /** Which replica each tools/call POST went to. */
  const calls: number[] = [];
  const held = { arrived: 0, aborted: 0, open: 0 };
  /** Pages behind a gate: held while it is shut, served once it opens. */
  const gate = { isOpen: false, waiting: 0 };
  let client: Client;
  let env: Record<string, string> = {};

  beforeAll(async () => {
    origin = await startFixtureServer();
    origin.route('/small/:n', (_req, res, params) => {
      const n = Number(params.n);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page(`Small ${n}`, n < 2 ? [`/small/${n + 1}`] : []));
    });
    origin.route('/held/start', (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Start', ['/held/1', '/held/2', '/held/3']));
    });
    origin.route('/held/:n', (_req, res) => {
      held.arrived += 1;
      held.open += 1;
      res.on('close', () => {
        held.open -= 1;
        if (!res.writableEnded) held.aborted += 1;
      });
    });
    origin.route('/gate/start', (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Gate start', ['/gated/1', '/gated/2']));
    });
    origin.route('/gated/:n', (_req, res, params) => {
      if (!gate.isOpen) {
        gate.waiting += 1;
        return; // held: the replica reading it dies meanwhile
      }
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page(`Gate ${params.n}`));
    });
    watcher = new Redis(redis.url);
    subscriber = new Redis(redis.url);
    await subscriber.subscribe(CANCEL_CHANNEL);
    subscriber.on('message', (_channel, message: string) => published.push(message));
    env = {
      REDIS_URL: redis.url,
      ALLOW_PRIVATE_HOSTS: origin.hostPort,
      PER_DOMAIN_INTERVAL: '0',
      RENDER_JS: 'never',
      FETCH_TIMEOUT: '120000',
    };
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env), startReplica(env)])));
    await until('every replica sees Redis', async () => {
      const health = await Promise.all(replicas.map(async (one) => (await fetch(`${one.url}/healthz`)).json()));
      return health.every((answer) => (answer as { redis: string }).redis === 'up');
    });
    let next = 0;
    client = new Client(
      { name: 'replicas-modern-test', version: '0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${replicas[0]!.url}/mcp`), {
        fetch: (input, init) => {
          const replica = next++ % replicas.length;
          if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) calls.push(replica);
          return fetch(`${replicas[replica]!.url}/mcp`, init);
        },
      }),
    );
  });

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await Promise.all(replicas.map((one) => one.stop()));
    await watcher?.quit();
    await subscriber?.quit();
    await origin?.close();
  });

  it('lists, fetches and crawls with progress across replicas, with no session on Redis', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(['fetch', 'links', 'crawl']);
    const fetched = await client.callTool({ name: 'fetch', arguments: { url: origin.url('/small/2') } });
    expect(fetched.isError).toBeFalsy();
    expect(JSON.stringify(fetched.content)).toContain('Small 2');
    const progress: number[] = [];
    const crawled = await client.callTool(
      { name: 'crawl', arguments: { url: origin.url('/small/0') } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(crawled.isError).toBeFalsy();
    expect(JSON.stringify(crawled.content)).toContain('Small 1');
    expect(progress.length).toBeGreaterThan(0);
    expect(new Set(calls).size).toBe(2); // the two calls went to two replicas
    expect(await watcher.keys(`${REDIS_KEY_PREFIX}mcp-session:*`)).toEqual([]);
  });

  it('cancels a call on the replica running it: its upstream requests end, and nothing goes on the bus', async () => {
    const abort = new AbortController();
    const call = client
      .callTool(
        { name: 'crawl', arguments: { url: origin.url('/held/start'), max_pages: 10 } },
        { signal: abort.signal },
      )
      .catch(() => 'aborted');
    await until('the crawl waits on a held page', () => held.open > 0);
    abort.abort('changed my mind');
    expect(await call).toBe('aborted');
    await until('the held requests are aborted', () => held.open === 0 && held.aborted > 0);
    const arrived = held.arrived;
    for (let i = 0; i < 3; i++) await client.listTools(); // a request through every replica
    expect(held.arrived).toBe(arrived);
    expect(held.aborted).toBe(arrived);
    expect(published).toEqual([]);
    expect(await watcher.keys(`${REDIS_KEY_PREFIX}mcp-session:*`)).toEqual([]);
  });

  it('runs a crawl as a task on one replica that the others read and cancel (the task store on Redis)', async () => {
    const on = (replica: number) => `${replicas[replica]!.url}/mcp`;
    const created = await requestModern(on(0), 'tools/call', {
      name: 'crawl',
      arguments: { url: origin.url('/small/0') },
    });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result!.taskId as string;
    let task: Record<string, unknown> = {};
    let reads = 0;
    await until('the task completes, read through the other replicas', async () => {
      task = (await requestModern(on(1 + (reads++ % 2)), 'tasks/get', { taskId })).result!;
      return task.status !== 'working';
    });
    expect(task.status).toBe('completed');
    expect(JSON.stringify(task.result)).toContain('Small 2');
    expect(await watcher.exists(`${REDIS_KEY_PREFIX}task:${taskId}`)).toBe(1);

    // A crawl waiting on held pages on replica 0, cancelled through replica 1: replica 0 drops its requests.
    const aborted = held.aborted;
    const waiting = await requestModern(on(0), 'tools/call', {
      name: 'crawl',
      arguments: { url: origin.url('/held/start'), max_pages: 10 },
    });
    const waitingId = waiting.result!.taskId as string;
    await until('the crawl waits on a held page', () => held.open > 0);
    expect(withoutMeta((await requestModern(on(1), 'tasks/cancel', { taskId: waitingId })).result)).toEqual({
      resultType: 'complete',
    });
    await until('replica 0 drops the held requests', () => held.open === 0 && held.aborted > aborted);
    expect((await requestModern(on(2), 'tasks/get', { taskId: waitingId })).result!.status).toBe('cancelled');
    expect(published).toEqual([]); // not the 2025 cancellation bus
    expect(await watcher.keys(`${REDIS_KEY_PREFIX}mcp-session:*`)).toEqual([]);
  });

  it('a task whose replica shuts down ends with the crawl stopped and its continue_from id, read on another', async () => {
    const leaving = await startServeHttp(env);
    try {
      const created = await requestModern(`${leaving.url}/mcp`, 'tools/call', {
        name: 'crawl',
        arguments: { url: origin.url('/held/start'), max_pages: 10 },
      });
      const taskId = created.result!.taskId as string;
      const open = held.open;
      await until('the crawl waits on a held page', () => held.open > open);
      leaving.child.kill('SIGTERM');
      expect(await leaving.exited).toBe(0); // a graceful stop waits for the task's crawl to answer
      const task = (await requestModern(`${replicas[1]!.url}/mcp`, 'tasks/get', { taskId })).result!;
      expect(task.status).toBe('completed');
      const result = task.result as { content: Array<{ text: string }>; structuredContent: { continue_from?: string } };
      expect(result.content[0]!.text).toContain('server shutting down');
      // The crawl's own id, kept on the shared resume store: another replica continues it.
      expect(result.structuredContent.continue_from).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      if (leaving.child.exitCode === null) leaving.child.kill('SIGKILL');
    }
  });

  it('a task whose replica is killed ends failed on another, handing out the crawl id that reads on', async () => {
    const dying = await startServeHttp(env);
    try {
      const created = await requestModern(`${dying.url}/mcp`, 'tools/call', {
        name: 'crawl',
        arguments: { url: origin.url('/gate/start'), max_pages: 10 },
      });
      const taskId = created.result!.taskId as string;
      await until('the crawl waits at the gate', () => gate.waiting > 0);
      const running = (await requestModern(`${replicas[1]!.url}/mcp`, 'tasks/get', { taskId })).result!;
      expect(running.status).toBe('working');
      expect(running).not.toHaveProperty('continueFrom'); // kept with the task, not answered
      // The crawl's id reaches the task store a moment after the crawl starts (a write of its own): the replica is
      // killed once it is there, as a loaded machine showed (killed before it, the task ends with no id to hand out).
      await until('the task store holds the crawl id', async () =>
        /"continueFrom":"[0-9a-f-]{36}"/.test((await watcher.hget(`${REDIS_KEY_PREFIX}task:${taskId}`, 'task')) ?? ''),
      );
      dying.child.kill('SIGKILL');
      await dying.exited;
      let task: Record<string, unknown> = {};
      let reads = 0;
      await until('the task ends on the other replicas once its lease lapses', async () => {
        task = (await requestModern(`${replicas[1 + (reads++ % 2)]!.url}/mcp`, 'tasks/get', { taskId })).result!;
        return task.status !== 'working';
      });
      expect(task).toMatchObject({ status: 'failed', error: { code: -32603 } });
      const error = task.error as { message: string; data: { continue_from: string } };
      const id = error.data.continue_from;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(error.message).toContain(`continue_from="${id}"`);
      expect(task.statusMessage).toBe(error.message);
      // The crawl continues from its last committed page on a replica that never saw it.
      gate.isOpen = true;
      const continued = await requestModern(
        `${replicas[2]!.url}/mcp`,
        'tools/call',
        { name: 'crawl', arguments: { continue_from: id } },
        false,
      );
      const result = continued.result as {
        isError?: boolean;
        structuredContent: { pages: Array<{ title: string }>; total_pages_read: number };
      };
      expect(result.isError).toBeFalsy();
      // The start page was read before the replica died: not read again.
      expect(result.structuredContent.pages.map((one) => one.title).sort()).toEqual(['Gate 1', 'Gate 2']);
      expect(result.structuredContent.total_pages_read).toBe(3);
    } finally {
      if (dying.child.exitCode === null) dying.child.kill('SIGKILL');
    }
  });
});

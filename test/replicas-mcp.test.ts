// MCP over Streamable HTTP through three replicas on one Redis, with no sticky sessions (issue 16 scope 3): the SDK's
// real Client, whose every HTTP request goes to the next replica in turn (a round-robin balancer in its fetch).
// A session opened on one replica is served by all; progress comes on the POST's own stream wherever it lands; a
// notifications/cancelled that lands on another replica than the call stops the call's upstream requests (the
// origin sees them aborted, and no more); a DELETE ends the session on every replica.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { describeWithRedis } from './redis-server.js';
import { startReplica, type Replica } from './replica-process.js';

/** Where each HTTP request of a client went: the replica's index, and the JSON-RPC method (or the HTTP method). */
interface Landing {
  readonly replica: number;
  readonly what: string;
}

function whatIsSent(init: RequestInit | undefined): string {
  if (typeof init?.body !== 'string') return init?.method ?? 'GET';
  const message = JSON.parse(init.body) as { method?: string };
  return message.method ?? 'response';
}

/** Whether a tools/call POST's response stream has ended (the server closed it). */
interface CallStream {
  ended: boolean;
}

/**
 * A client transport whose requests go round-robin over `replicas`, each landing recorded; each tools/call's response
 * stream is watched for its end in `calls`.
 */
function roundRobinTransport(
  replicas: readonly Replica[],
  landings: Landing[],
  calls: CallStream[] = [],
): StreamableHTTPClientTransport {
  let next = 0;
  return new StreamableHTTPClientTransport(new URL(`${replicas[0]!.url}/mcp`), {
    fetch: async (input, init) => {
      const replica = next++ % replicas.length;
      const what = whatIsSent(init);
      landings.push({ replica, what });
      const response = await fetch(`${replicas[replica]!.url}/mcp`, init);
      if (what !== 'tools/call' || !response.body) return response;
      const call: CallStream = { ended: false };
      calls.push(call);
      const watched = response.body.pipeThrough(new TransformStream({ flush: () => void (call.ended = true) }));
      return new Response(watched, { status: response.status, headers: response.headers });
    },
  });
}

const landedOn = (landings: readonly Landing[], what: string) =>
  landings.filter((l) => l.what === what).at(-1)!.replica;

async function postToolsList(replica: Replica, sessionId: string): Promise<Response> {
  return fetch(`${replica.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
  });
}

/** Opens a session on one replica with a bare initialize, and returns its id. */
async function initializeOn(replica: Replica): Promise<string> {
  const answer = await fetch(`${replica.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  await answer.text();
  return answer.headers.get('mcp-session-id')!;
}

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

const page = (title: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${'A paragraph of text that reads like an article. '.repeat(12)}</p>` +
  `${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</main></body></html>`;

describeWithRedis('an MCP session served by three replicas, round-robin', (redis) => {
  let origin: FixtureServer;
  const replicas: Replica[] = [];
  const clients: Client[] = [];
  /** Requests for /held/ pages: open until their client goes away, which the origin records. */
  const held = { arrived: 0, aborted: 0, open: 0 };

  beforeAll(async () => {
    origin = await startFixtureServer();
    origin.route('/small/:n', (_req, res, params) => {
      const n = Number(params.n);
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page(`Small ${n}`, n < 2 ? [`/small/${n + 1}`] : []));
    });
    // A crawl's first page links to pages that never answer: the crawl waits on them until it is cancelled.
    origin.route('/held/start', (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Start', ['/held/1', '/held/2', '/held/3']));
    });
    origin.route('/held/:n', (req, res) => {
      held.arrived += 1;
      held.open += 1;
      res.on('close', () => {
        held.open -= 1;
        if (!res.writableEnded) held.aborted += 1;
      });
    });
    const env = {
      REDIS_URL: redis.url,
      ALLOW_PRIVATE_HOSTS: origin.hostPort,
      PER_DOMAIN_INTERVAL: '0',
      RENDER_JS: 'never',
      // Far longer than the test waits for anything: a held page ends by a cancellation, never by a timeout.
      FETCH_TIMEOUT: '120000',
    };
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env), startReplica(env)])));
    // A session opened before its replica reaches Redis is that replica's alone (docs/scale-out.md).
    await until('every replica sees Redis', async () => {
      const health = await Promise.all(replicas.map(async (one) => (await fetch(`${one.url}/healthz`)).json()));
      return health.every((answer) => (answer as { redis: string }).redis === 'up');
    });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  });

  afterAll(async () => {
    await Promise.all(replicas.map((one) => one.stop()));
    await origin?.close();
  });

  async function connect(landings: Landing[], calls?: CallStream[]): Promise<Client> {
    const client = new Client({ name: 'replicas-test', version: '0' });
    clients.push(client);
    await client.connect(roundRobinTransport(replicas, landings, calls));
    return client;
  }

  it('serves one session from all three replicas: tools/list, a fetch, and a crawl whose progress arrives', async () => {
    const landings: Landing[] = [];
    const client = await connect(landings);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['fetch', 'crawl']));
    const fetched = (await client.callTool({
      name: 'fetch',
      arguments: { url: origin.url('/small/2') },
    })) as CallToolResult;
    expect(fetched.isError).toBeFalsy();
    expect(JSON.stringify(fetched.content)).toContain('Small 2');
    const progress: number[] = [];
    const crawled = (await client.callTool({ name: 'crawl', arguments: { url: origin.url('/small/0') } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    })) as CallToolResult;
    expect(crawled.isError).toBeFalsy();
    expect(JSON.stringify(crawled.content)).toContain('Small 1');
    expect(progress.length).toBeGreaterThan(0);
    // The requests really went round: the two calls on two replicas, the crawl (with its progress) on one that
    // did not open the session.
    expect(new Set(landings.filter((l) => l.what === 'tools/call').map((l) => l.replica)).size).toBe(2);
    expect(landedOn(landings, 'tools/call')).not.toBe(landedOn(landings, 'initialize'));
    expect(new Set(landings.map((l) => l.replica)).size).toBe(3);
  });

  it('keeps the log level a client chose on one replica for calls on the others', async () => {
    const landings: Landing[] = [];
    const client = await connect(landings);
    const lines: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => void lines.push(note.params.level));
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'fetch', arguments: { url: origin.url('/small/1?level') } });
    expect(landedOn(landings, 'tools/call')).not.toBe(landedOn(landings, 'logging/setLevel'));
    // Before a setLevel the default (warning) keeps debug lines back; this session asked for them elsewhere.
    expect(lines).toContain('debug');
  });

  it('stops a call when its notifications/cancelled lands on another replica: its upstream requests end', async () => {
    const landings: Landing[] = [];
    const calls: CallStream[] = [];
    const client = await connect(landings, calls);
    const abort = new AbortController();
    const call = client
      .callTool({ name: 'crawl', arguments: { url: origin.url('/held/start'), max_pages: 10 } }, undefined, {
        signal: abort.signal,
      })
      .catch(() => 'aborted');
    await until('the crawl waits on a held page', () => held.open > 0);
    abort.abort('changed my mind');
    expect(await call).toBe('aborted');
    await until('the held requests are aborted', () => held.open === 0 && held.aborted > 0);
    const ranOn = landedOn(landings, 'tools/call');
    expect(landedOn(landings, 'notifications/cancelled')).not.toBe(ranOn);
    expect(replicas[ranOn]!.stderr()).toMatch(/request \d+ cancelled/);
    // A request through every replica, and the origin has seen no more pages of the crawl.
    const arrived = held.arrived;
    for (let i = 0; i < 3; i++) await client.listTools();
    expect(held.arrived).toBe(arrived);
    expect(held.aborted).toBe(arrived);
    // The replica running the call ended its response stream: a cancelled request is never answered, and the stream
    // would otherwise stay open (session 37).
    await until("the cancelled call's stream ends", () => calls.length === 1 && calls[0]!.ended);
  });

  it('ends a session on every replica when the client deletes it on one', async () => {
    const landings: Landing[] = [];
    const client = await connect(landings);
    for (let i = 0; i < 3; i++) await client.listTools(); // every replica now holds a copy
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    for (const replica of replicas) {
      const answer = await postToolsList(replica, sessionId);
      expect(answer.status).toBe(404);
      expect(await answer.text()).toContain('Session not found');
    }
    const others = replicas.filter((_, i) => i !== landedOn(landings, 'DELETE'));
    for (const other of others) expect(other.stderr()).toContain(`MCP session ${sessionId} closed (ended on another`);
  });

  it('answers 404 on a replica without REDIS_URL for a session the others share', async () => {
    const client = await connect([]);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    expect((await postToolsList(replicas[2]!, sessionId)).status).toBe(200);
    const alone = await startReplica({ PATH: process.env.PATH ?? '', ALLOW_PRIVATE_HOSTS: origin.hostPort });
    try {
      const answer = await postToolsList(alone, sessionId);
      expect(answer.status).toBe(404);
    } finally {
      await alone.stop();
    }
  });

  it('while Redis is down, serves a session from the replicas that hold it and asks the others to retry', async () => {
    const client = await connect([]);
    for (let i = 0; i < 3; i++) await client.listTools(); // held by all three
    const otherId = await initializeOn(replicas[0]!); // held by replica 0 alone
    await redis.stop();
    try {
      for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      // The replica that holds the other session serves it; the others cannot look it up, and say so with 503 +
      // Retry-After (the session may well exist), never with a hang or a 404.
      const answers = await Promise.all(replicas.map((replica) => postToolsList(replica, otherId)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 503, 503]);
      expect(answers[1]!.headers.get('retry-after')).toBe('1');
      expect(await answers[2]!.text()).toContain('cannot reach Redis');
    } finally {
      await redis.start();
    }
  });
});

describeWithRedis('MCP session expiry and the session cap across replicas', (redis) => {
  let origin: FixtureServer;
  /**
   * Two replicas with a 4 s session idle time (1 s expired a session between two calls of the test at load 7: the
   * idle time must outlast a loaded machine's gap between calls), two with a cap of two sessions.
   */
  const idle: Replica[] = [];
  const capped: Replica[] = [];

  beforeAll(async () => {
    origin = await startFixtureServer();
    const env = { REDIS_URL: redis.url, ALLOW_PRIVATE_HOSTS: origin.hostPort };
    const started = await Promise.all([
      startReplica({ ...env, WEB_READER_SESSION_IDLE: '4' }),
      startReplica({ ...env, WEB_READER_SESSION_IDLE: '4' }),
      startReplica({ ...env, WEB_READER_MAX_SESSIONS: '2' }),
      startReplica({ ...env, WEB_READER_MAX_SESSIONS: '2' }),
    ]);
    idle.push(...started.slice(0, 2));
    capped.push(...started.slice(2));
    await until('every replica sees Redis', async () => {
      const health = await Promise.all(started.map(async (one) => (await fetch(`${one.url}/healthz`)).json()));
      return health.every((answer) => (answer as { redis: string }).redis === 'up');
    });
  });

  afterAll(async () => {
    await Promise.all([...idle, ...capped].map((one) => one.stop()));
    await origin?.close();
  });

  it('expires a session idle on every replica, and then no replica serves it', async () => {
    const sessionId = await initializeOn(idle[0]!);
    expect((await postToolsList(idle[1]!, sessionId)).status).toBe(200); // both hold it now
    await until('both replicas closed it for idleness', () =>
      idle.every((one) => new RegExp(`MCP session ${sessionId} closed \\(idle`).test(one.stderr())),
    );
    for (const one of idle) expect((await postToolsList(one, sessionId)).status).toBe(404);
  });

  it('ends the least recently used idle session everywhere when a replica at the cap opens another', async () => {
    const first = await initializeOn(capped[0]!);
    expect((await postToolsList(capped[1]!, first)).status).toBe(200);
    await initializeOn(capped[0]!);
    await initializeOn(capped[0]!); // the cap is two: `first`, the least recently used, goes
    expect(capped[0]!.stderr()).toMatch(new RegExp(`MCP session ${first} closed \\(evicted`));
    for (const one of capped) expect((await postToolsList(one, first)).status).toBe(404);
  });
});

// Admission control and the server's edges under pressure (issue 10, scopes 4, 8 and 11): past the connection cap
// every request gets 503 + Retry-After (a JSON-RPC error body on /mcp), never a reset; /healthz still answers;
// at the session cap the least recently used idle session is evicted; sessions expire even with a GET stream
// open; the header timeout fires when the docs say; logs cannot be forged and error messages quote input boundedly.
import { connect as netConnect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import {
  MCP_HEADERS,
  openRawSession,
  postToolCall,
  startTestHttpServer,
  toolEvents,
  waitForCancelTool,
  type TestHttpServer,
} from './http-harness.js';

const servers: TestHttpServer[] = [];
const sockets: Socket[] = [];
const clients: Client[] = [];

async function start(...args: Parameters<typeof startTestHttpServer>): Promise<TestHttpServer> {
  const server = await startTestHttpServer(...args);
  servers.push(server);
  return server;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A raw TCP connection; `text()` is everything received until the server closes it. */
function rawSocket(url: string): Promise<{ socket: Socket; text: () => string; closed: Promise<'end' | 'reset'> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = netConnect(Number(port), hostname);
    sockets.push(socket);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const closed = new Promise<'end' | 'reset'>((done) => {
      socket.on('error', () => done('reset'));
      socket.on('close', () => done('end'));
    });
    socket.once('connect', () => resolve({ socket, text: () => received, closed }));
    socket.once('error', reject);
  });
}

/** What the server logs (stderr) from here on, kept from the test's output; `spy.mockRestore()` ends it. */
function captureStderr() {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return { lines, spy };
}

const INIT_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

function rawRequest(method: string, path: string, body = '', extra = ''): string {
  return (
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
    `accept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`
  );
}

/** Opens a keep-alive connection the server has admitted (it answered /healthz on it) and leaves it open. */
async function holdConnection(url: string): Promise<void> {
  const held = await rawSocket(url);
  held.socket.write(rawRequest('GET', '/healthz'));
  await vi.waitFor(() => expect(held.text()).toContain('"status":"ok"'), { timeout: 10_000 });
}

function parseResponse(raw: string): { status: number; headers: string; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.toLowerCase(), body };
}

describe('past WEB_READER_MAX_CONNECTIONS', () => {
  it('answers 503 with Retry-After and a JSON-RPC error on /mcp, never a reset, and still answers /healthz', async () => {
    const server = await start({ WEB_READER_MAX_CONNECTIONS: '2' });
    await holdConnection(server.url);
    await holdConnection(server.url);

    // A third connection: the request is answered, then the socket is closed cleanly.
    const third = await rawSocket(server.url);
    third.socket.write(rawRequest('POST', '/mcp', INIT_BODY));
    expect(await third.closed).toBe('end');
    const answer = parseResponse(third.text());
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatch(/\r\nretry-after: \d+/);
    expect(answer.headers).toContain('connection: close');
    expect(JSON.parse(answer.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('WEB_READER_MAX_CONNECTIONS') },
      id: null,
    });

    // Through real clients: fetch sees a 503 (not "fetch failed"), the MCP SDK client an HTTP 503 error.
    const viaFetch = await fetch(`${server.url}/tools/fetch`, { method: 'POST', body: '{}' });
    expect(viaFetch.status).toBe(503);
    expect(viaFetch.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await viaFetch.json()).toMatchObject({ success: false, error: expect.stringContaining('connections') });
    const client = new Client({ name: 'over-cap', version: '0' });
    await expect(client.connect(new StreamableHTTPClientTransport(server.mcpUrl))).rejects.toMatchObject({
      code: 503,
    });

    // /healthz still answers for probes.
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('past twice the cap answers the same 503 at once, before the request is read', async () => {
    const server = await start({ WEB_READER_MAX_CONNECTIONS: '1' });
    await holdConnection(server.url);
    // The over-cap band (one more socket) holds a connection that sends nothing.
    const silent = await rawSocket(server.url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const flood = await rawSocket(server.url);
    expect(await flood.closed).toBe('end');
    const answer = parseResponse(flood.text());
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatch(/\r\nretry-after: \d+/);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    // A client that sends its request anyway reads the same answer.
    const viaFetch = await fetch(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: INIT_BODY });
    expect(viaFetch.status).toBe(503);
    silent.socket.destroy();
  });

  it('still lets a client end its session (DELETE) past the cap, so that no session is stranded', async () => {
    const server = await start({ WEB_READER_MAX_CONNECTIONS: '1' });
    const sessionId = await openRawSession(server.mcpUrl); // fetch keeps this connection: the one admitted
    expect(server.handle.sessionCount).toBe(1);
    const refused = await rawSocket(server.url);
    refused.socket.write(rawRequest('POST', '/mcp', INIT_BODY));
    await refused.closed;
    expect(parseResponse(refused.text()).status).toBe(503);
    const deleting = await rawSocket(server.url);
    deleting.socket.write(rawRequest('DELETE', '/mcp', '', `mcp-session-id: ${sessionId}\r\n`));
    await deleting.closed;
    expect(parseResponse(deleting.text()).status).toBe(200);
    expect(server.handle.sessionCount).toBe(0);
  });

  it('admits connections again once earlier ones close', async () => {
    const server = await start({ WEB_READER_MAX_CONNECTIONS: '1' });
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${server.url}/tools`, { headers: { connection: 'close' } });
      expect(response.status).toBe(200);
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, 50)); // the server sees the close
    }
  });
});

describe('MCP sessions at WEB_READER_MAX_SESSIONS', () => {
  it('evicts the least recently used idle session for a new client', async () => {
    const server = await start({ WEB_READER_MAX_SESSIONS: '2' });
    const connect = async (name: string) => {
      const client = new Client({ name, version: '0' });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(server.mcpUrl));
      return client;
    };
    const first = await connect('first');
    const second = await connect('second');
    await first.listTools(); // first is now the more recently used
    const third = await connect('third');
    expect((await third.listTools()).tools.length).toBeGreaterThan(0);
    expect(server.handle.sessionCount).toBe(2);
    expect((await first.listTools()).tools.length).toBeGreaterThan(0);
    // The evicted session is gone: its client gets 404 and, per the MCP spec, starts a new session.
    await expect(second.listTools()).rejects.toMatchObject({ code: 404 });
  });

  it('refuses with 503 and Retry-After only when every session is running a call', async () => {
    const server = await start({ WEB_READER_MAX_SESSIONS: '1' }, [waitForCancelTool]);
    const busy = new Client({ name: 'busy', version: '0' });
    clients.push(busy);
    await busy.connect(new StreamableHTTPClientTransport(server.mcpUrl));
    const started = toolEvents.nextStart.promise;
    const call = busy.callTool({ name: 'wait_for_cancel', arguments: { max_ms: 1500 } });
    await started;
    const refused = await fetch(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: INIT_BODY });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringContaining('WEB_READER_MAX_SESSIONS') },
    });
    await call;
    // The call has ended: the busy session is idle now and makes way.
    const later = await fetch(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: INIT_BODY });
    expect(later.status).toBe(200);
    await later.text();
  });

  it('expires an idle session even while its GET stream is open', async () => {
    // Long enough for the stream to open first on a loaded machine (300 ms was not, at load 20), short beside the
    // poll's limit: the poll ends as soon as the session is gone.
    const server = await start({}, ALL_TOOLS, { sessionIdleMs: 4000 });
    const sessionId = await openRawSession(server.mcpUrl);
    const stream = await fetch(server.mcpUrl, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    });
    expect(stream.status).toBe(200);
    expect(server.handle.sessionCount).toBe(1);
    await expect.poll(() => server.handle.sessionCount, { timeout: 30_000 }).toBe(0);
    // The stream ended with the session.
    await expect(stream.text()).resolves.toBeTypeOf('string');
  });
});

describe('slow clients', () => {
  it('closes a connection whose headers do not arrive within the header timeout, when the docs say', async () => {
    const server = await start({}, ALL_TOOLS, { headersTimeoutMs: 500 });
    const slow = await rawSocket(server.url);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n'); // and never the blank line
    // Node checked the limit only every 30 s before (the control); now at a tenth of it: closed within ~0.5–0.6 s.
    const outcome = await Promise.race([
      slow.closed,
      new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 15_000)),
    ]);
    expect(outcome).not.toBe('open');
    expect(slow.text()).toMatch(/^HTTP\/1\.1 408/);
    // Node's own 408 had no body: a client saw "Error POSTing to endpoint:" and nothing else.
    expect(JSON.parse(slow.text().split('\r\n\r\n')[1]!)).toMatchObject({
      jsonrpc: '2.0',
      error: { message: expect.stringMatching(/did not arrive in time: its headers within 0\.5 s/) },
    });
  });

  it('keeps a connection opened ahead of use past the header timeout, with no unsolicited 408, and serves it', async () => {
    const server = await start({}, ALL_TOOLS, { headersTimeoutMs: 500 });
    const early = await rawSocket(server.url); // opened, nothing sent (as undici and browsers open them)
    const slow = await rawSocket(server.url);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n'); // and never the blank line
    await slow.closed; // the header timeout has passed for both: the early one's started first
    expect(slow.text()).toMatch(/^HTTP\/1\.1 408/);
    expect(early.text()).toBe('');
    early.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await expect.poll(() => early.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*"status":"ok"/);
  });

  it('answers a request it cannot parse with a 400 that names the parse error, logged, and keeps serving', async () => {
    const server = await start({});
    const { lines, spy } = captureStderr();
    try {
      const bad = await rawSocket(server.url);
      bad.socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-length: x\r\n\r\n');
      await bad.closed;
      expect(bad.text()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(bad.text().split('\r\n\r\n')[1]!)).toMatchObject({
        error: { message: 'The request is not valid HTTP/1.1 (HPE_INVALID_CONTENT_LENGTH).' },
      });
    } finally {
      spy.mockRestore();
    }
    expect(lines.join('')).toContain('HTTP 400 before routing: HPE_INVALID_CONTENT_LENGTH');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('log lines and error messages', () => {
  it('escapes client-chosen values in the log: a tool name cannot forge a log line', async () => {
    const server = await start({});
    const { lines, spy } = captureStderr();
    try {
      const response = await fetch(`${server.url}/tools/x%0D%0A%5Bweb-reader%5D%20error%3A%20forged`, {
        method: 'POST',
        body: '{}',
      });
      expect(response.status).toBe(404);
      await response.text();
      const sessionId = await openRawSession(server.mcpUrl);
      const call = await postToolCall(server.mcpUrl, sessionId, {
        id: 2,
        name: 'y\n[web-reader] error: forged too',
        arguments: {},
      });
      await call.text();
      await expect.poll(() => lines.join('').includes('forged too')).toBe(true);
    } finally {
      spy.mockRestore();
    }
    const log = lines.join('');
    expect(log.split('\n').filter((line) => line.startsWith('[web-reader] error: forged'))).toEqual([]);
    expect(log).toContain('x\\r\\n[web-reader] error: forged');
    expect(log).toContain('y\\n[web-reader] error: forged too');
  });

  it('quotes at most ~200 characters of a tool name, Host, Origin or path, plus its length', async () => {
    const server = await start({});
    const long = 'a'.repeat(5000);
    const unknown = await fetch(`${server.url}/tools/${long}`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    const { error } = (await unknown.json()) as { error: string };
    expect(error).toContain('(5000 characters)');
    expect(error.length).toBeLessThan(600);

    const origin = await fetch(`${server.url}/tools`, { headers: { origin: `http://${long}.example` } });
    expect(origin.status).toBe(403);
    const originError = ((await origin.json()) as { error: string }).error;
    expect(originError).toContain('characters)');
    expect(originError.length).toBeLessThan(600);

    const route = await fetch(`${server.url}/${long}`);
    expect(route.status).toBe(404);
    const routeError = ((await route.json()) as { error: string }).error;
    expect(routeError).toContain('(5001 characters)');
    expect(routeError.length).toBeLessThan(600);

    const host = await rawSocket(server.url);
    host.socket.write(`GET /tools HTTP/1.1\r\nHost: ${long}.example\r\nconnection: close\r\n\r\n`);
    await host.closed;
    const hostAnswer = parseResponse(host.text());
    expect(hostAnswer.status).toBe(403);
    expect(hostAnswer.body).toContain('characters)');
    expect(hostAnswer.body.length).toBeLessThan(600);

    const sessionId = await openRawSession(server.mcpUrl);
    const call = await postToolCall(server.mcpUrl, sessionId, { id: 2, name: long, arguments: {} });
    const sse = await call.text();
    expect(sse).toContain('(5000 characters)');
    expect(sse.length).toBeLessThan(1500);
  });
});

// The HTTP front doors on one node:http server (SPEC "Front doors" 2 and 3):
//   /mcp           MCP Streamable HTTP, one SDK transport and one MCP Server per session; SSE carries streamed
//                  responses and progress; DELETE ends a session.
//   GET /tools     the JSON tools API listing, the seed BaseTool shape: name, description, parameters, tags.
//   POST /tools/x  runs tool x with a JSON body of arguments → { success, result, error, execution_time_ms }.
//   GET /healthz   for orchestrators; the only route without the token or the Host/Origin checks.
// Thin: validation, running and error translation live in runTool and createMcpServer, shared with stdio and CLI.
//
// Status codes of the JSON API. A tool that ran and failed (the page 404s, the connection is refused) is HTTP
// 200 with success: false: the API call itself worked, and the caller reads `error` and `result.status` just
// as an MCP client reads isError. HTTP errors are kept for requests that could not become a tool call: 400
// invalid JSON or arguments (the message names the argument), 401 token, 403 Host/Origin, 404 unknown tool or
// route, 405 method, 413 body too large, 503 shutting down, too many connections or sessions (with Retry-After).
//
// Admission (issue 10, scope 4): never a silent drop. Node's own server.maxConnections destroys sockets past the
// cap without a word (a client sees a bare "fetch failed"), so connections are counted here instead: a socket
// accepted past WEB_READER_MAX_CONNECTIONS has its requests answered 503 + Retry-After (JSON-RPC on /mcp) and is
// closed; /healthz still answers on it. Sockets past twice the cap are answered the same 503 without reading the
// request, so a flood cannot hold file descriptors for the header timeout. At WEB_READER_MAX_SESSIONS, the least
// recently used session with no call running is evicted for the new client; 503 only when every session is busy.
//
// Cancellation (scope 3, MCP spec "Cancellation" and Streamable HTTP "Resumability and Redelivery"): a dropped
// connection is not by itself a cancellation, since a client may resume the stream. This server keeps no event
// store, so a POST's stream that closes before its result is sent can never be resumed: its calls are cancelled
// after DISCONNECT_GRACE_MS. notifications/cancelled and DELETE cancel at once (the SDK aborts the handler's signal).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import type { Engine } from '../engine.js';
import { log } from '../log.js';
import { quoteInput } from '../quote.js';
import { createMcpServer, inputJsonSchema } from '../server.js';
import { ALL_TOOLS, type AnyTool } from '../tools/registry.js';
import { runTool } from '../tools/run-tool.js';
import { VERSION } from '../version.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, GracefulStop } from './graceful-stop.js';

/** Defaults a deployment rarely changes; tests shorten them. */
export interface HttpServerOptions {
  /** Tools of the JSON API. SPEC: the API always offers every tool; MCP offers the --tools selection. */
  readonly apiTools?: readonly AnyTool[];
  /** How long shutdown waits for in-flight calls before cancelling them. */
  readonly shutdownGraceMs?: number;
  /** How long an MCP call whose response stream closed early keeps running before it is cancelled. */
  readonly disconnectGraceMs?: number;
  /** Overrides WEB_READER_SESSION_IDLE (seconds) with milliseconds. */
  readonly sessionIdleMs?: number;
  /** A client must send all request headers within this time (slowloris). */
  readonly headersTimeoutMs?: number;
  /** A client must send the whole request, headers and body, within this time. */
  readonly requestTimeoutMs?: number;
}

export interface HttpServerHandle {
  /** The base URL, e.g. http://127.0.0.1:3000 (MCP is at `${url}/mcp`). */
  readonly url: string;
  readonly port: number;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /**
   * Stops accepting, tells running calls to stop gracefully (stopSignal: a crawl returns what it has), lets them
   * finish up to the grace deadline, then cancels what remains and closes sessions.
   */
  close(): Promise<void>;
}

export { DEFAULT_SHUTDOWN_GRACE_MS };
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** At most 5 s (issue 10): long enough for a blip, short enough that abandoned work stops soon. */
export const DISCONNECT_GRACE_MS = 5_000;
// Retry-After (RFC 9110 §10.2.3) on a 503: connections free up in moments, sessions when a call ends.
const RETRY_CONNECTION_SECONDS = 1;
const RETRY_SESSION_SECONDS = 5;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  /** When a request last started or a call last ended on this session. */
  lastActive: number;
  /** POSTs whose response is still open: calls in progress. A standalone GET stream is not activity. */
  activeCalls: number;
}

/** The minimal answer written to a socket past twice the connection cap, before its request is read. */
const OVER_CAP_BODY = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Too many connections (WEB_READER_MAX_CONNECTIONS); retry shortly.' },
  id: null,
});
const OVER_CAP_RESPONSE =
  'HTTP/1.1 503 Service Unavailable\r\n' +
  `Retry-After: ${RETRY_CONNECTION_SECONDS}\r\n` +
  'Content-Type: application/json; charset=utf-8\r\n' +
  `Content-Length: ${Buffer.byteLength(OVER_CAP_BODY)}\r\n` +
  'Cache-Control: no-store\r\n' +
  'Connection: close\r\n\r\n' +
  OVER_CAP_BODY;

interface RequestLog {
  route: string;
  tool: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The hostname of a Host header value, without port or IPv6 brackets, lower-case. */
function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']'));
  return value.replace(/:\d*$/, '');
}

/**
 * Host names this server answers to. DNS rebinding (MCP spec, Transports, "Security Warning") makes a browser
 * send a page's own name, e.g. `Host: evil.example:3000`, to our address; refusing names we do not own stops it.
 * Loopback names always; the bind address; every interface address when bound to a wildcard; the allow-list.
 */
function allowedHostnames(config: Config): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  const bind = config.httpHost.replace(/^\[|\]$/g, '').toLowerCase();
  if (isWildcardHost(config.httpHost)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address.toLowerCase());
    }
  } else {
    names.add(bind);
  }
  for (const host of config.httpAllowedHosts) names.add(hostnameOf(host));
  return names;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time comparison of the bearer token (hashing first makes the lengths equal). */
function hasToken(req: IncomingMessage, expected: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return match !== null && timingSafeEqual(sha256(match[1]!.trim()), expected);
}

/** The body, at most `maxBytes`; a declared or streamed size above it is a 413. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      reject(new HttpError(413, `The request body is larger than ${maxBytes} bytes (WEB_READER_MAX_BODY_SIZE).`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        reject(new HttpError(413, `The request body is larger than ${maxBytes} bytes (WEB_READER_MAX_BODY_SIZE).`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** An error body in the dialect of the route: JSON-RPC on /mcp, the tools-API result on /tools, else plain. */
function sendError(res: ServerResponse, route: string, status: number, message: string, headers = {}): void {
  if (route === '/mcp') {
    // -32000 is the SDK's code for transport-level refusals; -32700 for unparseable JSON (JSON-RPC 2.0 §5.1).
    const code = status === 400 && message.startsWith('Parse error') ? -32700 : -32000;
    sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
  } else if (route.startsWith('/tools')) {
    sendJson(res, status, { success: false, result: null, error: message, execution_time_ms: 0 }, headers);
  } else {
    sendJson(res, status, { error: message }, headers);
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed %-escapes: looked up as written, so it is an unknown tool (404)
  }
}

/** The tool a JSON-RPC message calls, or its method, for the log line (log() escapes it; this bounds it). */
function describeRpc(message: unknown): string {
  const first = (Array.isArray(message) ? message[0] : message) as
    { method?: unknown; params?: { name?: unknown } } | undefined;
  if (first?.method === 'tools/call' && typeof first.params?.name === 'string') return quoteInput(first.params.name);
  return typeof first?.method === 'string' ? quoteInput(first.method) : '-';
}

/** The ids of the JSON-RPC requests (not notifications or responses) in a POST body. */
function requestIdsOf(message: unknown): RequestId[] {
  return (Array.isArray(message) ? message : [message]).filter(isJSONRPCRequest).map((request) => request.id);
}

export async function startHttpServer(
  config: Config,
  engine: Engine,
  tools: readonly AnyTool[],
  options: HttpServerOptions = {},
): Promise<HttpServerHandle> {
  const apiTools = options.apiTools ?? ALL_TOOLS;
  const sessionIdleMs = options.sessionIdleMs ?? config.httpSessionIdleSeconds * 1000;
  const shutdownGraceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const disconnectGraceMs = Math.min(options.disconnectGraceMs ?? DISCONNECT_GRACE_MS, DISCONNECT_GRACE_MS);
  const hostnames = allowedHostnames(config);
  const anyHost = config.httpAllowedHosts.includes('*');
  const explicitOrigins = new Set(config.httpAllowedOrigins.filter((o) => o !== '*').map(normalizeOrigin));
  const anyOrigin = config.httpAllowedOrigins.includes('*');
  const token = config.httpToken ? sha256(config.httpToken) : undefined;

  const sessions = new Map<string, Session>();
  let openingSessions = 0;
  let closing: Promise<void> | undefined;
  // Shutdown: stopSignal to every call at once, cancelSignal to JSON API calls still running after the grace
  // period (MCP calls are cancelled by closing their sessions). Counts POSTs in flight, MCP and JSON API alike.
  const graceful = new GracefulStop();
  // Sockets accepted past the connection cap: their requests are answered 503 and the socket closed.
  const overCapSockets = new WeakSet<Socket>();
  // Sockets past twice the cap, answered 503 before their request was read.
  const answeredSockets = new WeakSet<Socket>();

  function normalizeOrigin(origin: string): string {
    try {
      return new URL(origin).origin;
    } catch {
      return origin;
    }
  }

  /** Same-origin (the Origin's host:port is the Host we were asked as), or listed. Absent: not a browser. */
  function isAllowedOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || anyOrigin) return true;
    if (explicitOrigins.has(normalizeOrigin(origin))) return true;
    try {
      return new URL(origin).host === (req.headers.host ?? '').toLowerCase();
    } catch {
      return false; // "null" (sandboxed pages, file:) and garbage are never allowed implicitly
    }
  }

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (origin === undefined || !(anyOrigin || explicitOrigins.has(normalizeOrigin(origin)))) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
      vary: 'Origin',
    };
  }

  async function closeSession(id: string, reason: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    log('info', `MCP session ${id} closed (${reason})`);
    await session.server.close().catch(() => undefined); // already closing: nothing more to do
  }

  /**
   * Passes a request to the session's transport. A POST counts as a call in progress until its response closes;
   * a GET (the standalone SSE stream, open for the session's life) only marks the session as used when it starts.
   * A POST whose response closes before its results were written had its client hang up: no event store means
   * the stream cannot be resumed, so its requests are cancelled after the disconnect grace period.
   */
  async function handleInSession(session: Session, req: IncomingMessage, res: ServerResponse, body?: unknown) {
    session.lastActive = Date.now();
    if (req.method === 'POST') {
      session.activeCalls += 1;
      const ids = requestIdsOf(body);
      res.on('close', () => {
        session.activeCalls -= 1;
        session.lastActive = Date.now();
        if (res.writableEnded || ids.length === 0) return;
        setTimeout(() => cancelRequests(session, ids), disconnectGraceMs).unref();
      });
    }
    await session.transport.handleRequest(req, res, body);
  }

  /**
   * Cancels requests as the client's own notifications/cancelled would: the SDK aborts each one's handler signal.
   * A request that has already finished is not found, and nothing happens.
   */
  function cancelRequests(session: Session, ids: RequestId[]): void {
    if (!sessions.has(session.transport.sessionId ?? '')) return; // closed meanwhile: its calls were cancelled
    const list = quoteInput(ids.map(String).join(', '));
    log('info', `MCP session ${session.transport.sessionId}: the client hung up; cancelling request(s) ${list}`);
    for (const requestId of ids) {
      session.transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: 'The client disconnected before the result was sent.' },
      });
    }
  }

  /** Frees a place at the session cap: the least recently used session with no call running, if any. */
  async function evictIdleSession(): Promise<boolean> {
    let oldest: [string, Session] | undefined;
    for (const entry of sessions) {
      if (entry[1].activeCalls === 0 && (!oldest || entry[1].lastActive < oldest[1].lastActive)) oldest = entry;
    }
    if (!oldest) return false;
    const idleSeconds = Math.round((Date.now() - oldest[1].lastActive) / 1000);
    await closeSession(oldest[0], `evicted for a new session at WEB_READER_MAX_SESSIONS, idle for ${idleSeconds} s`);
    return true;
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse, entry: RequestLog): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
      const raw = await readBody(req, config.httpMaxBodyBytes);
      let message: unknown;
      try {
        message = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new HttpError(400, 'Parse error: the body is not valid JSON.');
      }
      entry.tool = describeRpc(message);
      if (typeof sessionId === 'string') {
        const session = sessions.get(sessionId);
        if (!session) throw new HttpError(404, 'Session not found. It ended or expired; initialize a new one.');
        return handleInSession(session, req, res, message);
      }
      if (!isInitializeRequest(message)) {
        throw new HttpError(400, 'Bad Request: no Mcp-Session-Id header; send initialize first.');
      }
      while (sessions.size + openingSessions >= config.httpMaxSessions) {
        if (await evictIdleSession()) continue;
        res.setHeader('retry-after', String(RETRY_SESSION_SECONDS));
        throw new HttpError(
          503,
          `Too many MCP sessions, each running a call (WEB_READER_MAX_SESSIONS=${config.httpMaxSessions}); ` +
            `retry in ${RETRY_SESSION_SECONDS} s.`,
        );
      }
      // An opening session counts against the cap until it is in `sessions`, and only until then (counted once).
      openingSessions += 1;
      let opening = true;
      const opened = () => {
        if (opening) openingSessions -= 1;
        opening = false;
      };
      const server = createMcpServer(engine, tools, { stopSignal: graceful.stopSignal });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          opened();
          sessions.set(id, { transport, server, lastActive: Date.now(), activeCalls: 0 });
          server.onclose = () => void closeSession(id, 'closed');
          log('info', `MCP session ${id} opened`);
        },
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(req, res, message);
      } finally {
        opened();
      }
      // initialize was refused (e.g. an unsupported request shape): nothing to keep.
      if (transport.sessionId === undefined) await server.close();
      return;
    }
    if (typeof sessionId !== 'string') throw new HttpError(400, 'Bad Request: Mcp-Session-Id header is required.');
    const session = sessions.get(sessionId);
    if (!session) throw new HttpError(404, 'Session not found. It ended or expired; initialize a new one.');
    await handleInSession(session, req, res);
    if (req.method === 'DELETE') await closeSession(sessionId, 'ended by the client');
  }

  function listTools() {
    return apiTools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: inputJsonSchema(tool),
      tags: tool.tags,
    }));
  }

  async function callTool(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const tool = apiTools.find((candidate) => candidate.name === name);
    if (!tool) {
      const names = apiTools.map((t) => t.name).join(', ');
      throw new HttpError(404, `Unknown tool '${quoteInput(name)}'. Tools: ${names}.`);
    }
    const raw = (await readBody(req, config.httpMaxBodyBytes)).toString('utf8');
    let args: unknown = {};
    if (raw.trim() !== '') {
      try {
        args = JSON.parse(raw);
      } catch (error) {
        throw new HttpError(400, `Invalid JSON body: ${(error as Error).message}`);
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new HttpError(400, 'The body must be a JSON object of arguments, e.g. {"url": "https://example.com"}.');
    }
    // The caller hanging up cancels the call (a JSON API response cannot be resumed), as does the shutdown
    // deadline; shutdown itself first asks the tool to stop gracefully.
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) controller.abort(new Error('The client disconnected.'));
    });
    // A listener removed when the call ends, not AbortSignal.any: a composite of the process-long cancel signal
    // stays referenced from it on Node 20–24 (nodejs/node#55351), one per call.
    const onShutdownCancel = () => controller.abort(graceful.cancelSignal.reason);
    if (graceful.cancelSignal.aborted) onShutdownCancel();
    else graceful.cancelSignal.addEventListener('abort', onShutdownCancel, { once: true });
    const started = performance.now();
    const output = await runTool(tool, args, {
      engine,
      signal: controller.signal,
      stopSignal: graceful.stopSignal,
    }).finally(() => graceful.cancelSignal.removeEventListener('abort', onShutdownCancel));
    const executionTimeMs = Math.round(performance.now() - started);
    const code = (output.structured.error as { code?: string } | undefined)?.code;
    const status = output.isError && code === 'INVALID_ARGUMENT' ? 400 : 200;
    sendJson(res, status, {
      success: !output.isError,
      // As the CLI's --json: a tool's seed-shaped data (web_scraper) as is; otherwise its structured result with
      // the text a model reads. On failure, the status and the error's class and code.
      result: output.data ?? (output.isError ? output.structured : { ...output.structured, text: output.text }),
      error: output.isError ? output.text : null,
      execution_time_ms: executionTimeMs,
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse, entry: RequestLog): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    const allow = (methods: string) => {
      if (methods.split(', ').includes(method)) return;
      res.setHeader('allow', methods);
      throw new HttpError(405, `${quoteInput(method)} is not allowed on ${entry.route}; use ${methods}.`);
    };
    const overCap = overCapSockets.has(req.socket);
    if (overCap) res.setHeader('connection', 'close');
    if (path === '/healthz') {
      entry.route = '/healthz';
      allow('GET, HEAD');
      return sendJson(res, 200, { status: closing ? 'shutting_down' : 'ok', version: VERSION });
    }
    entry.route =
      path === '/mcp'
        ? '/mcp'
        : path === '/tools'
          ? '/tools'
          : /^\/tools\/[^/]+$/.test(path)
            ? '/tools/{name}'
            : quoteInput(path);
    // Ending a session frees what the cap protects, so a DELETE passes even on a socket past the cap: a client
    // cleaning up under load must not strand its session.
    if (overCap && !(method === 'DELETE' && entry.route === '/mcp')) {
      req.resume(); // read and drop the body, so that closing the socket after the answer is not a reset
      res.setHeader('retry-after', String(RETRY_CONNECTION_SECONDS));
      throw new HttpError(
        503,
        `Too many connections (WEB_READER_MAX_CONNECTIONS=${config.httpMaxConnections}); ` +
          `retry in ${RETRY_CONNECTION_SECONDS} s.`,
      );
    }
    if (closing) {
      res.setHeader('connection', 'close');
      throw new HttpError(503, 'The server is shutting down.');
    }
    // DNS-rebinding protection first: a refused Host or Origin learns nothing else, not even whether a token is needed.
    if (!anyHost && !hostnames.has(hostnameOf(req.headers.host ?? ''))) {
      const host = quoteInput(req.headers.host ?? '');
      throw new HttpError(403, `Host '${host}' is not allowed. Add it to WEB_READER_ALLOWED_HOSTS.`);
    }
    if (!isAllowedOrigin(req)) {
      const origin = quoteInput(req.headers.origin ?? '');
      throw new HttpError(403, `Origin '${origin}' is not allowed. Add it to WEB_READER_ALLOWED_ORIGINS.`);
    }
    for (const [name, value] of Object.entries(corsHeaders(req))) res.setHeader(name, value);
    if (method === 'OPTIONS') {
      // CORS preflight carries no credentials (Fetch standard, CORS-preflight request), so it precedes the token.
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers':
          'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (token && !hasToken(req, token)) {
      res.setHeader('www-authenticate', 'Bearer realm="web-reader"');
      throw new HttpError(401, 'Missing or wrong bearer token: send Authorization: Bearer <WEB_READER_TOKEN>.');
    }
    if (entry.route === '/mcp') {
      allow('GET, POST, DELETE');
      return handleMcp(req, res, entry);
    }
    if (entry.route === '/tools') {
      allow('GET, HEAD');
      return sendJson(res, 200, listTools());
    }
    if (entry.route === '/tools/{name}') {
      allow('POST');
      const name = safeDecode(path.slice('/tools/'.length));
      entry.tool = quoteInput(name);
      return callTool(name, req, res);
    }
    throw new HttpError(
      404,
      `No route ${quoteInput(path)}. Routes: /mcp, GET /tools, POST /tools/{name}, GET /healthz.`,
    );
  }

  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const httpServer = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      // Node checks headersTimeout and requestTimeout only on this interval (default 30 s), so a 10 s header
      // limit fired after up to 40 s. Checking at a tenth of the limit (at most every second) keeps it honest.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 10))),
    },
    async (req, res) => {
      // Answered past twice the connection cap before its request arrived (below): nothing more to say.
      if (answeredSockets.has(req.socket)) return;
      const started = performance.now();
      const entry: RequestLog = { route: '-', tool: '-' };
      const isCall = req.method === 'POST';
      if (isCall) graceful.begin();
      res.on('close', () => {
        if (isCall) graceful.end();
        const ms = Math.round(performance.now() - started);
        log('info', `${req.method} ${entry.route} ${entry.tool} ${res.statusCode} ${ms}ms`);
      });
      try {
        await route(req, res, entry);
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 500;
        if (status === 500) {
          log('error', `${req.method} ${quoteInput(req.url ?? '')}: ${(error as Error).stack ?? String(error)}`);
        }
        // A 413 is answered before the body is read: close the connection rather than read the rest.
        if (status === 413) res.setHeader('connection', 'close');
        sendError(res, entry.route, status, status === 500 ? 'Internal server error.' : (error as Error).message);
      }
    },
  );

  // Admission by counting sockets (see the header comment); server.maxConnections would drop them silently.
  let admitted = 0;
  let refused = 0;
  httpServer.on('connection', (socket: Socket) => {
    if (admitted < config.httpMaxConnections) {
      admitted += 1;
      socket.once('close', () => (admitted -= 1));
      return;
    }
    if (refused < config.httpMaxConnections) {
      // Past the cap: the request is read (so /healthz can answer) and answered 503; see route().
      refused += 1;
      socket.once('close', () => (refused -= 1));
      overCapSockets.add(socket);
      return;
    }
    // Past twice the cap: answer without reading, keep draining what the client sends so that the close is a
    // FIN, not a reset that could destroy the answer in flight, and let go after a moment.
    answeredSockets.add(socket);
    socket.on('error', () => undefined); // the client may already be gone; there is nobody to tell
    socket.end(OVER_CAP_RESPONSE);
    setTimeout(() => socket.destroy(), 2000).unref();
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.httpPort, config.httpHost, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  const hostInUrl = isWildcardHost(config.httpHost) ? '127.0.0.1' : config.httpHost;
  const url = `http://${hostInUrl.includes(':') && !hostInUrl.startsWith('[') ? `[${hostInUrl}]` : hostInUrl}:${port}`;

  // Idle expiry: a session with no call running for sessionIdleMs is closed, even with its GET stream open (the
  // stream ends); its client gets 404 and, as the MCP spec says, starts a new session.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (session.activeCalls === 0 && now - session.lastActive > sessionIdleMs) {
          void closeSession(id, `idle for ${Math.round((now - session.lastActive) / 1000)} s`);
        }
      }
    },
    Math.max(100, Math.min(sessionIdleMs / 2, 60_000)),
  );
  sweep.unref();

  async function shutdown(): Promise<void> {
    clearInterval(sweep);
    const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    httpServer.closeIdleConnections();
    // stopSignal now: a crawl answers with what it has; then the grace period for the answers to be written.
    const left = await graceful.stop(shutdownGraceMs);
    if (left > 0) log('warn', `Shutdown grace period passed; cancelling ${left} call(s).`);
    // Closing a session's MCP server cancels its running calls and ends its SSE streams.
    await Promise.all([...sessions.keys()].map((id) => closeSession(id, 'server shutting down')));
    httpServer.closeAllConnections();
    await stopped;
  }

  return {
    url,
    port,
    get sessionCount() {
      return sessions.size;
    },
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}

/**
 * `web-reader serve --http`: serves until SIGTERM or SIGINT, then shuts down gracefully and closes the engine.
 */
export async function serveHttp(config: Config, engine: Engine, tools: readonly AnyTool[]): Promise<void> {
  // Handlers first: a supervisor may send SIGTERM as soon as it sees the start-up line.
  const signalled = new Promise<string>((resolve) => {
    const onTerm = () => stop('SIGTERM');
    const onInt = () => stop('SIGINT');
    const stop = (signal: string) => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      resolve(signal);
    };
    process.once('SIGTERM', onTerm);
    process.once('SIGINT', onInt);
  });
  const handle = await startHttpServer(config, engine, tools);
  if (!isLoopbackHost(config.httpHost) && !config.httpToken) {
    log(
      'warn',
      `Listening on ${config.httpHost}, reachable from other machines, without a token: anyone who can reach it can ` +
        'make this server fetch URLs. Set --token or WEB_READER_TOKEN.',
    );
  }
  const names = tools.map((tool) => tool.name).join(', ');
  log('info', `MCP at ${handle.url}/mcp, JSON tools API at ${handle.url}/tools; MCP tools: ${names}`);
  log('info', `${await signalled}: shutting down`);
  await handle.close();
  await engine.close();
}

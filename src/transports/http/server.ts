// The HTTP front doors on one node:http server (SPEC "Front doors" 2 and 3): routing, admission, shutdown.
//   /mcp           MCP Streamable HTTP, both eras: mcp-modern.ts (2026-07-28), mcp-sessions.ts (2025 sessions).
//   GET /tools     the JSON tools API listing, and POST /tools/x to run tool x: tools-api.ts.
//   GET /healthz   for orchestrators; the only route without the token or the Host/Origin checks (guard.ts).
//   GET /metrics   this replica's figures for Prometheus (metrics.ts); behind the guard and the token, as a scrape
//                  says how much the server is used and for what, and Prometheus sends a bearer token easily.
// Thin: validation, running and error translation live in runTool and createMcpServer, shared with stdio and CLI.
//
// Status codes. HTTP errors are kept for requests that could not become a tool call: 400 invalid JSON or
// arguments (the message names the argument), 401 token, 403 Host/Origin, 404 unknown tool or route, 405 method,
// 413 body too large, 503 shutting down, too many connections or sessions (with Retry-After).
//
// Admission (issue 10, scope 4): never a silent drop. Node's own server.maxConnections destroys sockets past the
// cap without a word (a client sees a bare "fetch failed"), so connections are counted here instead: a socket
// accepted past WEB_READER_MAX_CONNECTIONS has its requests answered 503 + Retry-After (JSON-RPC on /mcp) and is
// closed; /healthz still answers on it. Sockets past twice the cap are answered the same 503 without reading the
// request, so a flood cannot hold file descriptors for the header timeout. The session cap is mcp-sessions.ts's.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import { log, setLogLevel } from '../../log.js';
import { quoteInput } from '../../quote.js';
import type { SharedState } from '../../shared-state/shared-state.js';
import { ALL_TOOLS, offeredTools, type AnyTool } from '../../tools/registry.js';
import { VERSION } from '../../version.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, GracefulStop } from '../graceful-stop.js';
import { warmForServing } from '../warm-up.js';
import { createRequestGuard, isLoopbackHost, isWildcardHost } from './guard.js';
import { HttpError, sendError, sendJson } from './http-error.js';
import { createMcpEndpoint } from './mcp-modern.js';
import { createMcpSessions } from './mcp-sessions.js';
import { httpMetrics } from './metrics.js';
import { createToolsApi } from './tools-api.js';
import { createImageStore, IMAGE_ROUTE } from './image-store.js';

/** Defaults a deployment rarely changes; tests shorten them. */
export interface HttpServerOptions {
  /**
   * What this process shares with other replicas, built once by the composition root (src/cli/main.ts): the MCP
   * sessions and their cancellation bus, /healthz's `redis`, and the resume store of crawls. Absent: nothing is
   * shared (`redis: off`), and crawls are kept in memory, one store per engine.
   */
  readonly sharedState?: SharedState;
  /** Tools of the JSON API. SPEC: the API always offers every tool (that its configuration can: search needs a provider); MCP offers the --tools selection. */
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

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
// How long an idle kept-alive connection stays open (announced as Keep-Alive: timeout=65). Longer than the 60 s a
// balancer or an http.Agent holds its idle upstream connections (nginx's upstream keepalive_timeout, AWS ALB), so
// the client, not the replica, closes them: Node's default (5 s announced, closed after 6) raced the next request
// written on the connection, which ended in a reset (issue 23 item 9). On a kept-alive connection Node (≥ 18) counts
// headersTimeout from a request's first byte, not from the idle time before it; on a new connection it counts from the
// accept, so a connection opened ahead of use (undici and browsers open them) is given the same idle time below.
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
// Retry-After (RFC 9110 §10.2.3) on a 503: connections free up in moments.
const RETRY_CONNECTION_SECONDS = 1;

/**
 * A whole answer written straight to a socket whose request never reached route() (unread, or unreadable), in the
 * JSON-RPC dialect of /mcp, where nearly all such requests go (a tools-API client reads it as JSON too).
 */
function rawAnswer(status: number, reason: string, message: string, headers = ''): string {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  return (
    `HTTP/1.1 ${status} ${reason}\r\n${headers}` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** The minimal answer written to a socket past twice the connection cap, before its request is read. */
const OVER_CAP_RESPONSE = rawAnswer(
  503,
  'Service Unavailable',
  'Too many connections (WEB_READER_MAX_CONNECTIONS); retry shortly.',
  `Retry-After: ${RETRY_CONNECTION_SECONDS}\r\n`,
);

/**
 * What Node refused before route() saw a request (its 'clientError'), as status, reason and a message naming the
 * limit. Node's own answer to these has no body and leaves no log line: a client under load saw a bare "Error
 * POSTing to endpoint:" and the log said nothing (issue 23 item 10).
 */
function clientErrorAnswer(code: string | undefined, headersTimeoutMs: number, requestTimeoutMs: number): string {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return rawAnswer(
      408,
      'Request Timeout',
      `The request did not arrive in time: its headers within ${headersTimeoutMs / 1000} s of its first byte, ` +
        `or all of it within ${requestTimeoutMs / 1000} s. Send it again.`,
    );
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return rawAnswer(431, 'Request Header Fields Too Large', "The request's headers are larger than the server reads.");
  }
  return rawAnswer(400, 'Bad Request', `The request is not valid HTTP/1.1 (${code ?? 'unknown parse error'}).`);
}

interface RequestLog {
  route: string;
  tool: string;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed %-escapes: looked up as written, so it is an unknown tool (404)
  }
}

export async function startHttpServer(
  config: Config,
  engine: Engine,
  tools: readonly AnyTool[],
  options: HttpServerOptions = {},
): Promise<HttpServerHandle> {
  setLogLevel('info'); // a server's stderr is its operator's log: one line per request (src/log.ts)
  const shutdownGraceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const guardRequest = createRequestGuard(config);
  let closing: Promise<void> | undefined;
  // Shutdown: stopSignal to every call at once, cancelSignal to JSON API calls still running after the grace
  // period (MCP calls are cancelled by closing their sessions). Counts POSTs in flight, MCP and JSON API alike.
  const graceful = new GracefulStop();
  // Screenshots served for a while at GET /screenshots/<name>, linked from the answers that carry them.
  let baseUrl = '';
  const images = createImageStore(() => baseUrl);
  const sessions = createMcpSessions(config, engine, tools, {
    graceful,
    keepImage: images,
    sharedState: options.sharedState,
    sessionIdleMs: options.sessionIdleMs,
    disconnectGraceMs: options.disconnectGraceMs,
  });
  const mcp = createMcpEndpoint(config, engine, tools, sessions, {
    graceful,
    sharedState: options.sharedState,
    keepImage: images,
  });
  const toolsApi = createToolsApi(config, engine, options.apiTools ?? offeredTools(ALL_TOOLS, config), graceful, {
    resumeStore: options.sharedState?.resumeStore,
    keepImage: images,
  });
  const metrics = httpMetrics();
  // Sockets accepted past the connection cap: their requests are answered 503 and the socket closed.
  const overCapSockets = new WeakSet<Socket>();
  // Sockets past twice the cap, answered 503 before their request was read.
  const answeredSockets = new WeakSet<Socket>();

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
      // `redis`: whether the state shared with other replicas is reachable (`off`: one process, no REDIS_URL). Down
      // is still 200: the replica serves from its own state (docs/scale-out.md), so a balancer should keep it.
      const redis = (await options.sharedState?.health()) ?? 'off';
      return sendJson(res, 200, { status: closing ? 'shutting_down' : 'ok', version: VERSION, redis });
    }
    entry.route =
      path === '/mcp'
        ? '/mcp'
        : path === '/tools'
          ? '/tools'
          : /^\/tools\/[^/]+$/.test(path)
            ? '/tools/{name}'
            : path === '/metrics'
              ? '/metrics'
              : path.startsWith(IMAGE_ROUTE)
                ? '/screenshots/{name}'
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
    if (guardRequest(req, res)) return; // a CORS preflight, answered
    if (entry.route === '/mcp') {
      allow('GET, POST, DELETE');
      return mcp.handle(req, res, entry);
    }
    if (entry.route === '/tools') {
      allow('GET, HEAD');
      return sendJson(res, 200, toolsApi.listTools());
    }
    if (entry.route === '/tools/{name}') {
      allow('POST');
      const name = safeDecode(path.slice('/tools/'.length));
      entry.tool = quoteInput(name);
      return toolsApi.callTool(name, req, res);
    }
    if (entry.route === '/screenshots/{name}') {
      allow('GET, HEAD');
      const image = images.get(path.slice(IMAGE_ROUTE.length));
      if (!image)
        throw new HttpError(404, 'No such screenshot: screenshots are kept for a few minutes after the call.');
      res.writeHead(200, {
        'content-type': image.mimeType,
        'content-length': String(image.bytes.byteLength),
        'cache-control': 'private, max-age=600',
      });
      res.end(method === 'HEAD' ? undefined : image.bytes);
      return;
    }
    if (entry.route === '/metrics') {
      allow('GET, HEAD');
      const text = await metrics.render();
      res.writeHead(200, {
        'content-type': metrics.contentType,
        'content-length': String(Buffer.byteLength(text)),
        'cache-control': 'no-store',
      });
      res.end(method === 'HEAD' ? undefined : text);
      return;
    }
    throw new HttpError(
      404,
      `No route ${quoteInput(path)}. Routes: /mcp, GET /tools, POST /tools/{name}, GET /healthz, GET /metrics, GET /screenshots/{name}.`,
    );
  }

  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const httpServer = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node checks headersTimeout and requestTimeout only on this interval (default 30 s), so a 10 s header
      // limit fired after up to 40 s. Checking at a tenth of the limit (at most every second) keeps it honest.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 10))),
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
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
        metrics.countResponse(entry.route, res.statusCode);
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

  // A request Node refused before route(): answered with a message, and logged; a client that hung up is only let go.
  httpServer.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A response already begun on the socket is not interrupted by another's bytes: Node's default checks the same.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    // Not a slow request but an idle connection: it has sent nothing since it was opened. Node's 408 here was
    // unsolicited, and a client writing its first request at that moment read the 408 as the answer to it (an MCP
    // client under load: "Error POSTing to endpoint:"). It is kept as an idle kept-alive one is, then closed quietly
    // (Node's socket time-out ends it); its first byte starts the header timeout again.
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && socket.bytesRead === 0) {
      socket.setTimeout(Math.max(1000, KEEP_ALIVE_TIMEOUT_MS - headersTimeoutMs));
      return;
    }
    const answer = clientErrorAnswer(error.code, headersTimeoutMs, requestTimeoutMs);
    log('warn', `HTTP ${answer.slice(9, 12)} before routing: ${error.code ?? error.message}`);
    socket.end(answer);
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
  baseUrl = url;

  const stopExpiry = sessions.expireIdle();
  warmForServing(engine);

  async function shutdown(): Promise<void> {
    stopExpiry();
    const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    httpServer.closeIdleConnections();
    // stopSignal now: a crawl answers with what it has; then the grace period for the answers to be written.
    const left = await graceful.stop(shutdownGraceMs);
    if (left > 0) log('warn', `Shutdown grace period passed; cancelling ${left} call(s).`);
    // Closing a session's MCP server cancels its running calls and ends its SSE streams.
    await Promise.all([sessions.closeAll('server shutting down'), mcp.close()]);
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
 * `web-reader serve --http`: serves until SIGTERM or SIGINT, then shuts down gracefully and closes the engine (the
 * shared state is its composition root's to close).
 */
export async function serveHttp(
  config: Config,
  engine: Engine,
  tools: readonly AnyTool[],
  sharedState: SharedState,
): Promise<void> {
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
  const handle = await startHttpServer(config, engine, tools, { sharedState });
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

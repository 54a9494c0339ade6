// MCP Streamable HTTP sessions on /mcp (SPEC "Front doors" 2): one SDK transport and one MCP Server per session;
// SSE carries streamed responses and progress; DELETE ends a session. Apart from the server because a session
// outlives the request that opened it: its cap, expiry and cancellation are state of their own.
//
// Cap (issue 10, scope 4): at WEB_READER_MAX_SESSIONS, the least recently used session with no call running is
// evicted for the new client; 503 + Retry-After only when every session is busy. A session with no call running
// for WEB_READER_SESSION_IDLE is closed.
//
// Cancellation (scope 3, MCP spec "Cancellation" and Streamable HTTP "Resumability and Redelivery"): a dropped
// connection is not by itself a cancellation, since a client may resume the stream. This server keeps no event
// store, so a POST's stream that closes before its result is sent can never be resumed: its calls are cancelled
// after DISCONNECT_GRACE_MS. notifications/cancelled and DELETE cancel at once (the SDK aborts the handler's signal).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import { log } from '../../log.js';
import { quoteInput } from '../../quote.js';
import { createMcpServer } from '../../server.js';
import type { AnyTool } from '../../tools/registry.js';
import type { GracefulStop } from '../graceful-stop.js';
import { readBody } from './guard.js';
import { HttpError } from './http-error.js';

/** At most 5 s (issue 10): long enough for a blip, short enough that abandoned work stops soon. */
export const DISCONNECT_GRACE_MS = 5_000;
// Retry-After (RFC 9110 §10.2.3) on a 503: sessions free up when a call ends.
const RETRY_SESSION_SECONDS = 5;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  /** When a request last started or a call last ended on this session. */
  lastActive: number;
  /** POSTs whose response is still open: calls in progress. A standalone GET stream is not activity. */
  activeCalls: number;
}

export interface McpSessionsOptions {
  /** Its stopSignal goes to every session's MCP server: shutdown asks running calls to stop gracefully. */
  readonly graceful: GracefulStop;
  /** Overrides WEB_READER_SESSION_IDLE (seconds) with milliseconds. */
  readonly sessionIdleMs?: number;
  /** How long a call whose response stream closed early keeps running; at most DISCONNECT_GRACE_MS. */
  readonly disconnectGraceMs?: number;
}

export interface McpSessions {
  /** Open sessions. */
  readonly size: number;
  /** Answers a GET, POST or DELETE on /mcp; names the tool called (or the method) in `entry.tool` for the log. */
  handle(req: IncomingMessage, res: ServerResponse, entry: { tool: string }): Promise<void>;
  /** Starts closing sessions idle for the idle time; returns the function that stops it. */
  expireIdle(): () => void;
  /** Closes every session: its MCP server cancels its running calls and ends its SSE streams. */
  closeAll(reason: string): Promise<void>;
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

export function createMcpSessions(
  config: Config,
  engine: Engine,
  tools: readonly AnyTool[],
  options: McpSessionsOptions,
): McpSessions {
  const { graceful } = options;
  const sessionIdleMs = options.sessionIdleMs ?? config.httpSessionIdleSeconds * 1000;
  const disconnectGraceMs = Math.min(options.disconnectGraceMs ?? DISCONNECT_GRACE_MS, DISCONNECT_GRACE_MS);
  const sessions = new Map<string, Session>();
  let openingSessions = 0;

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

  /** A POST without a session id: initialize opens a session, if the cap leaves (or eviction makes) room. */
  async function openSession(req: IncomingMessage, res: ServerResponse, message: unknown): Promise<void> {
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
  }

  function sessionFor(id: string): Session {
    const session = sessions.get(id);
    if (!session) throw new HttpError(404, 'Session not found. It ended or expired; initialize a new one.');
    return session;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, entry: { tool: string }): Promise<void> {
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
      if (typeof sessionId !== 'string') return openSession(req, res, message);
      return handleInSession(sessionFor(sessionId), req, res, message);
    }
    if (typeof sessionId !== 'string') throw new HttpError(400, 'Bad Request: Mcp-Session-Id header is required.');
    await handleInSession(sessionFor(sessionId), req, res);
    if (req.method === 'DELETE') await closeSession(sessionId, 'ended by the client');
  }

  // Idle expiry: a session with no call running for sessionIdleMs is closed, even with its GET stream open (the
  // stream ends); its client gets 404 and, as the MCP spec says, starts a new session.
  function expireIdle(): () => void {
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
    return () => clearInterval(sweep);
  }

  return {
    get size() {
      return sessions.size;
    },
    handle,
    expireIdle,
    async closeAll(reason) {
      await Promise.all([...sessions.keys()].map((id) => closeSession(id, reason)));
    },
  };
}

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
//
// Many replicas (REDIS_URL, docs/scale-out.md "MCP sessions"): a session is stored on Redis under its id, so any
// replica can serve any request of it, with no sticky balancer. Each request's own POST stream carries its progress
// and result, so a call runs where its POST lands. A replica that gets a request for a session it does not hold
// takes it up from what initialize stored (resume-session.ts). Every request refreshes the session's time to live
// (the idle time) in the same round trip that finds it. notifications/cancelled and DELETE are published on the
// cancellation bus, and the replica running the call (or holding the session) acts on them. Without REDIS_URL, or
// while Redis is unreachable, a replica serves the sessions it holds itself, as one process does.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, LoggingLevelSchema, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import { log } from '../../log.js';
import { quoteInput } from '../../quote.js';
import { createMcpServer } from '../../server.js';
import { DEFAULT_CLIENT_LOG_LEVEL, type ClientLogLevel } from '../../server-logging.js';
import { SESSION_STORE_UNREACHABLE, type McpSessionFacts } from '../../shared-state/redis-mcp-sessions.js';
import type { McpSessionSharing, SharedState } from '../../shared-state/shared-state.js';
import type { SessionSignal } from '../../shared-state/redis-cancel-bus.js';
import type { AnyTool } from '../../tools/registry.js';
import type { ImageKeeper } from '../../tools/types.js';
import type { GracefulStop } from '../graceful-stop.js';
import { readBody } from './guard.js';
import { HttpError } from './http-error.js';
import { resumeSession } from './resume-session.js';
import { cancellationsOf, describeRpc, requestIdsOf } from './rpc-messages.js';

/** At most 5 s (issue 10): long enough for a blip, short enough that abandoned work stops soon. */
export const DISCONNECT_GRACE_MS = 5_000;
// Retry-After (RFC 9110 §10.2.3) on a 503: sessions free up when a call ends.
const RETRY_SESSION_SECONDS = 5;
// …and when Redis could not be asked about a session held elsewhere: a reconnect is at most 1 s away.
const RETRY_UNREACHABLE_SECONDS = 1;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  /** When a request last started or a call last ended on this session. */
  lastActive: number;
  /** POSTs whose response is still open: calls in progress. A standalone GET stream is not activity. */
  activeCalls: number;
  /** What initialize said and the chosen log level: stored on Redis again should Redis have lost it. */
  facts: McpSessionFacts;
  readonly logLevel: ClientLogLevel;
}

export interface McpSessionsOptions {
  /** Its stopSignal goes to every session's MCP server: shutdown asks running calls to stop gracefully. */
  readonly graceful: GracefulStop;
  /** The sessions and cancellation bus replicas share (REDIS_URL), and the resume store of crawls; see server.ts. */
  readonly sharedState?: SharedState;
  /** Overrides WEB_READER_SESSION_IDLE (seconds) with milliseconds. */
  readonly sessionIdleMs?: number;
  /** How long a call whose response stream closed early keeps running; at most DISCONNECT_GRACE_MS. */
  readonly disconnectGraceMs?: number;
  /** Where the server keeps the screenshots it serves (image-store.ts). */
  readonly keepImage?: ImageKeeper;
}

export interface McpSessions {
  /** Open sessions. */
  readonly size: number;
  /**
   * Answers a GET, POST or DELETE on /mcp; names the tool called (or the method) in `entry.tool` for the log. `body`:
   * a POST's message, when the caller has read it already (readRpcBody).
   */
  handle(req: IncomingMessage, res: ServerResponse, entry: { tool: string }, body?: unknown): Promise<void>;
  /** Starts closing sessions idle for the idle time; returns the function that stops it. */
  expireIdle(): () => void;
  /** Closes every session: its MCP server cancels its running calls and ends its SSE streams. */
  closeAll(reason: string): Promise<void>;
}

/** A POST's JSON-RPC message, read within the body limit; names the tool called (or the method) in `entry.tool`. */
export async function readRpcBody(req: IncomingMessage, config: Config, entry: { tool: string }): Promise<unknown> {
  const raw = await readBody(req, config.httpMaxBodyBytes);
  let message: unknown;
  try {
    message = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'Parse error: the body is not valid JSON.');
  }
  entry.tool = describeRpc(message);
  return message;
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
  /** Sessions being taken up from Redis: two requests of one session arriving together make one copy. */
  const resuming = new Map<string, Promise<Session>>();
  let openingSessions = 0;

  // Redis, if REDIS_URL: listened to on first use, and once it answers, this replica hears the other replicas'
  // cancellations before it serves a session.
  let sharingReady: Promise<McpSessionSharing | undefined> | undefined;
  const sharing = () =>
    (sharingReady ??= (async () => {
      const shared = options.sharedState?.mcpSessions;
      await shared?.cancelBus.listen(onSignal);
      return shared;
    })());

  /** A cancellation or a session's end published by another replica: acted on if this replica holds the session. */
  function onSignal(signal: SessionSignal): void {
    const session = sessions.get(signal.sessionId);
    if (!session) return;
    if (signal.requestId === undefined) {
      void closeSession(signal.sessionId, signal.reason ?? 'ended on another replica');
      return;
    }
    log('info', `MCP session ${signal.sessionId}: request ${quoteInput(String(signal.requestId))} cancelled`);
    session.transport.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: signal.requestId, ...(signal.reason === undefined ? {} : { reason: signal.reason }) },
    });
    endCancelledStream(session, signal.requestId);
  }

  /**
   * Closes this replica's copy of a session. `everywhere`: the session itself ends (DELETE, eviction): it is removed
   * from Redis and every other replica closes its copy, cancelling the calls it runs. Otherwise (idle here, shutdown)
   * other replicas go on serving it.
   */
  async function closeSession(id: string, reason: string, everywhere = false): Promise<void> {
    const session = sessions.get(id);
    if (session) {
      sessions.delete(id);
      log('info', `MCP session ${id} closed (${reason})`);
    }
    if (everywhere) {
      const shared = await sharing();
      await shared?.sessions.remove(id);
      await shared?.cancelBus.publish({ sessionId: id, reason: `ended on another replica (${reason})` });
    }
    await session?.server.close().catch(() => undefined); // already closing: nothing more to do
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
    for (const { requestId } of cancellationsOf(body)) endCancelledStream(session, requestId);
  }

  /**
   * A cancelled request is never answered (the SDK sends nothing for it), so the SSE stream of the POST that carried
   * it would stay open, kept alive, and count as a call in progress for the session's life (no idle expiry, no
   * eviction): the stream is ended once the request is cancelled. A request already answered has no stream left.
   */
  function endCancelledStream(session: Session, requestId: RequestId): void {
    session.transport.closeSSEStream(requestId);
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
    const reason = `evicted for a new session at WEB_READER_MAX_SESSIONS, idle for ${idleSeconds} s`;
    await closeSession(oldest[0], reason, true);
    return true;
  }

  /**
   * Takes a place at the session cap for a session being opened or taken up, evicting if it must; the place counts
   * until the returned function is called (once the session is in `sessions`, or has failed to open).
   */
  async function reservePlace(res: ServerResponse): Promise<() => void> {
    while (sessions.size + openingSessions >= config.httpMaxSessions) {
      if (await evictIdleSession()) continue;
      res.setHeader('retry-after', String(RETRY_SESSION_SECONDS));
      throw new HttpError(
        503,
        `Too many MCP sessions, each running a call (WEB_READER_MAX_SESSIONS=${config.httpMaxSessions}); ` +
          `retry in ${RETRY_SESSION_SECONDS} s.`,
      );
    }
    openingSessions += 1;
    let isHeld = true;
    return () => {
      if (isHeld) openingSessions -= 1;
      isHeld = false;
    };
  }

  /** A session's MCP server and transport, in `sessions` once initialize has given it its id (or resumeStored). */
  function createSession(facts: McpSessionFacts): Session {
    const level = LoggingLevelSchema.safeParse(facts.logLevel);
    const logLevel: ClientLogLevel = {
      current: level.success ? level.data : DEFAULT_CLIENT_LOG_LEVEL,
      // Stored before logging/setLevel is answered: the client's next request may land on another replica.
      onChosen: async (chosen) => {
        session.facts = { ...session.facts, logLevel: chosen };
        const id = session.transport.sessionId;
        if (id !== undefined) await (await sharing())?.sessions.save(id, session.facts, sessionIdleMs, true);
      },
    };
    const server = createMcpServer(engine, tools, {
      stopSignal: graceful.stopSignal,
      clientLogLevel: logLevel,
      resumeStore: options.sharedState?.resumeStore,
      keepImage: options.keepImage,
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: async (newId) => {
        // Awaited by the SDK before initialize is answered: the session is on Redis before its client can use it.
        await (await sharing())?.sessions.save(newId, session.facts, sessionIdleMs);
        sessions.set(newId, session);
        server.onclose = () => void closeSession(newId, 'closed');
        log('info', `MCP session ${newId} opened`);
      },
    });
    const session: Session = { transport, server, lastActive: Date.now(), activeCalls: 0, facts, logLevel };
    return session;
  }

  /** A POST without a session id: initialize opens a session, if the cap leaves (or eviction makes) room. */
  async function openSession(req: IncomingMessage, res: ServerResponse, message: unknown): Promise<void> {
    if (!isInitializeRequest(message)) {
      throw new HttpError(400, 'Bad Request: no Mcp-Session-Id header; send initialize first.');
    }
    // An opening session counts against the cap until it is in `sessions`, and only until then (counted once).
    const opened = await reservePlace(res);
    const { transport, server } = createSession({ initialize: message.params });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    } finally {
      opened();
    }
    // initialize was refused (e.g. an unsupported request shape): nothing to keep.
    if (transport.sessionId === undefined) await server.close();
  }

  /** Takes up a session another replica opened, from what it stored on Redis. */
  async function resumeStored(id: string, facts: McpSessionFacts, res: ServerResponse): Promise<Session> {
    const placed = await reservePlace(res);
    try {
      const session = createSession(facts);
      await session.server.connect(session.transport);
      await resumeSession(session.server, session.transport, id, facts.initialize);
      sessions.set(id, session);
      session.server.onclose = () => void closeSession(id, 'closed');
      log('info', `MCP session ${id} taken up from Redis (opened on another replica)`);
      return session;
    } finally {
      placed();
    }
  }

  /**
   * The session a request names. With REDIS_URL, one round trip to Redis finds it, refreshes its time to live and
   * brings its current log level; a session this replica does not hold is taken up from there (unless `takeUp` is
   * false: then undefined). Without Redis (or while it is unreachable) only the sessions this replica holds.
   */
  async function sessionFor(id: string, res: ServerResponse, takeUp = true): Promise<Session | undefined> {
    const shared = await sharing();
    const stored = shared ? await shared.sessions.touch(id, sessionIdleMs) : null;
    const held = sessions.get(id);
    if (held) {
      if (stored === null && shared) {
        // Redis does not have it (restarted empty, or this session opened while it was unreachable), but this
        // replica does: store it, so the other replicas can serve it again.
        await shared.sessions.save(id, held.facts, sessionIdleMs);
      } else if (stored !== null && stored !== SESSION_STORE_UNREACHABLE) {
        const level = LoggingLevelSchema.safeParse(stored.logLevel);
        if (level.success) held.logLevel.current = level.data;
      }
      return held;
    }
    if (stored === SESSION_STORE_UNREACHABLE) {
      res.setHeader('retry-after', String(RETRY_UNREACHABLE_SECONDS));
      throw new HttpError(
        503,
        'This replica cannot reach Redis to find the session (it was opened on another replica); ' +
          `retry in ${RETRY_UNREACHABLE_SECONDS} s.`,
      );
    }
    if (stored === null) throw new HttpError(404, 'Session not found. It ended or expired; initialize a new one.');
    if (!takeUp) return undefined;
    let taking = resuming.get(id);
    if (!taking) {
      taking = resumeStored(id, stored, res).finally(() => resuming.delete(id));
      resuming.set(id, taking);
    }
    return taking;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, entry: { tool: string }, body?: unknown) {
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
      const message = body ?? (await readRpcBody(req, config, entry));
      if (typeof sessionId !== 'string') return openSession(req, res, message);
      const session = (await sessionFor(sessionId, res))!;
      // The call may run on another replica: tell them all (this replica's transport cancels its own, below).
      const shared = await sharing();
      for (const { requestId, reason } of shared ? cancellationsOf(message) : []) {
        await shared!.cancelBus.publish({ sessionId, requestId, ...(reason === undefined ? {} : { reason }) });
      }
      return handleInSession(session, req, res, message);
    }
    if (typeof sessionId !== 'string') throw new HttpError(400, 'Bad Request: Mcp-Session-Id header is required.');
    // A DELETE of a session held elsewhere only ends it (everywhere) without taking it up here.
    const session = await sessionFor(sessionId, res, req.method !== 'DELETE');
    if (session) await handleInSession(session, req, res);
    else res.writeHead(200).end(); // as the SDK answers a DELETE
    if (req.method === 'DELETE') await closeSession(sessionId, 'ended by the client', true);
  }

  // Idle expiry: a session with no call running for sessionIdleMs is closed, even with its GET stream open (the
  // stream ends); its client gets 404 and, as the MCP spec says, starts a new session. With REDIS_URL this closes
  // this replica's copy; the session itself lapses on Redis after the same idle time with no request on any
  // replica, and a call running here keeps it alive there.
  function expireIdle(): () => void {
    const sweep = setInterval(
      () => {
        const now = Date.now();
        const running: string[] = [];
        for (const [id, session] of sessions) {
          if (session.activeCalls > 0) running.push(id);
          else if (now - session.lastActive > sessionIdleMs) {
            void closeSession(id, `idle for ${Math.round((now - session.lastActive) / 1000)} s`);
          }
        }
        if (running.length > 0) void sharing().then((shared) => shared?.sessions.keepAlive(running, sessionIdleMs));
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

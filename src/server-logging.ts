// MCP logging (spec 2025-06-18, "Server utilities / Logging"): the server declares `logging`, the client picks a
// level with logging/setLevel (answered by server.ts's acceptLogLevel), and the server's own log lines (src/log.ts) reach that client as notifications/message.
//
// Which lines: only those caused by the client's own tool calls. log.ts routes a line to the sink of the call that
// caused it; lines of no call (start-up, shutdown, sessions opening and closing) stay on stderr. Over Streamable
// HTTP every session has its own MCP Server (transports/http/mcp-sessions.ts), hence its own level and its own
// calls: one client's lines never reach another.
//
// The level before any logging/setLevel: `warning`. The spec lets the server choose ("If no logging/setLevel request
// has been sent from the client, the server MAY decide which messages to send automatically"). A client that never
// asks still hears of problems (warning and above), but not of every fetch; asking for `info` or `debug` adds retries,
// queue waits, robots.txt refusals, slow pages and, at debug, each fetch.
//
// Our levels map onto the spec's (RFC 5424's) four of eight: debug, info, warn → warning, error. Nothing of ours is
// critical, alert or emergency: a failing call is reported in its result, not as a log line.
//
// Bounded: a call sends at most MAX_CALL_LOG_CHARS of log text. Notifications are written to the call's own stream
// (stdio, or the POST's SSE stream on HTTP), which a client that stops reading lets fill up in our memory; the
// budget caps what one call can leave there. stderr is not affected.
import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import type { LogLevel, LogSink } from './log.js';
import { quoteInput } from './quote.js';

/** What a client hears before it sends logging/setLevel (see above). */
export const DEFAULT_CLIENT_LOG_LEVEL: LoggingLevel = 'warning';

/** The log text one tool call may send its client; after that, one line says the rest was left out. */
export const MAX_CALL_LOG_CHARS = 64 * 1024;

/** The longest single line sent; a longer one is cut (quoteInput). */
export const MAX_LOG_LINE_CHARS = 2000;

/** Our level → the spec's. */
export const MCP_LOG_LEVELS: Readonly<Record<LogLevel, LoggingLevel>> = {
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
};

/** The spec's levels (RFC 5424's), least severe first; no SDK is loaded for them (server-calls.ts). */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

const SEVERITY = new Map<LoggingLevel, number>(LOGGING_LEVELS.map((level, index) => [level, index]));

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return SEVERITY.has(value as LoggingLevel);
}

/** Whether a line at `level` passes a client's chosen `threshold`. */
export function isLogLevelShown(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return SEVERITY.get(level)! >= SEVERITY.get(threshold)!;
}

/**
 * A session's chosen level, held by its transport when the session outlives one process: over HTTP with REDIS_URL
 * (transports/http/mcp-sessions.ts) a replica that takes up a session sets `current` from what another replica
 * stored, and `onChosen` stores a new choice before it is acknowledged, so the client's next request, wherever it
 * lands, finds it.
 */
export interface ClientLogLevel {
  current: LoggingLevel;
  readonly onChosen?: (level: LoggingLevel) => Promise<void>;
}

/**
 * The sink of one tool call: each line at or above the client's current level becomes a notifications/message
 * (no level: none does — a 2026-07-28 request that names no `io.modelcontextprotocol/logLevel` in its `_meta`),
 * within the call's budget. `send` must not throw synchronously; a failed send (client gone) is dropped, since a
 * log line is best-effort.
 */
export function createCallLogSink(
  send: (notification: LoggingMessageNotification) => Promise<void>,
  threshold: () => LoggingLevel | undefined,
): LogSink {
  let left = MAX_CALL_LOG_CHARS;
  const emit = (level: LoggingLevel, data: string) =>
    void send({ method: 'notifications/message', params: { level, logger: 'web-reader', data } }).catch(
      () => undefined,
    );
  return (ours, message) => {
    const level = MCP_LOG_LEVELS[ours];
    const shown = threshold();
    if (left <= 0 || shown === undefined || !isLogLevelShown(level, shown)) return;
    const line = quoteInput(message, MAX_LOG_LINE_CHARS);
    left -= line.length;
    if (left >= 0) return emit(level, line);
    emit(level, `further log lines of this call are not sent: it has sent ${MAX_CALL_LOG_CHARS} characters of them`);
  };
}

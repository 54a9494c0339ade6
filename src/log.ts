// The one logger. Library code never writes to stdout: on stdio that is the MCP channel.
//
// One record is one line: every control character in a message is written as an escape, so a value a client
// chose (a tool name, a path, a header) can never end the line and forge a second record (CWE-117).
//
// Every line goes to stderr (above the operator's threshold), and also to the MCP client whose tool call caused it
// (MCP "Logging", notifications/message; src/server-logging.ts filters by the level that client chose). Which call
// caused a line is carried by an AsyncLocalStorage that the server enters where a tool call starts: this file is
// the bottom layer and may not import the server, and a sink passed down as a parameter would have to thread
// through every layer in between. Over Streamable HTTP many clients share one process, so a line is routed only by
// the call that caused it, never broadcast: a line outside any call (start-up, shutdown, sessions) stays on stderr.
//
// What runs in whose context: async work started by a call (awaits, timers, promises it created) stays in that
// call's. Shared machinery that runs one caller's work from another's stack must hand each caller its own context
// back: the per-host queue binds each task to its caller (fetch/queue.ts); long-lived servers started during a call
// (the browser, its egress proxy) start outside any call (runOutsideCalls) and log a render's lines through the
// logger that render captured (captureLog). A fetch shared by concurrent calls (in-flight de-duplication,
// engine/load-page.ts) logs in the context of the call that started it: the others see the page, not its lines.
import { AsyncLocalStorage } from 'node:async_hooks';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Where a tool call's lines go besides stderr: its MCP client. Gets every level; the sink filters. */
export type LogSink = (level: LogLevel, message: string) => void;

/** `log` as a value: what captureLog returns. */
export type Logger = (level: LogLevel, message: string) => void;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
// stderr's threshold. `warn` for a one-shot command and the library, whose stderr is the user's (errors, --explain,
// a progress bar): a call's retries and queue waits are for an MCP client that asked (logging/setLevel), not for the
// terminal. The servers, long-running with an operator reading their log, set `info` when they start.
let threshold: LogLevel = 'warn';

/** stderr's threshold (a call's MCP client chooses its own). */
export function setLogLevel(level: LogLevel): void {
  threshold = level;
}

const callSinks = new AsyncLocalStorage<LogSink | undefined>();

/** Runs `fn` as a tool call whose log lines also go to `sink` (src/server.ts, where a call starts). */
export function runWithLogSink<T>(sink: LogSink, fn: () => T): T {
  return callSinks.run(sink, fn);
}

/**
 * Runs `fn` outside any call: for something started during one call that then serves every call (a browser, a
 * proxy server). Its event handlers would otherwise run in the starting call's context and send other calls'
 * lines to that call's client.
 */
export function runOutsideCalls<T>(fn: () => T): T {
  // Outside a call already (the CLI, the JSON API): nothing to leave, and no storage switched on for nothing.
  return callSinks.getStore() === undefined ? fn() : callSinks.run(undefined, fn);
}

/**
 * A logger bound to the current call: for a callback of this call that a shared server will run from its own
 * context (a socket handler of the egress proxy, say).
 */
export function captureLog(): Logger {
  const sink = callSinks.getStore();
  if (!sink) return (level, message) => runOutsideCalls(() => log(level, message));
  return (level, message) => callSinks.run(sink, () => log(level, message));
}

// C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators some log viewers break lines on.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character escaped (`\n`, `\r`, `\t`, else `\xNN` / `\uNNNN`): safe on one log line. */
export function escapeLogText(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const named = NAMED[char];
    if (named) return named;
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A URL as a log line shows it: scheme, host and path. The query and fragment are left out: they may carry a token
 * (a signed link, an `api_key`), and stderr of a shared server is read by its operator.
 */
export function logUrl(url: string | URL): string {
  try {
    const parsed = new URL(url);
    const rest = parsed.search || parsed.hash ? '?…' : '';
    return `${parsed.origin}${parsed.pathname}${rest}`;
  } catch {
    return '(invalid URL)'; // never echo what could not be parsed: it could be anything
  }
}

export function log(level: LogLevel, message: string): void {
  const sink = callSinks.getStore();
  if (ORDER[level] < ORDER[threshold] && !sink) return;
  const line = escapeLogText(message);
  if (ORDER[level] >= ORDER[threshold]) process.stderr.write(`[web-reader] ${level}: ${line}\n`);
  sink?.(level, line);
}

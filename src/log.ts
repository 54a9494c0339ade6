// The one logger. Library code never writes to stdout: on stdio that is the MCP channel.
//
// One record is one line: every control character in a message is written as an escape, so a value a client
// chose (a tool name, a path, a header) can never end the line and forge a second record (CWE-117).
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold: LogLevel = 'info';

export function setLogLevel(level: LogLevel): void {
  threshold = level;
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

export function log(level: LogLevel, message: string): void {
  if (ORDER[level] < ORDER[threshold]) return;
  process.stderr.write(`[web-reader] ${level}: ${escapeLogText(message)}\n`);
}

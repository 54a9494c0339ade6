// The one logger. Library code never writes to stdout: on stdio that is the MCP channel.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold: LogLevel = 'info';

export function setLogLevel(level: LogLevel): void {
  threshold = level;
}

export function log(level: LogLevel, message: string): void {
  if (ORDER[level] < ORDER[threshold]) return;
  process.stderr.write(`[web-reader] ${level}: ${message}\n`);
}

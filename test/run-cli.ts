// The built CLI (dist/) as a person or a script runs it: a process of its own with only PATH and the environment the
// test gives, its stdout, stderr and exit code. `npm run build` first (npm test does).
import { execFile } from 'node:child_process';
import { CLI_PATH } from './mcp/stdio-client.js';
import { testTesseract } from './mcp/stdio-client.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunCliOptions {
  /**
   * The process is killed after this long; 0 (the default) waits as long as the test does. A bound here is a
   * wall-clock bound that a loaded machine can break: give one only where the process is expected to hang.
   */
  readonly timeoutMs?: number;
  /** Output allowed on stdout or on stderr before the process is killed (execFile's own default is 1 MiB). */
  readonly maxBufferBytes?: number;
}

export function runCli(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  { timeoutMs = 0, maxBufferBytes = 1024 * 1024 }: RunCliOptions = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_PATH, ...args],
      {
        env: { PATH: process.env.PATH ?? '', ...testTesseract(), ...env },
        timeout: timeoutMs,
        maxBuffer: maxBufferBytes,
      },
      // A process killed (the time-out, too much output) has no exit code: it counts as 1, and stderr says so.
      (error, stdout, stderr) => {
        const killed = error?.killed ? `\n[run-cli: killed with ${error.signal ?? 'a signal'}: ${error.message}]` : '';
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr: `${stderr}${killed}` });
      },
    );
  });
}

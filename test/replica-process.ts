// A replica of `web-reader serve --http` as an operator runs one (issue 16): the built CLI as a child process on a
// free port, its stderr kept for assertions. For the tests of many replicas on one Redis (test/replicas*.test.ts).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI_PATH } from './mcp/stdio-client.js';

export interface Replica {
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** `web-reader serve --http --port 0` with exactly `env` (and PATH); resolves once it listens. */
export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI_PATH, 'serve', '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line in:\n${stderr}`)), 15_000);
    child.stderr.on('data', () => {
      const match = /MCP at (http:\/\/\S+)\/mcp/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(() => reject(new Error(`exited before listening:\n${stderr}`)));
  });
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

// `web-reader serve --http` as an operator runs it: the built CLI as a child process on a free port, its stderr kept
// for assertions. The one way the tests start it: a replica of many on one Redis (test/replicas*.test.ts,
// test/crawl-replicas.test.ts) or a server a user starts (test/http/cli-http.test.ts).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI_PATH } from './mcp/stdio-client.js';

export interface ServedHttp {
  readonly child: ChildProcessWithoutNullStreams;
  /** Where it listens, as its start-up line says (`http://host:port`). */
  readonly url: string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * A server that has not said it listens by then is stuck: killed, and the test fails. Under the hooks' 60 s limit,
 * far above a start-up (three replicas starting at once at load 22 took over 15 s, the limit before).
 */
const START_UP_LIMIT_MS = 50_000;

/** `web-reader serve --http --port 0 ...args` with exactly `env` (and PATH); resolves once it listens. */
export async function startServeHttp(env: Record<string, string>, args: readonly string[] = []): Promise<ServedHttp> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--http', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never left behind by a test that gave up on it
      reject(new Error(`no start-up line in:\n${stderr}`));
    }, START_UP_LIMIT_MS);
    child.stderr.on('data', () => {
      const match = /MCP at (http:\/\/\S+)\/mcp/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(() => reject(new Error(`exited before listening:\n${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
}

export interface Replica {
  readonly url: string;
  stderr(): string;
  /** SIGKILL, as a replica that dies: nothing of it is cleaned up. */
  stop(): Promise<void>;
}

export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const served = await startServeHttp(env);
  return {
    url: served.url,
    stderr: served.stderr,
    stop: async () => {
      if (served.child.exitCode === null) served.child.kill('SIGKILL');
      await served.exited;
    },
  };
}

// A real Redis for the tests of shared state (issue 16): Debian's redis-server on a free loopback port, one per test
// file, without persistence, stopped when the file ends. It can be stopped and started again on the same port
// mid-test (an outage). Without redis-server the tests skip, with one line per run (test/redis-notice.ts); with CI
// set, a missing Redis is a failure, never a silent skip (as test/browser-available.ts does for Chromium).
//
//   describeWithRedis('the shared page cache', (redis) => { it(…, () => … redis.url …) });
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { describeWithPart } from './optional-part.js';
import { createRedisLink, REDIS_KEY_PREFIX, type RedisLink } from '../src/shared-state/redis-link.js';
import { HOW_TO_RUN_REDIS, REDIS_SERVER_PATH } from './redis-notice.js';
import { standIn } from './use-fixture-server.js';

export interface TestRedis {
  /** redis://127.0.0.1:PORT, for REDIS_URL. */
  readonly url: string;
  readonly port: number;
  /** Whether the server is running now. */
  readonly isRunning: boolean;
  /** Stops the server (SIGTERM) and resolves when it has exited: clients see their connection close. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (no persistence), and resolves when it accepts connections. */
  start(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startRedisServer(path: string): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const started = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 50_000); // stuck, not slow
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.stderr!.on('data', (chunk: Buffer) => (output += chunk));
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get isRunning() {
      return child !== undefined && child.exitCode === null;
    },
    stop,
    start,
  };
}

/**
 * `describe` for tests that need a real Redis: one server for the file, started before its tests and stopped after
 * them. Skipped without redis-server on PATH, failed under CI.
 */
export function describeWithRedis(name: string, body: (redis: TestRedis) => void): void {
  const part = {
    path: REDIS_SERVER_PATH,
    program: 'redis-server',
    tests: 'the shared-state tests',
    howToRun: HOW_TO_RUN_REDIS,
  };
  describeWithPart(name, part, (path) => {
    if (!path) return body(standIn<TestRedis>('Redis server', () => undefined)); // skipped: never called
    let redis: TestRedis | undefined;
    beforeAll(async () => {
      redis = await startRedisServer(path);
    });
    afterAll(() => redis?.stop());
    body(standIn('Redis server', () => redis));
  });
}

/** Waits (at most 2 s) until `link` has reached Redis: a replica's first commands would otherwise fall back. */
export async function untilReachable(link: RedisLink): Promise<void> {
  for (let i = 0; i < 200 && !(await link.isReachable()); i++) await new Promise((r) => setTimeout(r, 10));
}

/**
 * Inside describeWithRedis: connections to `redis` as replicas open them, and one plain client to look at the
 * keys (`inspect`, with the product's key prefix); all are closed when the file ends.
 */
export function useRedisConnections(redis: TestRedis) {
  const links: RedisLink[] = [];
  let inspector: Redis | undefined;
  afterAll(async () => {
    await Promise.all(links.map((link) => link.close()));
    inspector?.disconnect();
  });
  return {
    /** A replica's link, not waited for. */
    open(): RedisLink {
      const link = createRedisLink(redis.url);
      links.push(link);
      return link;
    },
    /** A replica's link, once it has reached Redis. */
    async link(): Promise<RedisLink> {
      const link = this.open();
      await untilReachable(link);
      return link;
    },
    inspect(): Redis {
      if (!inspector) {
        inspector = new Redis(redis.url, { keyPrefix: REDIS_KEY_PREFIX });
        inspector.on('error', () => undefined); // a test may stop Redis on purpose; this client waits for it
      }
      return inspector;
    },
  };
}

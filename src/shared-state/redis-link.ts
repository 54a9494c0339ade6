// One connection to Redis per process, and what a replica does when Redis goes away (docs/scale-out.md): every
// shared operation falls back to the process's own in-memory state, with one warning per outage, and no call waits
// on Redis for more than REDIS_COMMAND_TIMEOUT_MS. ioredis never queues a command while disconnected
// (enableOfflineQueue: false) and never retries one (maxRetriesPerRequest: 0): a command runs now or fails now. It
// reconnects on its own, at most REDIS_RECONNECT_MAX_MS apart, and the state is shared again from its 'ready'.
import { Redis } from 'ioredis';
import { errorMessage } from '../errors.js';
import { log } from '../log.js';

/** The longest any call waits on one Redis command before going on with local state. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
export const REDIS_CONNECT_TIMEOUT_MS = 2000;
export const REDIS_RECONNECT_MAX_MS = 1000;

/** A Redis that refuses commands (answering, but with an error) is logged at most this often. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/** Every key this product writes starts with this, so one Redis can serve other things too. */
export const REDIS_KEY_PREFIX = 'web-reader:';

export interface RedisLink {
  /**
   * Runs `op`, or resolves `fallback` at once while Redis is unreachable. A failing command resolves `fallback` too
   * (the outage is logged once); `op` runs with the key prefix applied to its keys.
   */
  attempt<T>(op: (redis: Redis) => Promise<T>, fallback: T): Promise<T>;
  /**
   * A Lua script as a function of the connection (EVALSHA, loaded again by ioredis after NOSCRIPT). Its first
   * `numberOfKeys` arguments are keys, prefixed like every other.
   */
  script(lua: string, numberOfKeys: number): (redis: Redis, ...args: (string | number | Buffer)[]) => Promise<unknown>;
  /**
   * Calls `onMessage` with each message published on `channel` (Redis pub/sub, at most once: a message published
   * while this replica's subscription is down is lost). A second connection, opened on first use, since a
   * subscribed connection runs no other command; it subscribes again whenever it reconnects. Resolves once
   * subscribed, or at once while Redis is unreachable (it subscribes when Redis is back).
   */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<void>;
  /** Whether Redis answers a PING now, within the command timeout. */
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** The URL without its password, for logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'REDIS_URL';
  }
}

export function createRedisLink(url: string): RedisLink {
  const where = redactRedisUrl(url);
  const redis = new Redis(url, {
    keyPrefix: REDIS_KEY_PREFIX,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (attempts) => Math.min(attempts * 100, REDIS_RECONNECT_MAX_MS),
  });
  let isWarned = false;
  let isClosing = false;
  let scripts = 0;
  // Pub/sub: one connection for every channel of this process, its outages reported by the main connection's.
  let subscriber: Redis | undefined;
  const listeners = new Map<string, (message: string) => void>();

  function outage(reason: string): void {
    if (isWarned || isClosing) return;
    isWarned = true;
    log(
      'warn',
      `Redis at ${where} is unreachable (${reason}): this replica goes on with its own in-memory cache, ` +
        'politeness and robots.txt answers until it is back.',
    );
  }

  let lastRefusalLogAt = -Infinity;
  function refused(message: string): void {
    if (Date.now() - lastRefusalLogAt < REFUSAL_LOG_INTERVAL_MS) return;
    lastRefusalLogAt = Date.now();
    log('warn', `Redis at ${where} refused a command (${message}): this call went on with local state.`);
  }

  // ioredis reports connection failures here (and would print them itself without a listener).
  redis.on('error', (error: unknown) => outage(errorMessage(error)));
  redis.on('close', () => outage('connection closed'));
  redis.on('ready', () => {
    if (isWarned) log('info', `Redis at ${where} is reachable again: state is shared with the other replicas again.`);
    isWarned = false;
  });

  return {
    async attempt(op, fallback) {
      if (redis.status !== 'ready') return fallback;
      try {
        return await op(redis);
      } catch (error) {
        const message = errorMessage(error);
        // Redis answered, with an error (out of memory under `noeviction`, say): no outage, but worth a line.
        if (error instanceof Error && error.name === 'ReplyError') {
          refused(message);
          return fallback;
        }
        outage(message);
        // A command that timed out on an open connection: Redis hangs or the network dropped it silently. A new
        // connection finds out which; until it is ready, commands fall back at once instead of each timing out.
        if (/timed out/i.test(message) && redis.status === 'ready') redis.disconnect(true);
        return fallback;
      }
    },
    script(lua, numberOfKeys) {
      const name = `webReaderScript${++scripts}`;
      redis.defineCommand(name, { lua, numberOfKeys });
      return (client, ...args) =>
        (client as unknown as Record<string, (...values: unknown[]) => Promise<unknown>>)[name]!(...args);
    },
    async subscribe(channel, onMessage) {
      listeners.set(channel, onMessage);
      if (!subscriber) {
        const connection = redis.duplicate();
        subscriber = connection;
        // Its failures are the main connection's too, which warns once per outage; here they would only repeat it.
        connection.on('error', () => undefined);
        connection.on('message', (from: string, message: string) => listeners.get(from)?.(message));
        // ioredis subscribes again by itself after a reconnect (autoResubscribe), but only to channels it had
        // subscribed: a first SUBSCRIBE that failed (Redis down at start) is sent again here once it is ready.
        connection.on('ready', () => void connection.subscribe(...listeners.keys()).catch(() => undefined));
      }
      const connection = subscriber;
      if (connection.status !== 'ready' && redis.status === 'ready') {
        // Just opened while Redis answers: wait for it (bounded), so that a caller knows it hears from now on.
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            connection.off('ready', done);
            resolve();
          };
          const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS);
          connection.once('ready', done);
        });
      }
      if (connection.status !== 'ready') return;
      try {
        await connection.subscribe(channel);
      } catch {
        // Unreachable now: the 'ready' handler subscribes once it is back.
      }
    },
    async isReachable() {
      if (redis.status !== 'ready') return false;
      try {
        return (await redis.ping()) === 'PONG';
      } catch {
        return false; // a timeout or a closed connection: unreachable, which is the answer asked for
      }
    },
    async close() {
      isClosing = true;
      subscriber?.disconnect();
      if (redis.status !== 'ready') return redis.disconnect();
      try {
        await redis.quit();
      } catch {
        redis.disconnect(); // quit timed out: close the socket ourselves
      }
    },
  };
}

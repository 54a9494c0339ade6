// MCP Streamable HTTP sessions that any replica can serve (issue 16 scope 3, docs/scale-out.md): what initialize
// told the server and the client's chosen log level, stored under the session id, so a replica that never saw the
// session can take up a request for it. One string per session (JSON), its time to live the session idle time:
// every request refreshes it (GETEX, Redis ≥ 6.2), so one round trip both finds the session and keeps it alive.
//
// Not stored: anything of a running call (it stays on the replica running it; cancellation reaches it through
// redis-cancel-bus.ts), the SSE streams themselves, MCP Tasks (each replica's own task store).
import type { RedisLink } from './redis-link.js';

/** What a replica needs to serve a session it did not open. Opaque JSON to this store. */
export interface McpSessionFacts {
  /** The initialize request's params: protocolVersion, capabilities, clientInfo. */
  readonly initialize: Record<string, unknown>;
  /** The level the client chose with logging/setLevel; none before it asks. */
  readonly logLevel?: string;
}

/** touch()'s answer when Redis could not be asked: the caller knows only the sessions it holds. */
export const SESSION_STORE_UNREACHABLE = 'unreachable';

export interface McpSessionStore {
  /** Records a session for `ttlMs`; `onlyIfPresent` never brings back one deleted meanwhile. False: not stored. */
  save(id: string, facts: McpSessionFacts, ttlMs: number, onlyIfPresent?: boolean): Promise<boolean>;
  /** The session's facts, its time to live restarted; null when no replica has it (ended, expired, never). */
  touch(id: string, ttlMs: number): Promise<McpSessionFacts | null | typeof SESSION_STORE_UNREACHABLE>;
  /** Restarts the time to live of sessions running a call here (a long call is not idleness). */
  keepAlive(ids: readonly string[], ttlMs: number): Promise<void>;
  /** Forgets a session for every replica. */
  remove(id: string): Promise<void>;
}

function isFacts(value: unknown): value is McpSessionFacts {
  if (typeof value !== 'object' || value === null) return false;
  const facts = value as Record<string, unknown>;
  return (
    typeof facts.initialize === 'object' &&
    facts.initialize !== null &&
    (facts.logLevel === undefined || typeof facts.logLevel === 'string')
  );
}

export function createRedisMcpSessionStore(link: RedisLink): McpSessionStore {
  const sessionKey = (id: string) => `mcp-session:${id}`;
  const ttl = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs));
  return {
    async save(id, facts, ttlMs, onlyIfPresent = false) {
      const value = JSON.stringify(facts);
      const answer = await link.attempt(
        (redis) =>
          onlyIfPresent
            ? redis.set(sessionKey(id), value, 'PX', ttl(ttlMs), 'XX')
            : redis.set(sessionKey(id), value, 'PX', ttl(ttlMs)),
        null,
      );
      return answer === 'OK';
    },
    async touch(id, ttlMs) {
      const value = await link.attempt<string | null | typeof SESSION_STORE_UNREACHABLE>(
        (redis) => redis.getex(sessionKey(id), 'PX', ttl(ttlMs)),
        SESSION_STORE_UNREACHABLE,
      );
      if (value === null || value === SESSION_STORE_UNREACHABLE) return value;
      try {
        const facts: unknown = JSON.parse(value);
        return isFacts(facts) ? facts : null;
      } catch {
        return null; // not ours: no session, as if it had expired
      }
    },
    async keepAlive(ids, ttlMs) {
      if (ids.length === 0) return;
      await link.attempt(async (redis) => {
        const batch = redis.pipeline();
        for (const id of ids) batch.pexpire(sessionKey(id), ttl(ttlMs));
        await batch.exec();
      }, undefined);
    },
    async remove(id) {
      await link.attempt((redis) => redis.del(sessionKey(id)), 0);
    },
  };
}

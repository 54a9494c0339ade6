// What replicas share, chosen once from REDIS_URL (docs/scale-out.md). Without it, this process's in-memory state,
// as ever: the page cache, and nothing else to share (the queue spaces its own requests, in-flight fetches are
// shared within the process, the robots.txt gate keeps its own answers). With it, Redis behind the same interfaces,
// each falling back to the in-memory behaviour while Redis is unreachable (redis-link.ts).
//
// MCP sessions and cancellation are shared through mcpSessions (redis-mcp-sessions.ts, redis-cancel-bus.ts) for the
// HTTP transport, and crawl states for continue_from through resumeStore (redis-resume-store.ts).
import type { Config } from '../config.js';
import type { FetchClaims } from '../fetch/fetch-claims.js';
import { createMemoryResumeStore, type ResumeStore } from '../crawl/resume-store.js';
import { createPageCache, type PageCache } from '../fetch/page-cache.js';
import type { HostTurns } from '../fetch/queue.js';
import type { RobotsStore } from '../fetch/robots-gate.js';
import { createRedisCancelBus, type CancelBus } from './redis-cancel-bus.js';
import { createRedisFetchClaims } from './redis-fetch-claims.js';
import { createRedisHostTurns } from './redis-host-turns.js';
import { createRedisLink } from './redis-link.js';
import { createRedisMcpSessionStore, type McpSessionStore } from './redis-mcp-sessions.js';
import { createRedisPageCache } from './redis-page-cache.js';
import { createRedisResumeStore } from './redis-resume-store.js';
import { createRedisRobotsStore } from './redis-robots-store.js';

/** /healthz's `redis`: reachable, unreachable, or not configured. */
export type SharedStateHealth = 'up' | 'down' | 'off';

/** MCP sessions any replica can serve, and the bus that carries their cancellations (transports/http). */
export interface McpSessionSharing {
  readonly sessions: McpSessionStore;
  readonly cancelBus: CancelBus;
}

export interface SharedState {
  readonly pageCache: PageCache;
  /** Each absent without REDIS_URL: the process alone decides. */
  readonly turns?: HostTurns;
  readonly claims?: FetchClaims;
  readonly robotsStore?: RobotsStore;
  readonly mcpSessions?: McpSessionSharing;
  /** Crawl states for continue_from, checkpointed while crawls run; absent: each front door keeps its own. */
  readonly resumeStore?: ResumeStore;
  health(): Promise<SharedStateHealth>;
  close(): Promise<void>;
}

export interface SharedStateOptions {
  /** The in-memory page cache's byte budget (load-page.ts CACHE_MAX_BYTES). */
  readonly localCacheMaxBytes: number;
}

export function createSharedState(config: Config, options: SharedStateOptions): SharedState {
  const local = createPageCache({ ttlSeconds: config.cacheTtlSeconds, maxBytes: options.localCacheMaxBytes });
  if (!config.redisUrl) {
    return { pageCache: local, health: async () => 'off', close: async () => {} };
  }
  const link = createRedisLink(config.redisUrl);
  const { pages, sharedPages } = createRedisPageCache(link, {
    ttlSeconds: config.cacheTtlSeconds,
    maxBytes: config.redisCacheMaxBytes,
    local,
  });
  return {
    pageCache: pages,
    turns: createRedisHostTurns(link),
    claims: createRedisFetchClaims(link, sharedPages),
    robotsStore: createRedisRobotsStore(link),
    mcpSessions: { sessions: createRedisMcpSessionStore(link), cancelBus: createRedisCancelBus(link) },
    resumeStore: createRedisResumeStore(link, {
      ttlSeconds: config.crawlResumeTtlSeconds,
      local: createMemoryResumeStore({ ttlSeconds: config.crawlResumeTtlSeconds }),
    }),
    health: async () => ((await link.isReachable()) ? 'up' : 'down'),
    close: () => link.close(),
  };
}

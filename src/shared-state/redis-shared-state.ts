// The state replicas share through Redis (REDIS_URL, docs/scale-out.md): one connection (redis-link.ts) behind every
// interface of shared-state.ts, each with this process's memory as its fall-back while Redis is unreachable. Loaded
// by createSharedState only with REDIS_URL, so that ioredis is not imported by a server that does not use it.
import type { Config } from '../config.js';
import { createMemoryResumeStore } from '../crawl/resume-store.js';
import type { MemoryPageCache } from '../fetch/page-cache.js';
import { createRedisCancelBus } from './redis-cancel-bus.js';
import { createRedisFetchClaims } from './redis-fetch-claims.js';
import { createRedisHostTurns } from './redis-host-turns.js';
import { createRedisLink } from './redis-link.js';
import { createRedisMcpSessionStore } from './redis-mcp-sessions.js';
import { createRedisPageCache } from './redis-page-cache.js';
import { createRedisResumeStore } from './redis-resume-store.js';
import { createRedisRobotsStore } from './redis-robots-store.js';
import { createRedisSnapshotStore } from './redis-snapshot-store.js';
import { createRedisTaskStore } from './redis-task-store.js';
import { createMemorySnapshotStore } from './snapshot-store.js';
import type { SharedState } from './shared-state.js';

export function createRedisSharedState(config: Config, redisUrl: string, local: MemoryPageCache): SharedState {
  const link = createRedisLink(redisUrl);
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
    taskStore: createRedisTaskStore(link),
    snapshots: createRedisSnapshotStore(link, {
      ttlSeconds: config.snapshotTtlSeconds,
      local: createMemorySnapshotStore({ ttlSeconds: config.snapshotTtlSeconds }),
    }),
    health: async () => ((await link.isReachable()) ? 'up' : 'down'),
    close: () => link.close(),
  };
}

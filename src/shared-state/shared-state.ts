// What replicas share, chosen once from REDIS_URL (docs/scale-out.md) by a composition root (src/cli/main.ts,
// src/index.ts), which hands each part to its user: the page cache, host turns, fetch claims and robots.txt answers
// to the engine; the MCP sessions, cancellation bus and health to the HTTP transport; the resume store to the crawl
// run; the task store to the 2026-07-28 MCP server. Without REDIS_URL, this process's in-memory state, as ever: the page cache and the resume store, and nothing
// else to share (the queue spaces its own requests, in-flight fetches are shared within the process, the robots.txt
// gate keeps its own answers). With it, Redis behind the same interfaces, each falling back to the in-memory
// behaviour while Redis is unreachable (redis-link.ts).
//
// Start-up: the in-memory state is built here, at once and cheaply; the Redis one (redis-shared-state.ts, and
// ioredis with it) is imported only with REDIS_URL, so an MCP client launching the server waits for neither.
import type { Config } from '../config.js';
import type { FetchClaims } from '../fetch/fetch-claims.js';
import { createMemoryResumeStore, type ResumeStore } from '../crawl/resume-store.js';
import { createPageCache, DEFAULT_CACHE_MAX_BYTES, type PageCache } from '../fetch/page-cache.js';
import type { HostTurns } from '../fetch/queue.js';
import type { RobotsStore } from '../fetch/robots-gate.js';
import type { CancelBus } from './redis-cancel-bus.js';
import type { McpSessionStore } from './redis-mcp-sessions.js';
import { createMemorySnapshotStore, type SnapshotStore } from './snapshot-store.js';
import { createMemoryTaskStore, type TaskStore } from './task-store.js';

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
  /**
   * Crawl states for continue_from: this process's memory, or (REDIS_URL) the store replicas share, where crawls are
   * checkpointed while they run. Every front door of one process continues the others' crawls.
   */
  readonly resumeStore: ResumeStore;
  /** 2026-07-28 tasks (the crawl run as one): this process's memory, or (REDIS_URL) read by every replica. */
  readonly taskStore: TaskStore;
  /** fetch `since` snapshots (issue 28 item 4): this process's memory, or (REDIS_URL) read by every replica. */
  readonly snapshots: SnapshotStore;
  health(): Promise<SharedStateHealth>;
  close(): Promise<void>;
}

export interface SharedStateOptions {
  /** The in-memory page cache's byte budget; DEFAULT_CACHE_MAX_BYTES when not given. */
  readonly localCacheMaxBytes?: number;
}

/** This process's own state: what one process without REDIS_URL shares between its front doors. */
export function createMemorySharedState(config: Config, options: SharedStateOptions = {}): SharedState {
  return {
    pageCache: localPageCache(config, options),
    resumeStore: createMemoryResumeStore({ ttlSeconds: config.crawlResumeTtlSeconds }),
    taskStore: createMemoryTaskStore(),
    snapshots: createMemorySnapshotStore({ ttlSeconds: config.snapshotTtlSeconds }),
    health: async () => 'off',
    close: async () => {},
  };
}

/** The state of this process: in memory, or on Redis with REDIS_URL (its module loaded only then). */
export async function createSharedState(config: Config, options: SharedStateOptions = {}): Promise<SharedState> {
  if (!config.redisUrl) return createMemorySharedState(config, options);
  const { createRedisSharedState } = await import('./redis-shared-state.js');
  return createRedisSharedState(config, config.redisUrl, localPageCache(config, options));
}

function localPageCache(config: Config, options: SharedStateOptions) {
  return createPageCache({
    ttlSeconds: config.cacheTtlSeconds,
    maxBytes: options.localCacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
  });
}

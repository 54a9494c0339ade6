// What the modules count for /metrics (docs/scale-out.md "Metrics"), in one home every front door passes: a tool
// call (tools/run-tool.ts), a page-cache lookup (fetch/page-cache.ts, shared-state/redis-page-cache.ts), a queue
// wait (fetch/queue.ts), an upstream fetch (engine/load-page.ts).
//
// The bottom layer, so it imports nothing: the modules call these functions, and whoever exposes the figures
// installs a recorder. Only `serve --http` does (transports/http/metrics.ts, with prom-client); the stdio server,
// the CLI and the library install none, so each call below is one comparison with undefined, and prom-client
// (~0.1 s to load) stays out of their start-up.
//
// Per process: a replica's figures are its own, and Prometheus scrapes each replica.

/** Which front door a tool call came through: MCP (stdio or Streamable HTTP) or the JSON tools API. */
export type FrontDoor = 'mcp' | 'api';

/** The in-memory page cache of this process, or the one shared with other replicas on Redis (REDIS_URL). */
export type CacheTier = 'memory' | 'shared';

export interface MetricsRecorder {
  /** A tool call ended; `errorCode` when it failed (the result's `error.code`). */
  toolCall(tool: string, door: FrontDoor, errorCode: string | undefined): void;
  cacheLookup(tier: CacheTier, isHit: boolean): void;
  /** Seconds a request waited in the per-host queue before it started. */
  queueWait(seconds: number): void;
  /** Seconds from a request's start to its body read (or its failure). */
  upstreamLatency(seconds: number): void;
}

let recorder: MetricsRecorder | undefined;

/** Installs the recorder every count goes to (none: counts are dropped). One per process. */
export function recordMetricsWith(next: MetricsRecorder | undefined): void {
  recorder = next;
}

export function countToolCall(tool: string, door: FrontDoor | undefined, errorCode: string | undefined): void {
  // No door: a caller that is neither front door (the CLI, the library), which installs no recorder anyway.
  if (door) recorder?.toolCall(tool, door, errorCode);
}

export function countCacheLookup(tier: CacheTier, isHit: boolean): void {
  recorder?.cacheLookup(tier, isHit);
}

export function observeQueueWait(ms: number): void {
  recorder?.queueWait(ms / 1000);
}

export function observeUpstreamLatency(ms: number): void {
  recorder?.upstreamLatency(ms / 1000);
}

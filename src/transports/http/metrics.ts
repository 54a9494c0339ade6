// GET /metrics: this replica's figures in the Prometheus text format (exposition format 0.0.4), with prom-client.
// Prometheus scrapes every replica on its own; nothing here is summed across replicas (docs/scale-out.md
// "Metrics"). The modules count through src/metrics.ts; this file installs the recorder behind it, once per
// process, so that two servers in one process (tests) share one set of figures, as they share one engine's state.
//
// Cheap on the hot path: a count is a labelled increment or one histogram observation, no label values built from
// a caller's input (tool names are the registry's, error codes the stable list, routes a fixed set), so the series
// stay few. The work happens at scrape time.
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { recordMetricsWith, type MetricsRecorder } from '../../metrics.js';

/** What the server asks of the metrics: count an HTTP answer, and the text of GET /metrics. */
export interface HttpMetrics {
  /** An HTTP answer, by route (one of ROUTES, else `other`) and status. */
  countResponse(route: string, status: number): void;
  readonly contentType: string;
  render(): Promise<string>;
}

/** The routes counted by name; any other path is `other`, so a scanner's paths cannot grow the series. */
const ROUTES = new Set(['/mcp', '/tools', '/tools/{name}', '/healthz', '/metrics']);

// Seconds. A queue wait is 0 for most requests, up to QUEUE_TIMEOUT (30 s by default); PER_DOMAIN_INTERVAL (2 s by
// default) puts many at 1–2 s. Upstream requests run from milliseconds (loopback, a CDN) to FETCH_TIMEOUT.
const QUEUE_WAIT_BUCKETS = [0.005, 0.05, 0.25, 0.5, 1, 2, 4, 8, 15, 30];
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

let processMetrics: HttpMetrics | undefined;

/** This process's metrics, created (and the recorder installed) on first use. */
export function httpMetrics(): HttpMetrics {
  processMetrics ??= createHttpMetrics();
  return processMetrics;
}

function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  // process_cpu_seconds_total, process_resident_memory_bytes, nodejs_eventloop_lag_seconds, nodejs_heap_*, …
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const calls = new Counter({
    name: 'web_reader_tool_calls_total',
    help: 'Tool calls, by tool and front door (mcp: MCP over Streamable HTTP; api: POST /tools/{name}).',
    labelNames: ['tool', 'door'],
    registers,
  });
  const errors = new Counter({
    name: 'web_reader_tool_errors_total',
    help: 'Tool calls that failed, by tool, front door and error code (the result error.code).',
    labelNames: ['tool', 'door', 'code'],
    registers,
  });
  const cacheLookups = new Counter({
    name: 'web_reader_cache_lookups_total',
    help: 'Page-cache lookups by tier (memory: this replica; shared: Redis, asked after a memory miss) and result.',
    labelNames: ['tier', 'result'],
    registers,
  });
  const queueWait = new Histogram({
    name: 'web_reader_queue_wait_seconds',
    help: 'Time a request waited in the per-host queue (PER_DOMAIN_INTERVAL, MAX_CONCURRENT) before it started.',
    buckets: QUEUE_WAIT_BUCKETS,
    registers,
  });
  const upstream = new Histogram({
    name: 'web_reader_upstream_duration_seconds',
    help: 'Upstream request time, from its start to its body read or its failure (redirects included).',
    buckets: UPSTREAM_BUCKETS,
    registers,
  });
  const responses = new Counter({
    name: 'web_reader_http_responses_total',
    help: 'HTTP answers of this server, by route and status.',
    labelNames: ['route', 'status'],
    registers,
  });
  // Every series a dashboard divides by exists from the start at 0, so a ratio is 0/0 → no data, never a gap
  // that looks like an outage; per-tool series appear with their first call.
  for (const tier of ['memory', 'shared']) {
    for (const result of ['hit', 'miss']) cacheLookups.inc({ tier, result }, 0);
  }

  const recorder: MetricsRecorder = {
    toolCall(tool, door, errorCode) {
      calls.inc({ tool, door });
      if (errorCode !== undefined) errors.inc({ tool, door, code: errorCode });
    },
    cacheLookup(tier, isHit) {
      cacheLookups.inc({ tier, result: isHit ? 'hit' : 'miss' });
    },
    queueWait: (seconds) => queueWait.observe(seconds),
    upstreamLatency: (seconds) => upstream.observe(seconds),
  };
  recordMetricsWith(recorder);

  return {
    countResponse(route, status) {
      responses.inc({ route: ROUTES.has(route) ? route : 'other', status: String(status) });
    },
    contentType: registry.contentType,
    render: () => registry.metrics(),
  };
}

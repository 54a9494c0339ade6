// The HTTP server in-process for tests: a Config built from the test's own environment, the real engine, and
// startHttpServer on 127.0.0.1, any free port. Also a tiny test-only tool with progress and cancellation (crawl,
// the real tool with progress, is not in every build yet).
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../src/config.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { ALL_TOOLS, type AnyTool } from '../../src/tools/registry.js';
import { READ_ONLY_WEB, type ToolDefinition } from '../../src/tools/types.js';
import { startHttpServer, type HttpServerHandle, type HttpServerOptions } from '../../src/transports/http/server.js';
import { standIn } from '../use-fixture-server.js';

export interface TestHttpServer {
  readonly url: string;
  readonly mcpUrl: URL;
  readonly handle: HttpServerHandle;
  readonly engine: Engine;
  close(): Promise<void>;
}

export async function startTestHttpServer(
  env: Record<string, string>,
  tools: readonly AnyTool[] = ALL_TOOLS,
  options: HttpServerOptions = {},
): Promise<TestHttpServer> {
  const config = resolveConfig({ PER_DOMAIN_INTERVAL: '0', FETCH_TIMEOUT: '5000', WEB_READER_PORT: '0', ...env });
  const engine = createEngine(config);
  const handle = await startHttpServer(config, engine, tools, options);
  return {
    url: handle.url,
    mcpUrl: new URL(`${handle.url}/mcp`),
    handle,
    engine,
    async close() {
      await handle.close();
      await engine.close();
    },
  };
}

/**
 * The HTTP server for one test file: started in beforeAll (after the fixture server, whose address `env` may read),
 * closed in afterAll (before it).
 */
export function useTestHttpServer(
  env: () => Record<string, string>,
  tools: readonly AnyTool[] = ALL_TOOLS,
  options: HttpServerOptions = {},
): TestHttpServer {
  let http: TestHttpServer | undefined;
  beforeAll(async () => {
    http = await startTestHttpServer(env(), tools, options);
  });
  afterAll(() => http?.close());
  return standIn('HTTP server', () => http);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** What the test tools saw, so a test can assert the server side of a cancellation. */
export const toolEvents = {
  aborted: 0,
  started: 0,
  /** Resolves the next time a wait_for_cancel call starts. */
  nextStart: deferred(),
};

const countdownShape = { steps: z.number().int().min(1).max(20).default(3) };

/** Reports progress `steps` times, then answers. */
export const countdownTool: ToolDefinition<typeof countdownShape> = {
  name: 'countdown',
  title: 'Countdown (test)',
  description: 'Test tool: reports progress, then finishes.',
  tags: ['test'],
  inputShape: countdownShape,
  annotations: READ_ONLY_WEB,
  async run(args, { onProgress }) {
    for (let step = 1; step <= args.steps; step += 1) {
      onProgress?.({ progress: step, total: args.steps, message: `step ${step}` });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { text: `counted ${args.steps}`, structured: { status: 'ok', steps: args.steps } };
  },
};

const waitShape = { max_ms: z.number().int().min(1).default(10_000) };

/** Runs until cancelled (or max_ms), and says which. */
export const waitForCancelTool: ToolDefinition<typeof waitShape> = {
  name: 'wait_for_cancel',
  title: 'Wait for cancel (test)',
  description: 'Test tool: waits until the call is cancelled.',
  tags: ['test'],
  inputShape: waitShape,
  annotations: READ_ONLY_WEB,
  async run(args, { signal }) {
    toolEvents.started += 1;
    toolEvents.nextStart.resolve();
    toolEvents.nextStart = deferred();
    const cancelled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), args.max_ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (cancelled) toolEvents.aborted += 1;
    return { text: cancelled ? 'cancelled' : 'finished', structured: { status: 'ok', cancelled } };
  },
};

/** Resolves the next time a wait_for_stop call starts. */
export const stopEvents = { started: 0, nextStart: deferred() };

/** Runs until the server's graceful stop (stopSignal), a cancellation (signal) or max_ms, and says which. */
export const waitForStopTool: ToolDefinition<typeof waitShape> = {
  name: 'wait_for_stop',
  title: 'Wait for stop (test)',
  description: 'Test tool: waits until the server stops gracefully or the call is cancelled.',
  tags: ['test'],
  inputShape: waitShape,
  annotations: READ_ONLY_WEB,
  async run(args, { signal, stopSignal }) {
    stopEvents.started += 1;
    stopEvents.nextStart.resolve();
    stopEvents.nextStart = deferred();
    const how = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('finished'), args.max_ms);
      const on = (which: string) => () => {
        clearTimeout(timer);
        resolve(which);
      };
      if (stopSignal?.aborted) on('stopped')();
      stopSignal?.addEventListener('abort', on('stopped'));
      signal?.addEventListener('abort', on('cancelled'));
    });
    return { text: how, structured: { status: 'ok', how } };
  },
};

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The headers of a POST inside an open MCP session. */
export function sessionHeaders(sessionId: string): Record<string, string> {
  return { ...MCP_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
}

/**
 * POSTs a `tools/call` request into an open session with plain fetch, for what the SDK's Client will not do (an
 * arbitrary tool name, a hang-up mid-call); returns the response unread.
 */
export function postToolCall(
  mcpUrl: URL,
  sessionId: string,
  call: { readonly id: number; readonly name: string; readonly arguments: unknown },
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: sessionHeaders(sessionId),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: call.id,
      method: 'tools/call',
      params: { name: call.name, arguments: call.arguments },
    }),
    signal,
  });
}

/** Opens an MCP session with plain fetch (initialize, then notifications/initialized); returns its id. */
export async function openRawSession(mcpUrl: URL): Promise<string> {
  const init = await fetch(mcpUrl, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status} ${await init.text()}`);
  await init.text();
  const sessionId = init.headers.get('mcp-session-id')!;
  const initialized = await fetch(mcpUrl, {
    method: 'POST',
    headers: sessionHeaders(sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return sessionId;
}

/** The body the JSON tools API answers with (src/transports/http/tools-api.ts): `result` is null when the call failed. */
export interface ApiResult {
  success: boolean;
  result:
    | ({
        status: string;
        text?: string;
        error?: { code: string; message: string; retry_after_seconds?: number };
      } & Record<string, unknown>)
    | null;
  error: string | null;
  execution_time_ms: number;
}

/** POSTs `args` to the JSON tools API's `/tools/{name}` and returns the parsed body. */
export async function callApi<T = ApiResult>(
  baseUrl: string,
  name: string,
  args: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const response = await fetch(`${baseUrl}/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
    signal,
  });
  return (await response.json()) as T;
}

/** How the server's event loop fared while a call ran, from /healthz polled meanwhile. */
export interface HealthzWatch {
  /** /healthz answers received. */
  readonly answers: number;
  /** The longest wall-clock time between two answers: a blocked loop, or a machine too busy to run this process. */
  readonly longestGapMs: number;
  /**
   * The most CPU time the server's main thread spent between two answers (Linux, from /proc; the wall-clock gap
   * elsewhere): work on the event loop. Load from other processes stretches the wall-clock gap, not this.
   */
  readonly longestLoopCpuMs: number;
}

/**
 * CPU time of process `pid`'s main thread in ms (utime + stime), or undefined where /proc does not say. A process's
 * main thread is the task whose id is the process id.
 */
function mainThreadCpuMs(pid: number): number | undefined {
  if (pid === process.pid && !isMainThread) return undefined; // this thread is not the one /proc would report
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Polls `/healthz` every 20 ms until `done` settles; says how many answers came and the longest stretch between two,
 * in wall-clock time and in the server's main-thread CPU time. A blocked event loop shows in both wherever it falls,
 * inside a poll or between two; a busy machine shows only in the wall-clock time. `serverPid` is the server's
 * process: this one when the server runs in-process (useTestHttpServer), a child's for `serve --http`.
 */
export async function watchHealthz(
  baseUrl: string,
  done: Promise<unknown>,
  serverPid: number = process.pid,
): Promise<HealthzWatch> {
  let finished = false;
  void done.finally(() => (finished = true));
  let answers = 0;
  let longestGapMs = 0;
  let longestLoopCpuMs = 0;
  let last = performance.now();
  let lastCpu = mainThreadCpuMs(serverPid);
  while (!finished) {
    const response = await fetch(`${baseUrl}/healthz`);
    if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
    await response.text();
    answers += 1;
    const now = performance.now();
    const cpu = mainThreadCpuMs(serverPid);
    longestGapMs = Math.max(longestGapMs, now - last);
    longestLoopCpuMs = Math.max(
      longestLoopCpuMs,
      cpu !== undefined && lastCpu !== undefined ? cpu - lastCpu : now - last,
    );
    last = now;
    lastCpu = cpu;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { answers, longestGapMs, longestLoopCpuMs };
}

/** The longest wall-clock time between two /healthz answers while `done` runs (see watchHealthz, which is load-safe). */
export async function longestHealthzGap(baseUrl: string, done: Promise<unknown>): Promise<number> {
  return (await watchHealthz(baseUrl, done)).longestGapMs;
}

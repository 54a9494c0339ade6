// MCP over stdio: what Claude Desktop, Claude Code and Cursor launch. stdout is the protocol channel; all logs go
// to stderr. Both protocol eras, by the connection's first message (stdio-eras.ts): 2025 clients (initialize) get the
// session they always had (server.ts, SDK v1); 2026-07-28 clients (server/discover, or a pinned request) get
// server-modern.ts (SDK v2 line). Each era loads only its own SDK, after the first message.
//
// Ending: the client closing stdin ends the session at once (nobody is left to read a result). SIGTERM or SIGINT
// is a graceful stop: running calls get `stopSignal` and DEFAULT_SHUTDOWN_GRACE_MS to answer (a crawl answers at
// once with the pages it has, marked stopped), then what still runs is cancelled and the process exits.
import type { Readable } from 'node:stream';
import type { Engine } from '../engine/engine.js';
import { errorMessage } from '../errors.js';
import { log, setLogLevel } from '../log.js';
import type { McpServerOptions } from '../server-calls.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { AnyTool } from '../tools/registry.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, GracefulStop } from './graceful-stop.js';
import { readOpening } from './stdio-eras.js';
import { warmOnInitialized } from './warm-up.js';

export interface StdioOptions {
  /** How long SIGTERM/SIGINT lets running calls finish before cancelling them. */
  readonly shutdownGraceMs?: number;
  /** The composition root's shared state: its resume store keeps stopped crawls. Absent: one per engine. */
  readonly sharedState?: SharedState;
}

/** The server a connection got, whichever era: closed to end the connection; `closed` when it has ended. */
interface Connection {
  close(): Promise<void>;
  readonly closed: Promise<void>;
}

export async function serveStdio(engine: Engine, tools: readonly AnyTool[], options: StdioOptions = {}): Promise<void> {
  setLogLevel('info'); // a server's stderr is its operator's log (src/log.ts)
  const graceful = new GracefulStop();
  const serverOptions = {
    stopSignal: graceful.stopSignal,
    calls: graceful,
    resumeStore: options.sharedState?.resumeStore,
  };
  let connection: Connection | undefined;
  let stopped!: () => void;
  const stopping = new Promise<undefined>((resolve) => (stopped = () => resolve(undefined)));
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    log('info', `${signal}: stopping; ${graceful.running} call(s) running`);
    void graceful.stop(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS).then(async (left) => {
      if (left > 0) log('warn', `Shutdown grace period passed; cancelling ${left} call(s).`);
      // The SDK writes a result after its handler returns: let that write happen before the channel closes.
      await new Promise((resolve) => setImmediate(resolve));
      stopped();
      await connection?.close();
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  log('info', `MCP server on stdio with tools: ${tools.map((tool) => tool.name).join(', ')}`);
  try {
    const opening = await Promise.race([readOpening(process.stdin), stopping]);
    if (opening) {
      connection = opening.modern
        ? await serveModern(engine, tools, serverOptions, opening.input, options.sharedState)
        : await serveLegacy(engine, tools, serverOptions, opening.input);
      process.stdin.on('end', () => void connection?.close());
      await connection.closed;
    }
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  process.stdin.unpipe();
  process.stdin.pause();
  await engine.close();
}

/** A 2025 connection: initialize, then the session, on the SDK v1 server (server.ts). */
async function serveLegacy(
  engine: Engine,
  tools: readonly AnyTool[],
  serverOptions: McpServerOptions,
  input: Readable,
): Promise<Connection> {
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../server.js'),
  ]);
  const server = createMcpServer(engine, tools, serverOptions);
  warmOnInitialized(server, engine);
  const closed = new Promise<void>((resolve) => (server.onclose = () => resolve()));
  await server.connect(new StdioServerTransport(input, process.stdout));
  return { close: () => server.close(), closed };
}

/**
 * A 2026-07-28 connection on the SDK v2 line (server-modern.ts). serveStdio answers `server/discover` and every
 * request after it from one server instance; should the client fall back to initialize after its probe, the same
 * factory serves it in the 2025 era (without 2025 tasks).
 */
async function serveModern(
  engine: Engine,
  tools: readonly AnyTool[],
  serverOptions: McpServerOptions,
  input: Readable,
  sharedState: SharedState | undefined,
): Promise<Connection> {
  const [
    { serveStdio: serveV2Stdio, StdioServerTransport },
    { createModernMcpServer },
    { createModernTasks },
    { createMemoryTaskStore },
  ] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('../server-modern.js'),
    import('../server-modern-tasks.js'),
    import('../shared-state/task-store.js'),
  ]);
  const caller = {}; // this connection's one client is one caller of the extraction workers
  // This connection's tasks: on the composition root's task store, waited for by a graceful stop as calls are.
  const tasks = createModernTasks(sharedState?.taskStore ?? createMemoryTaskStore(), { calls: serverOptions.calls });
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  input.once('end', () => ended());
  // No initialize to wait for: the engine warms (warm-up.ts) once the first answer (the discover probe's) is written.
  const transport = new StdioServerTransport(input, process.stdout);
  const send = transport.send.bind(transport);
  let warming = false;
  transport.send = async (message) => {
    await send(message);
    if (warming) return;
    warming = true;
    setImmediate(
      () => void engine.warm().catch((error: unknown) => log('warn', `Warming up failed: ${errorMessage(error)}`)),
    );
  };
  const handle = serveV2Stdio(() => createModernMcpServer(engine, tools, { ...serverOptions, caller, tasks }), {
    transport,
    onerror: (error) => log('warn', `MCP (2026-07-28) on stdio: ${error.message}`),
  });
  return {
    close: async () => {
      tasks.abortAll();
      await handle.close();
      ended();
    },
    closed,
  };
}

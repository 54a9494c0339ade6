// MCP over stdio: what Claude Desktop, Claude Code and Cursor launch. stdout is the protocol channel; all logs go
// to stderr. Both protocol eras, by the connection's first message (stdio-eras.ts): 2025 clients (initialize) get the
// session they always had; 2026-07-28 clients (server/discover, or a pinned request) get server-modern.ts.
//
// Ending: the client closing stdin ends the session at once (nobody is left to read a result). SIGTERM or SIGINT
// is a graceful stop: running calls get `stopSignal` and DEFAULT_SHUTDOWN_GRACE_MS to answer (a crawl answers at
// once with the pages it has, marked stopped), then what still runs is cancelled and the process exits.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine/engine.js';
import { log, setLogLevel } from '../log.js';
import { createMcpServer, type McpServerOptions } from '../server.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { AnyTool } from '../tools/registry.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, GracefulStop } from './graceful-stop.js';
import { claimsModernEra, HeldTransport } from './stdio-eras.js';

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
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    stopping = true;
    log('info', `${signal}: stopping; ${graceful.running} call(s) running`);
    void graceful.stop(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS).then(async (left) => {
      if (left > 0) log('warn', `Shutdown grace period passed; cancelling ${left} call(s).`);
      // The SDK writes a result after its handler returns: let that write happen before the channel closes.
      await new Promise((resolve) => setImmediate(resolve));
      await (connection ?? pipe).close();
      ended();
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // The era is the first message's (stdio-eras.ts): the pipe is read from the start, and held until then.
  const pipe = new StdioServerTransport();
  const held = new HeldTransport(pipe);
  let ended!: () => void;
  const stdinEnded = new Promise<undefined>((resolve) => {
    ended = () => resolve(undefined);
    process.stdin.on('end', ended);
  });
  await pipe.start();
  log('info', `MCP server on stdio with tools: ${tools.map((tool) => tool.name).join(', ')}`);
  try {
    const first = await Promise.race([held.first, stdinEnded]);
    if (first !== undefined && !stopping) {
      connection = claimsModernEra(first)
        ? await serveModern(engine, tools, serverOptions, held)
        : await serveLegacy(engine, tools, serverOptions, held);
      process.stdin.on('end', () => void connection?.close());
      await connection.closed;
    }
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  await pipe.close();
  await engine.close();
}

/** A 2025 connection: initialize, then the session, on the SDK v1 server (server.ts). */
async function serveLegacy(
  engine: Engine,
  tools: readonly AnyTool[],
  serverOptions: McpServerOptions,
  transport: HeldTransport,
): Promise<Connection> {
  const server = createMcpServer(engine, tools, serverOptions);
  const closed = new Promise<void>((resolve) => (server.onclose = () => resolve()));
  await server.connect(transport);
  return { close: () => server.close(), closed };
}

/**
 * A 2026-07-28 connection on the SDK v2 line (server-modern.ts, loaded only now: a 2025 client never waits for it).
 * serveStdio answers `server/discover` and every request after it from one server instance; should the client fall
 * back to initialize after its probe, the same factory serves it in the 2025 era (without 2025 tasks).
 */
async function serveModern(
  engine: Engine,
  tools: readonly AnyTool[],
  serverOptions: McpServerOptions,
  transport: HeldTransport,
): Promise<Connection> {
  const [{ serveStdio: serveV2Stdio }, { createModernMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('../server-modern.js'),
  ]);
  const caller = {}; // this connection's one client is one caller of the extraction workers
  const handle = serveV2Stdio(() => createModernMcpServer(engine, tools, { ...serverOptions, caller }), {
    transport: transport as never,
    onerror: (error) => log('warn', `MCP (2026-07-28) on stdio: ${error.message}`),
  });
  return { close: () => handle.close(), closed: transport.closed };
}

// MCP over stdio: what Claude Desktop, Claude Code and Cursor launch. stdout is the protocol channel; all logs go
// to stderr.
//
// Ending: the client closing stdin ends the session at once (nobody is left to read a result). SIGTERM or SIGINT
// is a graceful stop: running calls get `stopSignal` and DEFAULT_SHUTDOWN_GRACE_MS to answer (a crawl answers at
// once with the pages it has, marked stopped), then what still runs is cancelled and the process exits.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine/engine.js';
import { log, setLogLevel } from '../log.js';
import { createMcpServer } from '../server.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { AnyTool } from '../tools/registry.js';
import { DEFAULT_SHUTDOWN_GRACE_MS, GracefulStop } from './graceful-stop.js';
import { warmOnInitialized } from './warm-up.js';

export interface StdioOptions {
  /** How long SIGTERM/SIGINT lets running calls finish before cancelling them. */
  readonly shutdownGraceMs?: number;
  /** The composition root's shared state: its resume store keeps stopped crawls. Absent: one per engine. */
  readonly sharedState?: SharedState;
}

export async function serveStdio(engine: Engine, tools: readonly AnyTool[], options: StdioOptions = {}): Promise<void> {
  setLogLevel('info'); // a server's stderr is its operator's log (src/log.ts)
  const graceful = new GracefulStop();
  const server = createMcpServer(engine, tools, {
    stopSignal: graceful.stopSignal,
    calls: graceful,
    resumeStore: options.sharedState?.resumeStore,
  });
  warmOnInitialized(server, engine);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    log('info', `${signal}: stopping; ${graceful.running} call(s) running`);
    void graceful.stop(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS).then(async (left) => {
      if (left > 0) log('warn', `Shutdown grace period passed; cancelling ${left} call(s).`);
      // The SDK writes a result after its handler returns: let that write happen before the channel closes.
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await server.connect(new StdioServerTransport());
  log('info', `MCP server on stdio with tools: ${tools.map((tool) => tool.name).join(', ')}`);
  process.stdin.on('end', () => void server.close());
  try {
    await closed;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  await engine.close();
}

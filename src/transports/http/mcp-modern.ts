// /mcp for both protocol eras (MCP 2026-07-28, "Versioning" and Streamable HTTP). A POST whose message claims a
// protocol version in its `_meta` is a 2026-07-28 request: no session, one server instance for the one request
// (server-modern.ts), its progress and result on its own response, so any replica answers it and a call runs where
// its POST lands. Everything else — initialize, a request naming an Mcp-Session-Id, GET and DELETE — is 2025
// traffic and goes to the sessions it has always had (mcp-sessions.ts: the session cap, idle expiry, and with
// REDIS_URL the session store and cancellation bus). The era decision is the SDK's own (`isLegacyRequest`).
//
// Cancelling a 2026-07-28 call: the client ends its request (closes the response stream), which aborts the call's
// signal; being the request's own, it reaches the replica running the call with no bus.
//
// Standard headers (2026-07-28, Streamable HTTP): MCP-Protocol-Version and Mcp-Method are required and, with Mcp-Name,
// must agree with the body. The SDK checks them before a server instance exists: a disagreement is a 400 with a
// JSON-RPC error -32020 (HeaderMismatch) whose message names the header's value and the body's
// (test/http/mcp-standard-headers.test.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import { log } from '../../log.js';
import { createModernMcpServer } from '../../server-modern.js';
import { createModernTasks } from '../../server-modern-tasks.js';
import { createMemoryTaskStore } from '../../shared-state/task-store.js';
import type { SharedState } from '../../shared-state/shared-state.js';
import type { AnyTool } from '../../tools/registry.js';
import type { ImageKeeper } from '../../tools/types.js';
import type { GracefulStop } from '../graceful-stop.js';
import { readRpcBody, type McpSessions } from './mcp-sessions.js';

export interface McpEndpoint {
  /** Answers a GET, POST or DELETE on /mcp; names the tool called (or the method) in `entry.tool` for the log. */
  handle(req: IncomingMessage, res: ServerResponse, entry: { tool: string }): Promise<void>;
  /** Aborts the 2026-07-28 calls and tasks still running (calls' requests are answered as cancelled). */
  close(): Promise<void>;
}

export interface McpEndpointOptions {
  readonly graceful: GracefulStop;
  readonly sharedState?: SharedState;
  /** Where the server keeps the screenshots it serves (image-store.ts). */
  readonly keepImage?: ImageKeeper;
}

export function createMcpEndpoint(
  config: Config,
  engine: Engine,
  tools: readonly AnyTool[],
  sessions: McpSessions,
  options: McpEndpointOptions,
): McpEndpoint {
  const onerror = (error: Error) => log('warn', `MCP (2026-07-28): ${error.message}`);
  // Tasks (server-modern-tasks.ts) outlive the request that started them: one runner per endpoint, on the shared
  // task store, so that any replica reads and cancels them; a shutdown waits for their work as for a call's.
  const tasks = createModernTasks(options.sharedState?.taskStore ?? createMemoryTaskStore(), {
    calls: options.graceful,
  });
  const modern = createMcpHandler(
    () =>
      createModernMcpServer(engine, tools, {
        stopSignal: options.graceful.stopSignal,
        resumeStore: options.sharedState?.resumeStore,
        keepImage: options.keepImage,
        tasks,
      }),
    { legacy: 'reject', onerror, maxRequestBodySize: config.httpMaxBodyBytes },
  );
  const serveModern = toNodeHandler(modern, { onerror, maxRequestBodySize: config.httpMaxBodyBytes });

  return {
    async handle(req, res, entry) {
      if (req.method !== 'POST' || typeof req.headers['mcp-session-id'] === 'string') {
        return sessions.handle(req, res, entry);
      }
      const message = await readRpcBody(req, config, entry);
      if (await isLegacyRequest(await toWebRequest(req, message), message)) {
        return sessions.handle(req, res, entry, message);
      }
      await serveModern(req, res, message);
    },
    close: async () => {
      tasks.abortAll();
      await modern.close();
    },
  };
}

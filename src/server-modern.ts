// The MCP server for the 2026-07-28 revision (the SDK's v2 line, @modelcontextprotocol/server): no initialize and no
// session — every request carries its protocol version and client capabilities in `_meta`, so one server instance
// answers one request (HTTP, src/transports/http/mcp-modern.ts) or one stdio connection (src/transports/stdio.ts).
// The tools, their schemas and how a call runs are server.ts's, shared with the 2025 server: only the wire differs.
//
// What the revision asks of a tools server, and where it is answered:
// - `server/discover`: by the SDK, from the capabilities and identity given here.
// - Cache hints on list results (`ttlMs`, `cacheScope`): the tool list is fixed for the life of the process by
//   `--tools` and is the same for every client, so it may be cached, by shared caches too, for TOOL_LIST_TTL_MS.
// - Progress and cancellation: as for 2025 clients (runMcpCall), on the request's own stream; a cancelled call is
//   the request's signal aborting (the HTTP request ending, or notifications/cancelled on stdio).
// - Logging: `logging/setLevel` is gone; a request names the level it wants in `_meta["io.modelcontextprotocol/
//   logLevel"]`, and a call whose request names none sends no log lines (the SDK's reading of the revision).
// - Tasks: the tasks extension (`io.modelcontextprotocol/tasks`, server-modern-tasks.ts) for the crawl, when the
//   server is given a task store (`tasks`) and the request declares the extension; else a long crawl answers within
//   its max_seconds and hands back a `continue_from` id, which any replica can continue.
import { Server, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/server';
import type { Engine } from './engine/engine.js';
import type { ClientLogLevel } from './server-logging.js';
import {
  describeTool,
  runMcpCall,
  runTaskCall,
  TASK_TOOLS,
  toCallToolResult,
  unknownToolResult,
  WEB_READER_ICON,
  type McpServerOptions,
} from './server-calls.js';
import { declaresTasks, registerTaskMethods, TASKS_EXTENSION, type ModernTasks } from './server-modern-tasks.js';
import type { AnyTool } from './tools/registry.js';
import type { Caller } from './workers/callers.js';
import { VERSION } from './version.js';

/** How long a client (or a shared cache) may keep the tool list: it changes only when the server restarts. */
export const TOOL_LIST_TTL_MS = 60 * 60 * 1000;

/** The `_meta` key a 2026-07-28 request names its wanted log level under. */
const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

const INSTRUCTIONS =
  'web-reader fetches web pages safely and returns clean Markdown of the main content, link lists, ' +
  'structured JSON or whole site sections within a token budget.';

/**
 * A server for one 2026-07-28 request (or connection). `caller` is the caller of the extraction workers its calls
 * belong to: a stdio connection's one client; over HTTP, absent, so that each call is its own caller.
 */
export function createModernMcpServer(
  engine: Engine,
  tools: readonly AnyTool[],
  options: McpServerOptions & { readonly caller?: Caller; readonly tasks?: ModernTasks } = {},
): Server {
  const { tasks } = options;
  const server = new Server(
    { name: 'web-reader', title: 'web-reader', version: VERSION, icons: [WEB_READER_ICON] },
    {
      capabilities: {
        tools: { listChanged: false },
        logging: {},
        ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      },
      instructions: INSTRUCTIONS,
      cacheHints: {
        'tools/list': { ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'public' },
        'server/discover': { ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'public' },
      },
    },
  );
  const caller = options.caller ?? {};
  server.setRequestHandler(
    'tools/list',
    // Without tasks in this era, no tool says it runs as one (`execution.taskSupport` is 2025 vocabulary). Described
    // when listed, not when the server is built: a discover or a call does not need the others' schemas.
    () => ({ tools: tools.map(describeTool).map(({ execution: _execution, ...tool }) => tool) }) as ListToolsResult,
  );
  if (tasks) registerTaskMethods(server, tasks.store);
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    const described = tool && describeTool(tool);
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    if (tool && tasks && TASK_TOOLS.has(tool.name) && declaresTasks(envelope)) {
      // The server decides (SEP-2663): a crawl for a client that declared the extension is a task.
      return tasks.start(async (signal, report) => {
        const call = { engine, options, caller };
        const output = await runTaskCall(
          tool,
          request.params.arguments,
          call,
          signal,
          report.status,
          report.continueFrom,
        );
        return server.projectCallToolResult(toCallToolResult(output), described?.outputSchema);
      }) as unknown as CallToolResult;
    }
    const result = tool
      ? await runMcpCall(tool, request.params.arguments, {
          engine,
          options,
          caller,
          signal: ctx.mcpReq.signal,
          progressToken: ctx.mcpReq._meta?.progressToken,
          notify: (notification) => ctx.mcpReq.notify(notification),
          logThreshold: () => envelope?.[LOG_LEVEL_META_KEY] as ClientLogLevel['current'] | undefined,
        })
      : unknownToolResult(request.params.name, tools);
    return server.projectCallToolResult(result as CallToolResult, described?.outputSchema);
  });
  return server;
}

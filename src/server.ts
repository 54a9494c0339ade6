// The MCP server for 2025 clients (SDK v1): the chosen tools, listed with JSON Schemas made from their argument
// schemas, and called through runTool so MCP validates and reports exactly as the HTTP tools API and the CLI do, plus
// what only the 2025 era has (MCP Tasks, logging/setLevel). Transport-agnostic. Both eras' shared part:
// server-calls.ts.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  ListToolsRequestSchema,
  type InitializeRequest,
  type InitializeResult,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from './engine/engine.js';
import { runWithLogSink } from './log.js';
import type { Caller } from './workers/callers.js';
import { quoteInput } from './quote.js';
import {
  createCallLogSink,
  DEFAULT_CLIENT_LOG_LEVEL,
  isLoggingLevel,
  LOGGING_LEVELS,
  type ClientLogLevel,
} from './server-logging.js';
import {
  describeTool,
  runMcpCall,
  runTaskCall,
  toCallToolResult,
  unknownToolResult,
  TASK_TOOLS,
  WEB_READER_ICON,
  type McpServerOptions,
} from './server-calls.js';
import { CancellableTaskStore, startToolTask, TASK_CAPABILITIES } from './server-tasks.js';
import type { AnyTool } from './tools/registry.js';
import { VERSION } from './version.js';

// What both eras share lives in server-calls.ts; its names are exported here too, where callers found them before.
export {
  describeTool,
  inputJsonSchema,
  PROGRESS_FLUSH_MS,
  PROGRESS_GAP_MS,
  runMcpCall,
  singleTyped,
  toCallToolResult,
  unknownToolResult,
  type McpCallContext,
  type McpServerOptions,
} from './server-calls.js';

// logging/setLevel with any string as its level: the SDK's own schema would turn an unknown level into an internal
// error (-32603) before a handler runs, where the spec asks for Invalid params (-32602).
const SetLevelRequestSchema = z.object({
  method: z.literal('logging/setLevel'),
  params: z.object({ level: z.string() }),
});

/**
 * Answers logging/setLevel on `server` and returns the level its client chose. Replaces the SDK's own handler, which
 * sends every level until the client asks (we start at DEFAULT_CLIENT_LOG_LEVEL). The answer is the spec's empty
 * result.
 */
function acceptLogLevel(
  server: Server,
  chosen: ClientLogLevel = { current: DEFAULT_CLIENT_LOG_LEVEL },
): () => LoggingLevel {
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    const level = request.params.level;
    if (!isLoggingLevel(level)) {
      const known = LOGGING_LEVELS.join(', ');
      const message = `Unknown log level '${quoteInput(level, 40)}'. The levels are: ${known}.`;
      throw new McpError(ErrorCode.InvalidParams, message);
    }
    chosen.current = level;
    await chosen.onChosen?.(level);
    return {};
  });
  return () => chosen.current;
}

/** The protocol version MCP Tasks came in: a client that negotiated an earlier one is not offered them. */
export const TASKS_PROTOCOL_VERSION = '2025-11-25';

/**
 * Keeps the tasks capability out of the initialize answer of a client that negotiated a version before Tasks, and
 * returns whether this server's client was offered them. The SDK (1.32) answers initialize with its capabilities
 * whatever version it agreed; its `_oninitialize` is wrapped on the instance, so that both the initialize handler
 * and a session taken up on another replica (transports/http/resume-session.ts, which calls it) go through here.
 */
function offerTasksByVersion(server: Server): () => boolean {
  let offered = true;
  const internals = server as unknown as {
    _oninitialize(request: InitializeRequest): Promise<InitializeResult>;
  };
  const initialize = internals._oninitialize.bind(server);
  internals._oninitialize = async (request) => {
    const result = await initialize(request);
    // Protocol versions are dates (YYYY-MM-DD): their order as strings is their order in time.
    offered = result.protocolVersion >= TASKS_PROTOCOL_VERSION;
    if (offered) return result;
    const { tasks: _tasks, ...capabilities } = result.capabilities;
    return { ...result, capabilities };
  };
  return () => offered;
}

export function createMcpServer(engine: Engine, tools: readonly AnyTool[], options: McpServerOptions = {}): Server {
  const taskStore = new CancellableTaskStore();
  const server = new Server(
    { name: 'web-reader', title: 'web-reader', version: VERSION, icons: [WEB_READER_ICON] },
    {
      capabilities: { tools: {}, tasks: TASK_CAPABILITIES, logging: {} },
      taskStore,
      instructions:
        'web-reader fetches web pages safely and returns clean Markdown of the main content, link lists, ' +
        'structured JSON or whole site sections within a token budget.',
    },
  );
  // MCP logging (server-logging.ts): the level this server's one client chose; a call's log lines go to it only.
  const clientLogLevel = acceptLogLevel(server, options.clientLogLevel);
  // This server's one client (stdio, or one Streamable HTTP session) is one caller of the extraction workers: its
  // calls together take turns with other sessions' and never hold every worker (src/workers/pool.ts).
  const caller: Caller = {};
  const offersTasks = offerTasksByVersion(server);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    // A client not offered tasks is told of no tool that runs as one (`execution` is 2025-11-25 vocabulary).
    tools: tools.map(describeTool).map((tool) => {
      if (offersTasks()) return tool;
      const { execution: _execution, ...untasked } = tool;
      return untasked;
    }),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) return unknownToolResult(request.params.name, tools);
    // A client not offered tasks that sends `task` anyway gets the call run as any other.
    const requestedTask = offersTasks() ? request.params.task : undefined;
    if (requestedTask && !TASK_TOOLS.has(tool.name)) {
      // MCP "Tasks": a tool without taskSupport is called without `task`.
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool '${tool.name}' does not run as a task; call it without 'task'. Tools that do: ${[...TASK_TOOLS].join(', ')}.`,
      );
    }
    if (requestedTask && extra.taskStore) {
      // MCP Tasks: answered at once with the task; the tool runs on (see server-tasks.ts). Its log lines cannot go
      // on the tools/call's stream, answered already: they go as this session's own notifications (stdio, or the
      // session's GET stream on HTTP; dropped when the client keeps none open).
      const taskLog = createCallLogSink((notification) => server.notification(notification), clientLogLevel);
      return startToolTask(
        taskStore,
        requestedTask,
        { ...extra, taskStore: extra.taskStore },
        async (signal, onStatus) =>
          toCallToolResult(
            await runWithLogSink(taskLog, () =>
              runTaskCall(tool, request.params.arguments, { engine, options, caller }, signal, onStatus),
            ),
          ),
      );
    }
    return runMcpCall(tool, request.params.arguments, {
      engine,
      options,
      caller,
      signal: extra.signal,
      progressToken: request.params._meta?.progressToken,
      // extra.signal is the SDK's per-request abort: notifications/cancelled, the session closing (DELETE, expiry,
      // shutdown) and, on HTTP, a hang-up past its grace period (src/transports/http/mcp-sessions.ts) all abort it.
      notify: (notification) => extra.sendNotification(notification as never),
      logThreshold: clientLogLevel,
    });
  });
  // A task's work belongs to its session: the store (and its results) go when the server closes (DELETE, idle
  // expiry, eviction, shutdown). Wrapped here because transports set server.onclose for their own bookkeeping.
  const close = server.close.bind(server);
  server.close = async () => {
    taskStore.abortAll();
    taskStore.cleanup();
    await close();
  };
  return server;
}

// What both MCP servers share, free of either SDK at run time: the tools as MCP lists them (JSON Schemas made from
// their argument and result shapes) and one tools/call as both eras run it (runMcpCall: progress, log lines, the
// result). server.ts (the 2025 server, SDK v1) and server-modern.ts (2026-07-28, SDK v2 line) add only the wire, so a
// 2026-07-28 client never loads the v1 SDK (bench/start-modern.mjs) and a 2025 client never loads the v2 line.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ResumeStore } from './crawl/resume-store.js';
import type { Engine } from './engine/engine.js';
import { OUTCOMES } from './outcome.js';
import { runWithLogSink } from './log.js';
import type { Caller } from './workers/callers.js';
import { quoteInput } from './quote.js';
import { createCallLogSink, type ClientLogLevel } from './server-logging.js';
import type { AnyTool } from './tools/registry.js';
import { argumentsSchema, runTool } from './tools/run-tool.js';
import type { ImageKeeper, ToolImage, ToolOutput } from './tools/types.js';

/** Tools a 2025 client may run as a task (tools/list `execution.taskSupport: "optional"`; server-tasks.ts). */
export const TASK_TOOLS: ReadonlySet<string> = new Set(['crawl']);

/** A tool's argument schema as JSON Schema (arguments with defaults are optional to the caller). */
export function inputJsonSchema(tool: AnyTool): Tool['inputSchema'] {
  const { $schema: _schema, ...schema } = z.toJSONSchema(argumentsSchema(tool), { io: 'input' });
  return singleTyped(schema) as Tool['inputSchema'];
}

/** What every failed call carries (src/tools/failure.ts): its outcome, the server's HTTP status if any, its error. */
const FAILURE_SHAPE = {
  status: z.enum(OUTCOMES),
  http_status: z.number().int().optional(),
  error: z.object({
    type: z.string(),
    code: z.string(),
    message: z.string(),
    retry_after_seconds: z.number().optional(),
  }),
};

function jsonSchemaOf(shape: z.ZodRawShape): Record<string, unknown> {
  const { $schema: _schema, ...schema } = z.toJSONSchema(z.object(shape), { io: 'output' });
  return singleTyped(schema) as Record<string, unknown>;
}

/**
 * A JSON Schema in which every value has one type: `"type": ["string", "null"]` (zod's nullable) becomes
 * `"anyOf": [{"type": "string"}, {"type": "null"}]`, which means the same and which the single-type dialects some
 * clients validate with accept (the MCP Inspector's --strict check warned of each such field).
 */
export function singleTyped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(singleTyped);
  if (typeof node !== 'object' || node === null) return node;
  const { type, ...rest } = node as Record<string, unknown>;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, singleTyped(value)]),
  );
  if (!Array.isArray(type)) return type === undefined ? out : { type, ...out };
  const alternatives = { anyOf: type.map((one: unknown) => ({ type: one })) };
  return out.anyOf === undefined ? { ...out, ...alternatives } : { ...out, allOf: [alternatives] };
}

/**
 * A tool's result schema, which admits its failures too: the SDK's client validates the structuredContent of an
 * error result against the outputSchema as well, so a failure's `status` and `error` must be valid there to arrive.
 * The result's own properties stay at the top; what is required depends on whether the result is a failure.
 */
function outputJsonSchema(tool: AnyTool): Tool['outputSchema'] {
  if (!tool.outputShape) return undefined;
  const result = jsonSchemaOf(tool.outputShape) as { properties: Record<string, unknown>; required?: string[] };
  const failure = jsonSchemaOf(FAILURE_SHAPE) as { properties: Record<string, unknown>; required: string[] };
  const { required = [], ...open } = result;
  return {
    ...open,
    type: 'object',
    properties: {
      ...result.properties,
      status: { anyOf: [result.properties.status, failure.properties.status] },
      error: failure.properties.error,
      http_status: result.properties.http_status ?? failure.properties.http_status,
    },
    // A failure has its status and error; a result, every field its shape requires.
    if: { required: ['error'] },
    then: { required: failure.required },
    else: { required },
  } as Tool['outputSchema'];
}

/**
 * The server's icon (MCP 2025-11-25 and 2026-07-28 `icons`): a page with a reading line, as a data URI, so that no
 * client has to fetch it. Every tool and the server itself carry it.
 */
export const WEB_READER_ICON = {
  src:
    'data:image/svg+xml;base64,' +
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#2563eb" stroke-width="2">' +
        '<path d="M6 2h9l5 5v15H6z"/><path d="M9 12h8M9 16h8M9 8h3"/></svg>',
    ).toString('base64'),
  mimeType: 'image/svg+xml',
  sizes: ['any'],
};

// A tool's description is fixed for the life of the process (its schemas are module constants), and a 2026-07-28
// server over HTTP is built per request: made once per tool, not once per request (two JSON Schema conversions each).
const descriptions = new WeakMap<AnyTool, Tool>();

/** The tool as tools/list shows it; the same object on every call (do not change it). */
export function describeTool(tool: AnyTool): Tool {
  let described = descriptions.get(tool);
  if (!described) descriptions.set(tool, (described = makeDescription(tool)));
  return described;
}

function makeDescription(tool: AnyTool): Tool {
  const outputSchema = outputJsonSchema(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool),
    ...(outputSchema ? { outputSchema } : {}),
    annotations: tool.annotations,
    icons: [WEB_READER_ICON],
    ...(TASK_TOOLS.has(tool.name) ? { execution: { taskSupport: 'optional' as const } } : {}),
  };
}

export function toCallToolResult(output: ToolOutput): CallToolResult {
  // Every result carries its structured status, failures included: a tool's outputSchema admits its failure shape
  // (outputJsonSchema), which the SDK's client validates as it does a result.
  return {
    content: [{ type: 'text', text: output.text }, ...(output.images ?? []).flatMap(imageContent)],
    structuredContent: output.data ?? output.structured,
    ...(output.isError ? { isError: true } : {}),
  };
}

/**
 * An image as MCP content: the image itself (base64), the line that goes with it, and where the HTTP server serves
 * it, a resource_link to that copy (MCP 2025-06-18 "Resource Links").
 */
function imageContent(image: ToolImage): CallToolResult['content'] {
  const data = Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64');
  return [
    { type: 'image', data, mimeType: image.mimeType },
    ...(image.caption !== undefined ? [{ type: 'text' as const, text: image.caption }] : []),
    ...(image.link !== undefined
      ? [
          {
            type: 'resource_link' as const,
            uri: image.link,
            name: image.link.split('/').pop()!,
            mimeType: image.mimeType,
          },
        ]
      : []),
  ];
}

export interface McpServerOptions {
  /** Aborted when the server begins a graceful stop (shutdown): long tools return what they have, marked stopped. */
  readonly stopSignal?: AbortSignal;
  /** Told when a tool call starts and ends, so that a shutdown can wait for running calls (stdio). */
  readonly calls?: { begin(): void; end(): void };
  /** Where stopped crawls wait to be continued (the composition root's shared state); see ToolContext. */
  readonly resumeStore?: ResumeStore;
  /** The client's log level, when the transport keeps it (a session shared by replicas); else the server's own. */
  readonly clientLogLevel?: ClientLogLevel;
  /** Where the HTTP server keeps the images it serves (screenshots); absent on stdio. */
  readonly keepImage?: ImageKeeper;
}

/** How long a result waits for its progress notifications to be written: a stuck client must not hold it. */
export const PROGRESS_FLUSH_MS = 1000;

/**
 * The least time between the last progress notification and the result. The SDK's client handles a notification a
 * microtask later but a response at once: when both arrive in one read from the pipe, the response forgets the
 * token first and the client reports the notification as unknown. A short gap lets them arrive in separate reads.
 */
export const PROGRESS_GAP_MS = 40;

async function flushProgress(sending: ReadonlySet<Promise<unknown>>, lastSentAt: number): Promise<void> {
  if (sending.size > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, PROGRESS_FLUSH_MS)));
    await Promise.race([Promise.allSettled([...sending]), bound]);
    clearTimeout(timer);
  }
  const gap = lastSentAt + PROGRESS_GAP_MS - performance.now();
  if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
}

/** What one tool call needs from the server that received it, whichever protocol era it speaks. */
export interface McpCallContext {
  readonly engine: Engine;
  readonly options: McpServerOptions;
  /** The caller of the extraction workers this call belongs to (src/workers/pool.ts). */
  readonly caller: Caller;
  /** Aborted when the client cancels the call (or goes away). */
  readonly signal: AbortSignal;
  readonly progressToken: string | number | undefined;
  /** Sends a notification on the call's own stream (its progress, its log lines). */
  readonly notify: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
  /** The least level of the call's log lines the client hears; undefined: it hears none. */
  readonly logThreshold: () => ClientLogLevel['current'] | undefined;
}

/**
 * Runs one tools/call of a known tool and answers it as a CallToolResult: the same for both protocol eras (this
 * file's 2025 server, server-modern.ts's 2026-07-28 one).
 */
export async function runMcpCall(tool: AnyTool, args: unknown, call: McpCallContext): Promise<CallToolResult> {
  const { options, progressToken } = call;
  options.calls?.begin();
  // Progress sent after the result is lost: the client forgets the token with the response (MCP "Progress":
  // notifications reference a request in progress). So the result waits for the notifications already sent.
  const sending = new Set<Promise<unknown>>();
  let lastSentAt = -Infinity;
  // The call's log lines go on its own stream, as its progress does (relatedRequestId): to this client only.
  const callLog = createCallLogSink((notification) => call.notify(notification), call.logThreshold);
  const output = await runWithLogSink(callLog, () =>
    runTool(tool, args, {
      engine: call.engine,
      resumeStore: options.resumeStore,
      frontDoor: 'mcp',
      caller: call.caller,
      signal: call.signal,
      keepImage: options.keepImage,
      stopSignal: options.stopSignal,
      onProgress:
        progressToken === undefined
          ? undefined
          : (progress) => {
              const sent = call
                .notify({ method: 'notifications/progress', params: { progressToken, ...progress } })
                .catch(() => undefined) // the client may be gone; progress is best-effort
                .finally(() => {
                  sending.delete(sent);
                  lastSentAt = performance.now();
                });
              sending.add(sent);
            },
    }),
  ).finally(() => options.calls?.end());
  await flushProgress(sending, lastSentAt);
  return toCallToolResult(output);
}

/**
 * Runs a tool call as a task's work, for both protocol eras' tasks (server.ts: 2025-11-25; server-modern.ts: the
 * 2026-07-28 extension): the task's own signal, each progress message as the task's status message, and the crawl's
 * continue_from id from its start (`onContinueFrom`) for a task that must hand it out if its replica dies.
 */
export function runTaskCall(
  tool: AnyTool,
  args: unknown,
  call: Pick<McpCallContext, 'engine' | 'options' | 'caller'>,
  signal: AbortSignal,
  onStatus: (message: string) => void,
  onContinueFrom?: (id: string) => void,
): Promise<ToolOutput> {
  return runTool(tool, args, {
    engine: call.engine,
    resumeStore: call.options.resumeStore,
    frontDoor: 'mcp',
    caller: call.caller,
    signal,
    stopSignal: call.options.stopSignal,
    onProgress: (progress) => onStatus(progress.message ?? `${progress.progress} done`),
    onContinueFrom,
  });
}

/** The answer to a call of a tool this server does not offer. */
export function unknownToolResult(name: string, tools: readonly AnyTool[]): CallToolResult {
  const names = tools.map((t) => t.name).join(', ');
  return toCallToolResult({
    text:
      `Unknown tool '${quoteInput(name)}'. This server offers: ${names}. The server's operator chooses its tools ` +
      'with --tools or WEB_READER_TOOLS (--tools all offers every one).',
    structured: { status: 'error' },
    isError: true,
  });
}

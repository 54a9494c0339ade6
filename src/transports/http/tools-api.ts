// The JSON tools API (SPEC "Front doors" 3), the seed BaseTool shape:
//   GET /tools     the listing: name, description, parameters, tags.
//   POST /tools/x  runs tool x with a JSON body of arguments → { success, result, error, execution_time_ms }.
// A tool that ran and failed (the page 404s, the connection is refused) is HTTP 200 with success: false: the API
// call itself worked, and the caller reads `error` and `result.status` just as an MCP client reads isError.
// Thin: validation, running and error translation live in runTool, shared with MCP and the CLI.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../../config.js';
import type { ResumeStore } from '../../crawl/resume-store.js';
import type { Engine } from '../../engine/engine.js';
import { quoteInput } from '../../quote.js';
import { inputJsonSchema } from '../../server.js';
import type { AnyTool } from '../../tools/registry.js';
import { runTool, textWithCaptions } from '../../tools/run-tool.js';
import type { ImageKeeper } from '../../tools/types.js';
import type { GracefulStop } from '../graceful-stop.js';
import { readBody } from './guard.js';
import { HttpError, sendJson } from './http-error.js';

/** One tool in the GET /tools listing. */
export interface ToolListing {
  readonly name: string;
  readonly description: string;
  readonly parameters: ReturnType<typeof inputJsonSchema>;
  readonly tags: readonly string[];
}

export interface ToolsApi {
  /** GET /tools. */
  listTools(): ToolListing[];
  /** POST /tools/{name}: reads the body, runs the tool, writes the result. */
  callTool(name: string, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * The API over `apiTools`. `graceful` is the server's shutdown: its stopSignal asks a running tool to return what
 * it has, its cancelSignal cancels what still runs at the deadline. `resumeStore`: where stopped crawls wait to be
 * continued (the composition root's shared state).
 */
export function createToolsApi(
  config: Config,
  engine: Engine,
  apiTools: readonly AnyTool[],
  graceful: GracefulStop,
  { resumeStore, keepImage }: { readonly resumeStore?: ResumeStore; readonly keepImage?: ImageKeeper } = {},
): ToolsApi {
  function listTools(): ToolListing[] {
    return apiTools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: inputJsonSchema(tool),
      tags: tool.tags,
    }));
  }

  async function callTool(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const tool = apiTools.find((candidate) => candidate.name === name);
    if (!tool) {
      const names = apiTools.map((t) => t.name).join(', ');
      throw new HttpError(404, `Unknown tool '${quoteInput(name)}'. Tools: ${names}.`);
    }
    const raw = (await readBody(req, config.httpMaxBodyBytes)).toString('utf8');
    let args: unknown = {};
    if (raw.trim() !== '') {
      try {
        args = JSON.parse(raw);
      } catch (error) {
        throw new HttpError(400, `Invalid JSON body: ${(error as Error).message}`);
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new HttpError(400, 'The body must be a JSON object of arguments, e.g. {"url": "https://example.com"}.');
    }
    // The caller hanging up cancels the call (a JSON API response cannot be resumed), as does the shutdown
    // deadline; shutdown itself first asks the tool to stop gracefully.
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) controller.abort(new Error('The client disconnected.'));
    });
    // A listener removed when the call ends, not AbortSignal.any: a composite of the process-long cancel signal
    // stays referenced from it on Node 20–24 (nodejs/node#55351), one per call.
    const onShutdownCancel = () => controller.abort(graceful.cancelSignal.reason);
    if (graceful.cancelSignal.aborted) onShutdownCancel();
    else graceful.cancelSignal.addEventListener('abort', onShutdownCancel, { once: true });
    const started = performance.now();
    const output = await runTool(tool, args, {
      engine,
      resumeStore,
      frontDoor: 'api',
      signal: controller.signal,
      keepImage,
      stopSignal: graceful.stopSignal,
      onContinueFrom: (id) => sendContinueFrom(res, id),
    }).finally(() => graceful.cancelSignal.removeEventListener('abort', onShutdownCancel));
    const executionTimeMs = Math.round(performance.now() - started);
    const code = (output.structured.error as { code?: string } | undefined)?.code;
    const status = output.isError && code === 'INVALID_ARGUMENT' ? 400 : 200;
    (res.headersSent ? sendBody : sendJson)(res, status, {
      success: !output.isError,
      // As the CLI's --json: a tool's seed-shaped data (web_scraper) as is; otherwise its structured result with
      // the text a model reads. On failure, the status and the error's class and code.
      result:
        output.data ?? (output.isError ? output.structured : { ...output.structured, text: textWithCaptions(output) }),
      error: output.isError ? output.text : null,
      execution_time_ms: executionTimeMs,
    });
  }

  return { listTools, callTool };
}

/** The header that carries a running crawl's continue_from id ahead of its result (REDIS_URL, docs/crawl.md). */
export const CONTINUE_FROM_HEADER = 'web-reader-continue-from';

// A crawl checkpointed from its start (REDIS_URL) has its continue_from id before its result: the status line and
// headers go out at once with it, so a caller whose replica dies mid-crawl has the id to continue on another (a
// fetch() resolves on the headers; curl -D - prints them). The status is 200 from then on: arguments were valid.
function sendContinueFrom(res: ServerResponse, id: string): void {
  if (res.headersSent) return;
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    [CONTINUE_FROM_HEADER]: id,
  });
  res.flushHeaders();
}

function sendBody(res: ServerResponse, _status: number, body: unknown): void {
  res.end(JSON.stringify(body));
}

// What a tool is: a name, a description for the model, an argument schema, and a run function over the engine.
// Front doors (MCP, HTTP tools API, CLI) adapt this one shape; a tool never knows which door called it.
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { ResumeStore } from '../crawl/resume-store.js';
import type { Caller } from '../workers/callers.js';
import type { Engine } from '../engine/engine.js';
import type { FrontDoor } from '../metrics.js';
import type { Outcome } from '../outcome.js';
import type { ExplainEntry } from '../extract/trace.js';
import type { Continuation } from '../output/page-text.js';

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface ToolContext {
  readonly engine: Engine;
  readonly signal?: AbortSignal;
  /**
   * A graceful stop (server shutdown): unlike `signal`, the call is not abandoned. A long tool (crawl) stops
   * starting new work, returns what it already has and marks the result as stopped; short tools may ignore it.
   */
  readonly stopSignal?: AbortSignal;
  /** Present when the caller asked for progress (an MCP progress token, a CLI progress bar). */
  readonly onProgress?: (progress: ToolProgress) => void;
  /**
   * A long call's continue_from id as soon as it has one (a crawl with REDIS_URL is checkpointed from its start):
   * the JSON API sends it as a response header before the result, so a caller whose replica dies can continue.
   */
  readonly onContinueFrom?: (id: string) => void;
  /**
   * Return extraction's trace as `explain` (the CLI's `read --explain`, the library's `fetch({ explain: true })`).
   * Not a tool argument: the trace is for the person debugging extraction, not for the model.
   */
  readonly explain?: boolean;
  /**
   * Where stopped crawls wait to be continued: the composition root's shared state (in memory, or on Redis with
   * REDIS_URL), handed to every front door it serves. Absent: the crawl keeps them in memory, one store per engine.
   */
  readonly resumeStore?: ResumeStore;
  /** Which front door called, for /metrics only (run-tool.ts counts the call); a tool never reads it. */
  readonly frontDoor?: FrontDoor;
  /**
   * Whose call this is, for the extraction workers' fair share (src/workers/callers.ts): an MCP session passes one
   * value for all its calls. Absent: the call is a caller of its own.
   */
  readonly caller?: Caller;
  /**
   * Keeps an image the call returns where the HTTP server serves it for a while (screenshots), and gives its URL;
   * absent where nothing serves one (stdio, the CLI, the library).
   */
  readonly keepImage?: ImageKeeper;
}

/** Where a front door keeps images it serves: the URL of the copy, or undefined when it keeps none. */
export interface ImageKeeper {
  keep(image: { readonly bytes: Uint8Array; readonly mimeType: string }): string | undefined;
  /** How long a kept image is served. */
  readonly keptMinutes: number;
}

/** An image a tool returns beside its text (MCP `image` content; a `resource_link` when it has a link). */
export interface ToolImage {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  /** Where the HTTP server serves it (ImageKeeper). */
  readonly link?: string;
  /** A line said after the image (its size), when the tool's text is about something else (fetch's page). */
  readonly caption?: string;
}

export interface ToolOutput {
  /** What a text-reading client shows the model. */
  readonly text: string;
  /** The same result as data: MCP structuredContent, the HTTP API's `result`, the CLI's --json. */
  readonly structured: { readonly status: Outcome } & Record<string, unknown>;
  /**
   * The result in the shape its seed fixes, for the one tool that has one (web_scraper, whose seed JSON has an HTTP
   * `status: 200`). MCP structuredContent, the HTTP API's `result` and the CLI's --json send it in place of
   * `structured`; `structured.status` stays the outcome every front door reads (it is also `data.outcome`).
   */
  readonly data?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  /** When `text` ends with a continuation notice (a cut page, fetch): the notice and where the rest starts. */
  readonly continuation?: Continuation;
  /** With ToolContext `explain`, from a tool that read one page (fetch): extraction's decisions on it. */
  readonly explain?: readonly ExplainEntry[];
  /** Images beside the text (a screenshot): MCP image content; the JSON API and the CLI use their links or bytes. */
  readonly images?: readonly ToolImage[];
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly inputShape: Shape;
  /** The structured result's schema (MCP outputSchema); every tool declares one (issue 25). */
  readonly outputShape?: z.ZodRawShape;
  readonly annotations: ToolAnnotations;
  /**
   * Whether a server with this configuration offers the tool (lists it, runs it): absent, always. `search` needs a
   * provider (SEARXNG_URL or BRAVE_API_KEY); without one it is left out of every front door's list.
   */
  readonly offered?: (config: Config) => boolean;
  run(args: z.infer<z.ZodObject<Shape>>, context: ToolContext): Promise<ToolOutput>;
}

/** Every tool reads the web and changes nothing: read-only, open-world (MCP tool annotations). */
export const READ_ONLY_WEB: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

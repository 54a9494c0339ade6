// The library: the same engine and tools as the MCP server, HTTP API and CLI, as typed async functions.
// Each export is here on purpose; internals stay internal.
//
// A composition root (with src/cli/main.ts): each reader builds its Config and its shared state (memory, or Redis
// when its env names REDIS_URL) once, and hands them to its engine and its tool calls.
import { resolveConfig, type Config, type ConfigFlags } from './config.js';
import type { Engine } from './engine/engine.js';
import { createLazyEngine } from './engine/lazy-engine.js';
import { InvalidArgumentError } from './errors.js';
import { createSharedState } from './shared-state/shared-state.js';
import type { FetchToolArguments } from './tools/fetch-tool.js';
import type { ReadManyToolArguments } from './tools/read-many-tool.js';
import type { SearchToolArguments } from './tools/search-tool.js';
import { findTool } from './tools/registry.js';
import { runTool } from './tools/run-tool.js';
import type { ToolOutput } from './tools/types.js';

export { resolveConfig, type Config, type ConfigFlags } from './config.js';
export { createEngine, type Engine } from './engine/engine.js';
export type { LoadOptions } from './engine/load-page.js';
/**
 * A caller's credentials for `LoadOptions.credentials` / `ReadOptions.credentials`: `bindCredentials(url, headers)`
 * binds them to the URL's origin, and no request to another origin ever carries them.
 */
export { bindCredentials, type Credentials } from './fetch/credentials.js';
export type { PageContent, ReadOptions } from './engine/page-content.js';
/**
 * `ReadOptions.actions` and what `PageContent.actions` reports of each (README "Actions"): checked before anything is
 * fetched (INVALID_ARGUMENT naming the action by its index), run on the rendered page before it is read.
 */
export type { ActionResult, PageAction } from './browser/page-actions.js';
export { OUTCOMES, type Outcome } from './outcome.js';
export {
  WebReaderError,
  FetchError,
  HttpStatusError,
  SecurityError,
  TimeoutError,
  ExtractionError,
  InvalidArgumentError,
  type ErrorCode,
} from './errors.js';
export type { ToolOutput } from './tools/types.js';
export type { FetchToolArguments } from './tools/fetch-tool.js';
/** `readMany`'s arguments: `urls` (at most 20), `max_tokens` shared by the pages, `timeout` (s), reading options. */
export type { ReadManyToolArguments } from './tools/read-many-tool.js';
/** `search`'s arguments: `query`, `max_results`, `language`, `time_range`, `read` (the top N read), reading options. */
export type { SearchToolArguments } from './tools/search-tool.js';
export {
  formatExplain,
  type ExplainEntry,
  type ExplainPhase,
  type ExplainAction,
  type ExplainNumbers,
} from './extract/trace.js';
export { ALL_TOOLS, PRESETS } from './tools/registry.js';
export { VERSION } from './version.js';

export interface WebReaderOptions extends ConfigFlags {
  /** Environment variables to read configuration from; defaults to none (library defaults), not process.env. */
  readonly env?: Record<string, string | undefined>;
}

/** The `fetch` tool's arguments, and what only a library caller can ask for. */
export type WebReaderFetchArguments = FetchToolArguments & {
  /**
   * Return extraction's trace as the result's `explain` (`ExplainEntry[]`): each block removed and why (hidden, which
   * rule; boilerplate tag, role or class word; link density; too short; caption; …), the chosen block with its score
   * and its runners-up, and whether the retry pass or the whole-body fallback ran. `formatExplain` prints it as
   * `web-reader read --explain` does. Absent for content that is not HTML.
   */
  readonly explain?: boolean;
};

export interface WebReader {
  readonly config: Config;
  readonly engine: Engine;
  /** The `fetch` tool: main content as Markdown, or the raw body; with `explain: true`, how extraction decided. */
  fetch(args: WebReaderFetchArguments, signal?: AbortSignal): Promise<ToolOutput>;
  /**
   * The `read_many` tool: up to 20 URLs at once, each with its own outcome, in the order given, within one token
   * budget shared fairly; pages unfinished at the `timeout` are named in `structured.unfinished`.
   */
  readMany(args: ReadManyToolArguments, signal?: AbortSignal): Promise<ToolOutput>;
  /**
   * The `search` tool, with the provider the env names (SEARXNG_URL, or BRAVE_API_KEY): ranked results in
   * `structured.results`, and with `read: N` the top N pages in `structured.pages`. No provider: an error
   * (SEARCH_UNAVAILABLE) saying which variable to set.
   */
  search(args: SearchToolArguments, signal?: AbortSignal): Promise<ToolOutput>;
  /** Any tool by name, with its arguments as an MCP client would send them. */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutput>;
  /** Stops the extraction workers, and closes the connection to Redis when there is one. */
  close(): Promise<void>;
}

/**
 * Creates a reader with its own configuration, cache and worker pool.
 *
 * @example
 * const reader = createWebReader();
 * const { text, structured } = await reader.fetch({ url: 'https://example.com/' });
 * await reader.close();
 */
export function createWebReader(options: WebReaderOptions = {}): WebReader {
  const { env = {}, ...flags } = options;
  const config = resolveConfig(env, flags);
  // Built at once, so that with REDIS_URL the connection starts now; the engine loads with the first call.
  const shared = createSharedState(config);
  const engine = createLazyEngine(config, shared);
  const call = async (name: string, args: Record<string, unknown>, signal?: AbortSignal, explain?: boolean) => {
    const tool = findTool(name);
    if (!tool) throw new InvalidArgumentError('name', `Unknown tool '${name}'.`);
    return runTool(tool, args, { engine, signal, explain, resumeStore: (await shared).resumeStore });
  };
  return {
    config,
    engine,
    // `explain` is not a tool argument (the tool's schema refuses unknown ones): it travels in the tool's context.
    fetch: ({ explain, ...args }, signal) => call('fetch', args, signal, explain),
    readMany: (args, signal) => call('read_many', args, signal),
    search: (args, signal) => call('search', args, signal),
    call: (name, args, signal) => call(name, args, signal),
    close: async () => {
      await engine.close();
      await (await shared).close();
    },
  };
}

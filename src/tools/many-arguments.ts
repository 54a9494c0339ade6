// What `read_many` and `search` share (issue 26): the arguments of reading several pages in one call — the same
// reading arguments as fetch and read_url (render-arguments.ts, select-arguments.ts, `max_age`), plus the call's
// token budget and deadline — and the structured shape of the pages they return. `headers` is not among them: a
// caller's credentials are bound to one origin (src/fetch/credentials.ts), and these calls read many.
import { z } from 'zod';
import type { ReadOptions } from '../engine/page-content.js';
import type { ManyPage } from '../output/many-report.js';
import { structuredManyPage } from '../output/many-report.js';
import { OUTCOMES } from '../outcome.js';
import { integerBetween } from './arguments.js';
import { renderOptions, renderShape } from './render-arguments.js';
import { maxAgeArgument, requestOptions } from './request-arguments.js';
import { selectOptions, selectorArgument, excludeSelectorsArgument } from './select-arguments.js';
import { structuredDataOptions, structuredDataShape } from './data-arguments.js';
import { STRUCTURED_DATA_SHAPE } from '../output/structured-data.js';

/** The most URLs one call reads (read_many's `urls`, search's `read`). */
export const MAX_MANY_URLS = 20;

/** The call's deadline when the caller gives none, in seconds: below the 60 s most MCP clients wait (as map). */
export const DEFAULT_MANY_TIMEOUT_SECONDS = 45;

export const maxTokensArgument = integerBetween('max_tokens', 1, 1_000_000)
  .optional()
  .describe(
    'Tokens for the whole result, shared fairly by the pages (a page that needs less leaves the rest to the ' +
      'others; a cut page names the start_index that continues it). Default and ceiling: MAX_OUTPUT_TOKENS',
  );

export const timeoutArgument = integerBetween('timeout', 1, 300)
  .optional()
  .describe(
    `The call's deadline in seconds (default ${DEFAULT_MANY_TIMEOUT_SECONDS}): the pages read by then are ` +
      'returned, and those still loading are named',
  );

/**
 * The reading arguments of every page of the call, spread into the tool's input shape: the same definitions the
 * single-page tools use, so an argument added there (a `query`) is one line here.
 */
export const manyReadShape = {
  max_tokens: maxTokensArgument,
  timeout: timeoutArgument,
  ...renderShape,
  max_age: maxAgeArgument,
  selector: selectorArgument,
  exclude_selectors: excludeSelectorsArgument,
  ...structuredDataShape,
};

/**
 * `query` (src/tools/select-arguments.ts): each page narrowed to the passages that answer it. read_many takes it as
 * its own argument; `search` passes its search words, so the pages it reads are narrowed to what was searched for.
 */
type ManyReadArguments = z.infer<z.ZodObject<typeof manyReadShape>> & { query?: string };

/** The reading arguments as the engine's read options for each page (no credentials: see the top of this file). */
export function manyReadOptions(args: ManyReadArguments): ReadOptions {
  return {
    ...renderOptions(args),
    ...requestOptions({ max_age: args.max_age }),
    ...selectOptions(args),
    ...structuredDataOptions(args),
    withoutRaw: true,
  };
}

/** The call's deadline in ms. */
export function manyDeadlineMs(args: { timeout?: number }): number {
  return (args.timeout ?? DEFAULT_MANY_TIMEOUT_SECONDS) * 1000;
}

/** One page of the result, as structuredManyPage gives it (src/output/many-report.ts). */
export const manyPageShape = z.object({
  number: z.number().int().describe('From 1, in the order the URLs were given'),
  url: z.string(),
  status: z.enum(OUTCOMES).describe('What the read found; "error" with `error` when it failed or did not finish'),
  finished: z.boolean().describe('False: the deadline came first; the read was cancelled'),
  final_url: z.string().optional(),
  title: z.string().optional(),
  from_cache: z.boolean().optional(),
  content: z.string().describe('The page as Markdown (maybe cut to share the budget), or its status line'),
  tokens: z.number().int().optional().describe('Tokens of content, when a budget was shared (absent: all fit whole)'),
  total_tokens: z.number().int().optional().describe('Tokens of the whole content before any cut'),
  truncated: z.boolean(),
  next_start_index: z.number().int().optional().describe("Where fetch's start_index continues a cut page"),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  structured_data: STRUCTURED_DATA_SHAPE,
});

/** The fields both tools' results have about the pages. */
export const manyResultShape = {
  pages: z.array(manyPageShape),
  budget_tokens: z.number().int().optional().describe('The tokens the pages shared; absent: no limit'),
  cut_pages: z.number().int().describe('Pages cut to share the budget'),
  unfinished: z.array(z.string()).describe('URLs still loading at the deadline'),
};

/** The structured fields of a many-page result. */
export function structuredMany(result: {
  pages: readonly ManyPage[];
  budget: number | undefined;
  cut: number;
}): Record<string, unknown> {
  return {
    pages: result.pages.map(structuredManyPage),
    ...(result.budget !== undefined && { budget_tokens: result.budget }),
    cut_pages: result.cut,
    unfinished: result.pages.filter((page) => !page.finished).map((page) => page.url),
  };
}

// `search` (issue 26 item 1): a query → ranked results (title, URL, snippet, engine) from the configured provider
// (SearXNG or Brave, src/runs/search-web.ts); with `read: N`, the top N results are read through the engine as
// read_many reads them (src/runs/read-many.ts), within one token budget. Offered only when a provider is configured.
import { z } from 'zod';
import type { Config } from '../config.js';
import { MANY_SENTENCES } from '../output/notices.js';
import { readMany } from '../runs/read-many.js';
import { configuredProvider, TIME_RANGES, type SearchHit } from '../runs/search-providers.js';
import { OUTCOMES } from '../outcome.js';
import { boundedString, integerBetween } from './arguments.js';
import {
  manyDeadlineMs,
  manyReadOptions,
  manyReadShape,
  manyResultShape,
  MAX_MANY_URLS,
  structuredMany,
} from './many-arguments.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';

const MAX_RESULTS = 20;

const inputShape = {
  query: boundedString('query', 'the words to search for', 500).describe('What to search the web for'),
  max_results: integerBetween('max_results', 1, MAX_RESULTS)
    .default(10)
    .describe(`How many results to return (1–${MAX_RESULTS}, default 10)`),
  language: z
    .string({ error: 'language must be a language code such as "en" or "de-DE"' })
    .regex(/^[a-z]{2,3}(?:-[A-Za-z]{2,4})?$/, { error: 'language must be a language code such as "en" or "de-DE"' })
    .optional()
    .describe('Results in this language, e.g. "en" or "de-DE" (default: the provider\'s)'),
  time_range: z
    .enum(TIME_RANGES, { error: 'time_range must be one of "day", "week", "month", "year"' })
    .optional()
    .describe('Only pages from the last day, week, month or year'),
  read: integerBetween('read', 0, MAX_MANY_URLS)
    .default(0)
    .describe(
      'Also read the top N results (0–20, default 0) and return their content, within max_tokens shared fairly',
    ),
  ...manyReadShape,
};

function resultLines(hits: readonly SearchHit[]): string {
  return hits
    .map((hit, index) =>
      [`${index + 1}. ${hit.title}`, `   ${hit.url}`, ...(hit.snippet ? [`   ${hit.snippet}`] : [])].join('\n'),
    )
    .join('\n');
}

export const searchTool: ToolDefinition<typeof inputShape> = {
  name: 'search',
  title: 'Search the web',
  description:
    'Search the web and return ranked results (title, URL, snippet, source engine). With read: N, also read the ' +
    'top N results and return, as Markdown, the passages of each that best answer the query, within max_tokens ' +
    'shared fairly between them — one call instead of a search and N fetches.',
  tags: ['web', 'search'],
  inputShape,
  outputShape: {
    status: z.enum(OUTCOMES),
    query: z.string(),
    provider: z.string().describe('The search provider: "SearXNG" or "Brave"'),
    results: z.array(
      z.object({
        rank: z.number().int(),
        title: z.string(),
        url: z.string(),
        snippet: z.string(),
        engine: z.string().describe('Which engine found it'),
        published_date: z.string().optional(),
      }),
    ),
    ...manyResultShape,
  },
  annotations: { ...READ_ONLY_WEB, title: 'Search the web', idempotentHint: false },
  offered: (config: Config) => configuredProvider(config) !== undefined,
  async run(args, { engine, signal, onProgress }) {
    // Loaded with the first search, not with the server: it brings the fetcher (start-up, test/start-up.test.ts).
    const { searchWebFor } = await import('../runs/search-web.js');
    const searcher = searchWebFor(engine.config);
    const answer = await searcher.search(
      {
        query: args.query,
        maxResults: args.max_results,
        ...(args.language && { language: args.language }),
        ...(args.time_range && { timeRange: args.time_range }),
      },
      signal,
    );
    const results = answer.hits.map((hit, index) => ({
      rank: index + 1,
      title: hit.title,
      url: hit.url,
      snippet: hit.snippet,
      engine: hit.engine,
      ...(hit.publishedDate && { published_date: hit.publishedDate }),
    }));
    const base = { query: args.query, provider: answer.provider, results };
    if (answer.hits.length === 0) {
      const text = MANY_SENTENCES.noResults(args.query, answer.provider);
      return { text, structured: { status: 'empty', ...base, pages: [], cut_pages: 0, unfinished: [] } };
    }
    const list = `${MANY_SENTENCES.resultsHeading(results.length, args.query, answer.provider)}\n\n${resultLines(answer.hits)}`;
    const toRead = answer.hits.slice(0, args.read);
    if (toRead.length === 0) {
      return { text: list, structured: { status: 'ok', ...base, pages: [], cut_pages: 0, unfinished: [] } };
    }
    const options = manyReadOptions(args);
    const read = await readMany(engine, {
      entries: toRead.map((hit) => {
        const refused = searcher.providerResultError(hit.url);
        return { url: hit.url, options, ...(refused && { refused }) };
      }),
      maxTokens: args.max_tokens,
      deadlineMs: manyDeadlineMs(args),
      signal,
      preamble: `${list}\n\n${MANY_SENTENCES.readHeading(toRead.length)}`,
      onPage: (done, total, page) =>
        onProgress?.({ progress: done, total, message: MANY_SENTENCES.progress(done, total, page.url, page.status) }),
    });
    return { text: read.text, structured: { status: 'ok', ...base, ...structuredMany(read) } };
  },
};

export type SearchToolArguments = z.input<z.ZodObject<typeof inputShape>>;

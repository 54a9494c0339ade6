// The `web_scraper` tool of seeds/web-scraper-plan.md, all five milestones: structured JSON with readable text
// carrying `[n]` link markers, the references they point to (context, external, type), metadata, outline, quality
// metrics, optional word chunks and raw HTML; the seed's timeout (5–60 s) and milestone-4 messages for timeouts,
// connection errors, HTTP errors, rate limiting, size limits and non-HTML content.
//
// The seed's `status` is the HTTP status (200). SPEC's outcome (ok, truncated, not_html, …) is `outcome` in the
// JSON; ToolOutput.structured.status carries the same outcome for the front doors, and ToolOutput.data carries the
// seed-shaped JSON that MCP sends as structuredContent (declared by outputShape → outputSchema).
import { z } from 'zod';
import { quoteInput } from '../quote.js';
import type { PageContent } from '../engine/page-content.js';
import { OUTCOMES } from '../outcome.js';
import { FetchError, HttpStatusError, TimeoutError, errorMessage } from '../errors.js';
import type { ScrapedHtml } from '../extract/scrape.js';
import { chunkText, qualityOf } from '../output/scraper-json.js';
import {
  renderSkippedSentence,
  scraperCapSentences,
  scraperSentences,
  selectorMatchedNothing,
} from '../output/notices.js';
import { ageSeconds } from '../output/page-text.js';
import { ACTIONS_RESULT_SHAPE, structuredActions } from '../output/actions-text.js';
import { capLimit } from '../output/truncate.js';
import { prefixLengthWithinTokens, surelyOverTokens, tokensWithin } from '../tokens.js';
import { booleanArgument, integerBetween, urlArgument } from './arguments.js';
import { actionOptions, actionsShape } from './action-arguments.js';
import { renderOptions, renderShape } from './render-arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { selectOptions, selectShape } from './select-arguments.js';
import { structuredDataOptions, structuredDataShape } from './data-arguments.js';
import { STRUCTURED_DATA_SHAPE, structuredDataResult } from '../output/structured-data.js';
import { failureOutput } from './failure.js';
import { READ_ONLY_WEB, type ToolDefinition, type ToolOutput } from './types.js';

const inputShape = {
  url: urlArgument('The URL to fetch and parse'),
  include_html: booleanArgument('include_html', false, 'Include raw HTML in response'),
  include_chunks: booleanArgument('include_chunks', false, 'Split content into chunks'),
  chunk_size: integerBetween('chunk_size', 100, 10000).default(1000).describe('Words per chunk (default: 1000)'),
  timeout: integerBetween('timeout', 5, 60)
    .optional()
    .describe('Request timeout in seconds (default: FETCH_TIMEOUT, 10 s)'),
  ...renderShape,
  ...actionsShape,
  ...requestShape,
  ...selectShape,
  ...structuredDataShape,
};

const referenceShape = z.object({
  id: z.number().int(),
  url: z.string(),
  text: z.string(),
  context: z.string(),
  external: z.boolean(),
  type: z.enum(['a', 'img']),
});

const outputShape = {
  url: z.string().describe('The URL asked for'),
  final_url: z.string().describe('The URL after redirects'),
  status: z.number().int().describe('HTTP status of the response'),
  outcome: z.enum(OUTCOMES).describe('What the read found: ok, empty, needs_js, not_html, blocked, …'),
  fetched_at: z.string().describe('When the snapshot was fetched (ISO 8601, UTC)'),
  from_cache: z.boolean().describe('Served from the page cache (the outcome is what that read found)'),
  age_seconds: z.number().int().describe('How old the snapshot is, in seconds (0 for a fresh fetch)'),
  rendered: z.boolean().describe("Read from a headless browser's DOM after the page's scripts ran"),
  truncated: z.boolean().describe('Cut to stay within MAX_OUTPUT_TOKENS; `notice` says what was cut'),
  metadata: z.object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    language: z.string().nullable(),
    content_type: z.string().nullable(),
    content_length: z.number().int(),
    canonical_url: z.string().nullable(),
    author: z.string().nullable(),
    published_date: z.string().nullable(),
  }),
  text: z.string().describe('Readable text; [n] after a link is its id in references'),
  references: z.array(referenceShape),
  outline: z.array(z.object({ level: z.number().int(), text: z.string() })),
  quality: z.object({
    text_length: z.number().int(),
    word_count: z.number().int(),
    link_count: z.number().int(),
    likely_article: z.boolean(),
  }),
  hidden_blocks_dropped: z
    .number()
    .int()
    .describe('Hidden blocks holding text removed before reading (prompt-injection defence)'),
  chunks: z
    .array(
      z.object({
        id: z.string(),
        text: z.string(),
        references: z.array(z.number().int()),
        start_word: z.number().int(),
        end_word: z.number().int(),
      }),
    )
    .optional(),
  raw_html: z.string().optional(),
  notice: z.string().optional().describe('Why the result is partial or not HTML, when it is'),
  selector_matched: z.number().int().optional().describe('With selector: how many elements it matched'),
  actions: ACTIONS_RESULT_SHAPE,
  structured_data: STRUCTURED_DATA_SHAPE,
};

export type WebScraperResult = z.infer<z.ZodObject<typeof outputShape>>;

/** "2025-11-25T12:34:56Z", as the seed shows it. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The seed's milestone-4 messages; anything else keeps our own message. */
export function scraperErrorMessage(error: unknown, url: string, timeoutSeconds: number): string {
  if (error instanceof TimeoutError && error.code === 'TIMEOUT') return scraperSentences.timeout(url, timeoutSeconds);
  if (error instanceof HttpStatusError) {
    if (error.status === 429) {
      const header = error.page?.headers['retry-after'];
      return scraperSentences.rateLimited(header ?? error.retryAfterSeconds ?? 'unknown');
    }
    return scraperSentences.httpError(error.status, url);
  }
  if (error instanceof FetchError && error.code === 'CONNECT_FAILED') {
    const cause = (error as { cause?: unknown }).cause;
    return scraperSentences.connectionError(url, errorMessage(cause === undefined ? error : cause));
  }
  if (error instanceof FetchError && error.code === 'RESPONSE_TOO_LARGE') {
    return scraperSentences.tooLarge(errorMessage(error));
  }
  return errorMessage(error);
}

/**
 * A failed read in the result's own terms: `status` is the seed's HTTP status (0 when no response came: refused, timed
 * out, not allowed), the outcome is `outcome`, as on success, and `error` says what failed.
 */
function failure(error: unknown, url: string, timeoutSeconds: number): ToolOutput {
  const output = failureOutput(error);
  // The url is the caller's input: quoted within bounds (src/quote.ts) wherever the seed's message repeats it.
  const text = scraperErrorMessage(error, quoteInput(url), timeoutSeconds);
  const detailed = { ...(output.structured.error as Record<string, unknown>), message: text };
  const status = error instanceof HttpStatusError ? error.status : 0;
  const data = { status, outcome: output.structured.status, error: detailed };
  return { ...output, text, structured: { ...output.structured, error: detailed }, data };
}

const EMPTY_SCRAPE: ScrapedHtml = {
  text: '',
  references: [],
  outline: [],
  metadata: {
    title: null,
    description: null,
    language: null,
    canonical_url: null,
    author: null,
    published_date: null,
  },
  hiddenBlocksDropped: 0,
};

/**
 * The page's document: web_scraper's own for HTML; for other content, seed milestone 4 "graceful handling of
 * non-HTML content": say so, and still give the readable form (JSON pretty-printed, a feed as a list, a PDF's text,
 * a one-line description of binary content) that the same read produced.
 */
function scrapedOf(page: PageContent): { scraped: ScrapedHtml; notice?: string } {
  if (page.scraped) return { scraped: page.scraped };
  if (page.kind === 'html') return { scraped: EMPTY_SCRAPE }; // a Markdown twin or a failed extraction: no document
  return {
    scraped: { ...EMPTY_SCRAPE, text: page.content, metadata: { ...EMPTY_SCRAPE.metadata, title: page.title ?? null } },
    notice: scraperSentences.nonHtml(page.contentType ?? page.mediaType),
  };
}

/**
 * MAX_OUTPUT_TOKENS holds for this JSON too: raw_html is left out first, then `text` (and the chunks made from
 * it) is cut at a word. References, outline and metadata stay complete.
 */
async function fitTokenCap(
  result: WebScraperResult,
  chunkSize: number | undefined,
  cap: number,
): Promise<WebScraperResult> {
  // Counted only up to the cap (src/tokens.ts), and a text or page far over the cap is not even serialized: the
  // work is bounded by the cap, not by the page.
  const fits = async (value: WebScraperResult) =>
    !surelyOverTokens(value.text.length + (value.raw_html?.length ?? 0), cap) &&
    (await tokensWithin(JSON.stringify(value, null, 2), cap)) !== undefined;
  const size = async (value: WebScraperResult) => (await tokensWithin(JSON.stringify(value, null, 2), cap)) ?? cap;
  if (cap <= 0 || (await fits(result))) return result;
  let fitted: WebScraperResult = result;
  const notices: string[] = [];
  if (fitted.raw_html !== undefined) {
    const { raw_html: _html, ...rest } = fitted;
    fitted = rest;
    notices.push(scraperCapSentences.rawHtmlLeftOut);
  }
  // The page's declared data goes next when it alone, without any text, would pass the cap.
  if (fitted.structured_data !== undefined && !(await fits({ ...fitted, text: '', chunks: undefined }))) {
    const { structured_data: _data, ...rest } = fitted;
    fitted = rest;
    notices.push(scraperCapSentences.structuredDataLeftOut);
  }
  if (!(await fits(fitted))) {
    const overhead = await size({ ...fitted, text: '', chunks: fitted.chunks ? [] : undefined });
    // With chunks the words appear twice (text and chunks): each gets half of what is left.
    const budget = Math.floor(capLimit(Infinity, cap, overhead + 50) / (fitted.chunks ? 2 : 1));
    const cut = fitted.text
      .slice(0, await prefixLengthWithinTokens(fitted.text, budget))
      .replace(/\S*$/, '')
      .trimEnd();
    notices.push(scraperCapSentences.textCut(cut.length, fitted.text.length));
    const ids = fitted.references.map((reference) => reference.id);
    fitted = { ...fitted, text: cut, chunks: chunkSize ? chunkText(cut, ids, chunkSize) : undefined };
    if (!fitted.chunks) delete fitted.chunks;
  }
  const notice = [fitted.notice, ...notices].filter(Boolean).join('; ');
  return { ...fitted, truncated: true, notice };
}

export const webScraperTool: ToolDefinition<typeof inputShape> = {
  name: 'web_scraper',
  title: 'Scrape a web page into structured JSON',
  description:
    'Fetch a web page and extract readable text with numbered link references. Returns structured JSON with text, ' +
    'metadata, and a references array that maps [n] markers in the text to their URLs.',
  tags: ['web', 'scraper', 'fetch'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Scrape a web page into structured JSON' },
  async run(args, { engine, signal }) {
    const timeoutMs = args.timeout === undefined ? engine.config.fetchTimeoutMs : args.timeout * 1000;
    const timeoutSeconds = Math.round(timeoutMs / 100) / 10;
    const { selector, excludeSelectors } = selectOptions(args);
    const reading = {
      ...renderOptions(args),
      ...actionOptions(args),
      ...requestOptions(args),
      selector,
      excludeSelectors,
      ...structuredDataOptions(args),
    };
    let page: PageContent;
    try {
      // One read: the page is requested once, whatever its kind, with the caller's headers and max_age.
      const withoutRaw = !args.include_html;
      page = await engine.readPage(args.url, { signal, timeoutMs, want: 'scrape', withoutRaw, ...reading });
    } catch (error) {
      return failure(error, args.url, timeoutSeconds);
    }
    const { scraped, notice: kindNotice } = scrapedOf(page);
    const renderNotice = page.renderSkipped && renderSkippedSentence(page.renderSkipped);
    const unmatched = scraped.selectorMatched === 0 ? selectorMatchedNothing(page.finalUrl, selector) : undefined;
    const notice = [kindNotice, renderNotice, unmatched].filter(Boolean).join(' ') || undefined;
    const ids = scraped.references.map((reference) => reference.id);
    const full: WebScraperResult = {
      url: args.url,
      final_url: page.finalUrl,
      status: page.httpStatus,
      outcome: page.outcome,
      fetched_at: isoSeconds(page.fetchedAt),
      from_cache: page.fromCache,
      age_seconds: ageSeconds(page.fetchedAt),
      rendered: page.rendered,
      truncated: false,
      metadata: {
        title: scraped.metadata.title,
        description: scraped.metadata.description,
        language: scraped.metadata.language,
        content_type: page.contentType ?? null,
        content_length: page.rawLength ?? (page.raw.length || page.byteLength),
        canonical_url: scraped.metadata.canonical_url,
        author: scraped.metadata.author,
        published_date: scraped.metadata.published_date,
      },
      text: scraped.text,
      references: scraped.references,
      outline: scraped.outline,
      quality: await qualityOf(scraped.text, scraped.references.length),
      hidden_blocks_dropped: scraped.hiddenBlocksDropped,
      ...(args.include_chunks ? { chunks: chunkText(scraped.text, ids, args.chunk_size) } : {}),
      // Clean at its source (readPage), before JSON.stringify would write controls as `\u001b` escapes.
      ...(args.include_html && page.kind === 'html' ? { raw_html: page.raw } : {}),
      ...(notice ? { notice } : {}),
      ...(scraped.selectorMatched !== undefined && { selector_matched: scraped.selectorMatched }),
      ...(page.actions && { actions: structuredActions(page) }),
      ...(page.structuredData && { structured_data: structuredDataResult(page.structuredData) }),
    };
    const result = await fitTokenCap(
      full,
      args.include_chunks ? args.chunk_size : undefined,
      engine.config.maxOutputTokens,
    );
    return {
      text: JSON.stringify(result, null, 2),
      structured: {
        status: result.outcome,
        url: result.url,
        final_url: result.final_url,
        http_status: result.status,
        from_cache: result.from_cache,
        age_seconds: result.age_seconds,
        rendered: result.rendered,
        truncated: result.truncated,
        hidden_blocks_dropped: result.hidden_blocks_dropped,
      },
      data: result,
    };
  },
};

// Reading several URLs in one call (issue 26 item 2): `read_many`, and `search` with `read`. Every page goes through
// the one reading path, engine.readPage, all at once: the request queue under it (src/fetch/queue.ts) spaces the
// requests to one host by PER_DOMAIN_INTERVAL and bounds them by MAX_CONCURRENT, as for any other call, so pages on
// different hosts are read concurrently and pages on one host take their turns.
//
// One deadline for the whole call: what finished by then is returned, and what did not is named (its read is
// cancelled). The caller's own cancellation cancels every read and ends the call. The pages then share one token
// budget — the caller's max_tokens and MAX_OUTPUT_TOKENS, less the frame (headers, notes) — fairly: max-min, so a
// page that needs less than an equal share leaves the rest to the others, and a cut page says where it continues.
import { setMaxListeners } from 'node:events';
import type { Engine } from '../engine/engine.js';
import type { PageContent, ReadOptions } from '../engine/page-content.js';
import { errorMessage, TimeoutError, WebReaderError } from '../errors.js';
import { MANY_SENTENCES, selectorMatchedNothing } from '../output/notices.js';
import {
  manySummaryText,
  MIN_PAGE_SHARE,
  pageBlock,
  pageHeader,
  renderManyText,
  widestCutNote,
  type ManyPage,
} from '../output/many-report.js';
import { statusLine } from '../output/page-text.js';
import { pageBody } from '../output/answer-text.js';
import { frameTokens, sliceContent } from '../output/truncate.js';
import { isNothingToRead, outcomeOfError } from '../outcome.js';
import { countTokensAsync, tokenBound } from '../tokens.js';

export interface ManyEntry {
  readonly url: string;
  readonly options: ReadOptions;
  /** Refused before any read (a search result on the provider's own address): the page's failure. */
  readonly refused?: Error;
}

export interface ReadManyRequest {
  readonly entries: readonly ManyEntry[];
  /** The caller's budget for the whole text; undefined: MAX_OUTPUT_TOKENS alone. */
  readonly maxTokens: number | undefined;
  /** The call's deadline: unfinished reads are cancelled then, and named. */
  readonly deadlineMs: number;
  readonly signal?: AbortSignal;
  /** Called as each page finishes, in the order they finish. */
  readonly onPage?: (done: number, total: number, page: { url: string; status: string }) => void;
  /** Lines placed before the pages in the text (search's results), counted in the frame. */
  readonly preamble?: string;
}

export interface ReadManyResult {
  readonly pages: readonly ManyPage[];
  readonly text: string;
  /** Tokens the pages shared; undefined: no limit. */
  readonly budget: number | undefined;
  readonly cut: number;
}

type Settled = { readonly page: PageContent } | { readonly error: unknown };

/** Max-min fair shares of `budget` for `needs`: each gets at most its need; what one leaves goes to the others. */
export function fairShares(needs: readonly number[], budget: number): number[] {
  const shares = needs.map(() => 0);
  const order = needs.map((need, index) => ({ need, index })).sort((a, b) => a.need - b.need);
  let left = Math.max(0, budget);
  order.forEach(({ need, index }, position) => {
    const share = Math.min(need, Math.floor(left / (order.length - position)));
    shares[index] = share;
    left -= share;
  });
  return shares;
}

/** Reads every entry until the deadline; undefined in a slot: not finished by then. */
async function readAll(engine: Engine, request: ReadManyRequest): Promise<(Settled | undefined)[]> {
  const { entries, signal } = request;
  const settled: (Settled | undefined)[] = entries.map(() => undefined);
  const reads = new AbortController();
  // Every read listens to this one signal, through each step (load, queue, fetch, worker): many more than Node's
  // default 10 listeners, none of them a leak (all are removed as each read ends).
  setMaxListeners(0, reads.signal);
  const onCancel = () => reads.abort(signal?.reason);
  if (signal?.aborted) throw signal.reason;
  signal?.addEventListener('abort', onCancel, { once: true });
  let done = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, request.deadlineMs)));
  const cancelled = new Promise<void>((resolve) => reads.signal.addEventListener('abort', () => resolve()));
  const all = entries.map(async (entry, index) => {
    try {
      if (entry.refused) throw entry.refused;
      settled[index] = { page: await engine.readPage(entry.url, { ...entry.options, signal: reads.signal }) };
    } catch (error) {
      if (reads.signal.aborted) return; // cancelled or past the deadline: named below, not a failure of the page
      settled[index] = { error };
    }
    done += 1;
    const result = settled[index]!;
    const status = 'page' in result ? result.page.outcome : outcomeOfError(result.error);
    request.onPage?.(done, entries.length, { url: entry.url, status });
  });
  try {
    await Promise.race([Promise.all(all), deadline, cancelled]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCancel);
    // Past the deadline: the reads still running are cancelled (their requests dropped), not waited for.
    if (!reads.signal.aborted) reads.abort(new TimeoutError('', request.deadlineMs));
  }
  if (signal?.aborted) throw signal.reason;
  return settled;
}

/** A finished page before the budget is shared: its whole content and what it needs. */
function describe(entry: ManyEntry, number: number, result: Settled | undefined, seconds: number): ManyPage {
  const base = { number, url: entry.url, content: '' };
  if (result === undefined) {
    const error = { code: 'TIMEOUT', message: MANY_SENTENCES.unfinished(seconds) };
    return { ...base, status: 'error', finished: false, error };
  }
  if ('error' in result) {
    const code = result.error instanceof WebReaderError ? result.error.code : 'INTERNAL';
    const error = { code, message: errorMessage(result.error) };
    return { ...base, status: outcomeOfError(result.error), finished: true, error };
  }
  const { page } = result;
  const content = isNothingToRead(page.outcome)
    ? statusLine(page)
    : page.selectorMatched === 0
      ? selectorMatchedNothing(page.url, entry.options.selector)
      : pageBody(page, 3);
  return {
    ...base,
    status: page.outcome,
    finished: true,
    finalUrl: page.finalUrl,
    ...(page.title !== undefined && { title: page.title }),
    fromCache: page.fromCache,
    content,
    ...(page.answer && { answered: true }),
    ...(page.structuredData && { structuredData: page.structuredData }),
  };
}

/** Reads the entries, shares the budget (the caller's max_tokens and MAX_OUTPUT_TOKENS), and words the result. */
export async function readMany(engine: Engine, request: ReadManyRequest): Promise<ReadManyResult> {
  const settled = await readAll(engine, request);
  const seconds = Math.round(request.deadlineMs / 100) / 10;
  const described = request.entries.map((entry, index) => describe(entry, index + 1, settled[index], seconds));
  const total = described.length;
  const cap = engine.config.maxOutputTokens;
  const limit = Math.min(request.maxTokens ?? Infinity, cap > 0 ? cap : Infinity);
  // Pages that surely fit the limit whole, frame and all (tokenBound: no tokenizer), are returned whole and not
  // counted, as a single page's text is (output/truncate.ts frameTokens).
  const bound = described.reduce((sum, page) => sum + tokenBound(pageBlock(page, total)), 0);
  const surelyFits = limit === Infinity || bound + tokenBound(request.preamble ?? '') + 64 <= limit;
  if (surelyFits) {
    const summary = { total, budget: limit === Infinity ? undefined : limit, cut: 0 };
    const text = renderManyText(described, summary);
    return { pages: described, text: request.preamble ? `${request.preamble}\n\n${text}` : text, ...summary };
  }
  const needs = await Promise.all(described.map((page) => countTokensAsync(page.content)));
  const counted = described.map((page, index) => ({ ...page, tokens: needs[index]!, totalTokens: needs[index]! }));
  // The frame: the summary (at its widest: every page cut, its share and max_tokens both named), the preamble, and
  // each page's header, failure and widest cut note.
  const frame = await frameTokens(limit, [
    manySummaryText(counted, { total, budget: limit - 1, limit, cut: total }),
    request.preamble ?? '',
    ...described.map((page, index) =>
      [
        pageHeader(page, total),
        page.error ? MANY_SENTENCES.pageFailed(page.error.code, page.error.message) : '',
        widestCutNote(page, needs[index]!, page.content.length),
      ].join('\n\n'),
    ),
  ]);
  const budget = Math.max(0, limit - frame);
  const shares = fairShares(needs, budget);
  let cut = 0;
  const pages = await Promise.all(
    described.map(async (page, index): Promise<ManyPage> => {
      const need = needs[index]!;
      if (shares[index]! >= need) return counted[index]!;
      cut += 1;
      const slice = await sliceContent(page.content, { maxLength: 0, startIndex: 0, maxTokens: shares[index]! });
      return {
        ...page,
        content: slice.text.trimEnd(),
        tokens: await countTokensAsync(slice.text.trimEnd()),
        totalTokens: need,
        nextStartIndex: slice.nextIndex ?? page.content.length,
      };
    }),
  );
  // Pages cut to almost nothing: the caller's max_tokens is the cause, and the summary says what would do.
  const starved = cut > 0 && budget < MIN_PAGE_SHARE * cut;
  const summary = { total, budget, limit, cut, ...(starved && { starvedBy: { limit, frame } }) };
  const text = renderManyText(pages, summary);
  return { pages, text: request.preamble ? `${request.preamble}\n\n${text}` : text, budget, cut };
}

// Length limits and continuation (seed fetch-tool.md "Length Limiting", SPEC "Continuation" and "Context-safe by
// default"). Content is sliced from `startIndex`, cut at `maxLength` characters, and, when the caller gave no
// smaller limit, at the server-wide token cap. Every cut says so and names the start_index that continues.
// The one cap rule lives here too (capLimit): MAX_OUTPUT_TOKENS lowers a caller's limit, with the result's frame
// (heading, notices, a crawl's summary) counted inside the cap; page text, link lists, map, read_url, web_scraper
// and crawl all ask it.
import { InvalidArgumentError } from '../errors.js';
import { countTokensAsync, prefixLengthWithinTokens, tokenBound, tokensWithin } from '../tokens.js';
import { startIndexPastEnd, truncationSentence } from './notices.js';

// Tokens kept free for each seam between a result's parts: a '\n\n' join can re-count a token or two.
const SEAM_TOKENS = 4;

/**
 * The one cap rule (SPEC "Context-safe by default"): MAX_OUTPUT_TOKENS (`cap`; 0: no cap) lowers a caller's own
 * token limit (`requested`; Infinity: none) and never raises it, less the tokens the result's frame takes inside the
 * cap (`frame`, from frameTokens). At least 1 under a cap: a frame larger than a tiny cap leaves its body one token.
 */
export function capLimit(requested: number, cap: number, frame = 0): number {
  if (cap <= 0) return requested;
  return Math.min(requested, Math.max(1, cap - frame));
}

/** True when `cap` lowered `requested` (the result says so). */
export function loweredByCap(requested: number, cap: number, frame = 0): boolean {
  return capLimit(requested, cap, frame) < requested;
}

/** True when `text` fits the cap whole (always without a cap). */
export async function fitsCap(text: string, cap: number): Promise<boolean> {
  return cap <= 0 || (await tokensWithin(text, cap)) !== undefined;
}

/**
 * The tokens a result's frame takes inside the cap: its parts (heading, notices; a notice with its largest numbers)
 * as they are joined, with room for the seams between them and the body. 0 without a cap: nothing is counted.
 *
 * Given the `body` the frame goes around, and when frame and body surely fit the cap together (tokenBound, no
 * tokenizer), it returns the frame's bound instead of its count: the body then surely fits what is left, and
 * sliceContent keeps it whole without counting, as the exact count would have. A small page loads no tokenizer.
 */
export async function frameTokens(cap: number, parts: readonly string[], body?: string): Promise<number> {
  if (cap <= 0) return 0;
  const present = parts.filter((part) => part !== '');
  const seams = SEAM_TOKENS * (present.length + 1);
  const joined = present.join('\n\n');
  if (body !== undefined) {
    const bound = tokenBound(joined) + seams;
    if (bound + tokenBound(body) <= cap) return bound;
  }
  return (await countTokensAsync(joined)) + seams;
}

export interface SliceOptions {
  /** Characters to return; 0 means no character limit. */
  readonly maxLength: number;
  /** Character offset to start from (a continuation). */
  readonly startIndex: number;
  /** Tokens of the slice, from capLimit (MAX_OUTPUT_TOKENS less the frame); Infinity: no token limit. */
  readonly maxTokens: number;
}

export interface SliceResult {
  readonly text: string;
  /** Length of the whole content, before slicing. */
  readonly totalLength: number;
  /** Offset of the first character not returned, when something is left; undefined when the end was reached. */
  readonly nextIndex: number | undefined;
  /** Which limit cut the content: the caller's max_length or the server's token cap. */
  readonly limitedBy: 'max_length' | 'max_output_tokens' | undefined;
}

// A cut made for the token cap backs off to a line or word break when one is this close, so a sentence or a
// Markdown construct is not split mid-word.
const CLEAN_BREAK_WINDOW = 200;

function cleanBreak(text: string, end: number): number {
  const newline = text.lastIndexOf('\n', end - 1);
  if (newline > 0 && end - newline <= CLEAN_BREAK_WINDOW) return newline + 1;
  const space = text.lastIndexOf(' ', end - 1);
  if (space > 0 && end - space <= CLEAN_BREAK_WINDOW) return space + 1;
  return end;
}

/** Async: the token cap is counted in slices with the event loop free between them (src/tokens.ts). */
export async function sliceContent(content: string, options: SliceOptions): Promise<SliceResult> {
  const start = Math.min(options.startIndex, content.length);
  let rest = content.slice(start);
  let limitedBy: SliceResult['limitedBy'];
  if (options.maxLength > 0 && rest.length > options.maxLength) {
    rest = rest.slice(0, options.maxLength);
    limitedBy = 'max_length';
  }
  // The token cap applies only when the caller gave no explicit limit that is smaller: a max_length whose
  // characters already fit the cap is the caller's choice and is honoured as it is.
  if (options.maxTokens !== Infinity) {
    const fits = await prefixLengthWithinTokens(rest, options.maxTokens);
    if (fits < rest.length) {
      rest = rest.slice(0, cleanBreak(rest, fits));
      limitedBy = 'max_output_tokens';
    }
  }
  const end = start + rest.length;
  return {
    text: rest,
    totalLength: content.length,
    nextIndex: end < content.length ? end : undefined,
    limitedBy,
  };
}

/**
 * The seed's truncation notice, verbatim, followed by the exact start_index that continues. Empty when nothing
 * was cut: no notice invites a continuation when nothing is left.
 */
export function truncationNotice(result: SliceResult, toolName: string): string {
  if (result.nextIndex === undefined || result.limitedBy === undefined) return '';
  return truncationSentence({
    limit: result.text.length,
    totalLength: result.totalLength,
    nextIndex: result.nextIndex,
    byTokens: result.limitedBy === 'max_output_tokens',
    toolName,
  });
}

/** The longest truncation notice a content of `totalLength` characters can get: what a frame reserves for it. */
export function widestTruncationNotice(totalLength: number, toolName: string): string {
  return truncationSentence({
    limit: totalLength,
    totalLength: 2 * totalLength,
    nextIndex: totalLength,
    byTokens: true,
    toolName,
  });
}

/** A start_index at or past the end is a mistake the agent can fix: say so instead of returning nothing. */
export function checkStartIndex(startIndex: number, length: number, what?: string): void {
  if (startIndex > 0 && startIndex >= length) {
    throw new InvalidArgumentError('start_index', startIndexPastEnd(startIndex, length, what));
  }
}

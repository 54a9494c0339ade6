// Length limits and continuation (seed fetch-tool.md "Length Limiting", SPEC "Continuation" and "Context-safe by
// default"). Content is sliced from `startIndex`, cut at `maxLength` characters, and, when the caller gave no
// smaller limit, at the server-wide token cap. Every cut says so and names the start_index that continues.
import { InvalidArgumentError } from '../errors.js';
import { prefixLengthWithinTokens } from '../tokens.js';
import { startIndexPastEnd, truncationSentence } from './notices.js';

export interface SliceOptions {
  /** Characters to return; 0 means no character limit. */
  readonly maxLength: number;
  /** Character offset to start from (a continuation). */
  readonly startIndex: number;
  /** MAX_OUTPUT_TOKENS; 0 disables the cap. */
  readonly maxOutputTokens: number;
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
  if (options.maxOutputTokens > 0) {
    const fits = await prefixLengthWithinTokens(rest, options.maxOutputTokens);
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

/** A start_index at or past the end is a mistake the agent can fix: say so instead of returning nothing. */
export function checkStartIndex(startIndex: number, length: number, what?: string): void {
  if (startIndex > 0 && startIndex >= length) {
    throw new InvalidArgumentError('start_index', startIndexPastEnd(startIndex, length, what));
  }
}

// Whole-line limits for link lists (seed web-tool.md "Length Limiting": in links mode "complete lines are added
// until adding another full line would exceed the specified limit"), with SPEC "Continuation": a cut list names the
// start_index that continues it, and the server-wide token cap applies when no smaller limit was given.
import { countTokens } from '../tokens.js';

export interface LineLimitOptions {
  /** Characters of the list (lines and the newlines between them); 0 means no limit. */
  readonly maxLength: number;
  /** Character offset into the whole list where this part starts; must be a line start (else the next one). */
  readonly startIndex: number;
  /** MAX_OUTPUT_TOKENS; 0 disables the cap. */
  readonly maxOutputTokens: number;
}

export interface LineLimitResult {
  readonly lines: string[];
  /** Length of the whole list, lines joined with '\n'. */
  readonly totalLength: number;
  /** Offset of the first line not returned, or undefined when the list was returned to its end. */
  readonly nextIndex: number | undefined;
  readonly limitedBy: 'max_length' | 'max_output_tokens' | undefined;
}

export function limitLines(all: readonly string[], options: LineLimitOptions): LineLimitResult {
  const offsets: number[] = [];
  let offset = 0;
  for (const line of all) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const totalLength = Math.max(0, offset - 1);
  let first = offsets.findIndex((start) => start >= options.startIndex);
  if (first < 0) first = all.length;
  const lines: string[] = [];
  let length = 0;
  let limitedBy: LineLimitResult['limitedBy'];
  for (let index = first; index < all.length; index++) {
    const added = all[index]!.length + (lines.length > 0 ? 1 : 0);
    if (options.maxLength > 0 && length + added > options.maxLength) {
      limitedBy = 'max_length';
      break;
    }
    lines.push(all[index]!);
    length += added;
  }
  // The token cap, on whole lines too: drop lines from the end until the list fits.
  if (options.maxOutputTokens > 0 && countTokens(lines.join('\n')) > options.maxOutputTokens) {
    let low = 0;
    let high = lines.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (countTokens(lines.slice(0, mid).join('\n')) <= options.maxOutputTokens) low = mid;
      else high = mid - 1;
    }
    lines.length = low;
    limitedBy = 'max_output_tokens';
  }
  const next = first + lines.length;
  return { lines, totalLength, nextIndex: next < all.length ? offsets[next] : undefined, limitedBy };
}

/**
 * The seed's truncation notice with the caller's `max_length` (or, for the token cap, the characters returned),
 * then the start_index that continues. Empty when the list was returned to its end.
 */
export function lineTruncationNotice(result: LineLimitResult, toolName: string, maxLength: number): string {
  if (result.nextIndex === undefined || result.limitedBy === undefined) return '';
  const byTokens = result.limitedBy === 'max_output_tokens';
  const limit = byTokens ? result.lines.join('\n').length : maxLength;
  const why = byTokens ? ' to stay within MAX_OUTPUT_TOKENS' : '';
  return (
    `<error>Content truncated. The output has been limited to ${limit} characters</error>\n` +
    `<error>${result.totalLength - result.nextIndex} more characters${why}: call ${toolName} again with ` +
    `start_index=${result.nextIndex} to continue.</error>`
  );
}

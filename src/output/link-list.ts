// Whole-line limits for link lists (seed web-tool.md "Length Limiting": in links mode "complete lines are added
// until adding another full line would exceed the specified limit"), with SPEC "Continuation": a cut list names the
// start_index that continues it, and the server-wide token cap applies when no smaller limit was given.
import type { PageContent } from '../engine/page-content.js';
import { isSameSite, rankLinks, type RankedLink } from '../extract/link-set.js';
import { ageSeconds } from './page-text.js';
import { prefixLengthWithinTokens, tokensWithin } from '../tokens.js';
import { truncationSentence } from './notices.js';
import { z } from 'zod';

/**
 * Longest link text or URL shown whole in one listed link line (links, web links mode, extract_links, read_url's
 * links). A page can hold a link whose text is one 100,000-character word; listed whole it would fill the output
 * cap alone. Longer parts are cut here with an ellipsis, and the line says so by the ellipsis itself.
 */
export const MAX_LINK_PART_LENGTH = 1000;

/** `part` (a link's text or URL) at most MAX_LINK_PART_LENGTH characters, cut with '…' when longer. */
export function shortenLinkPart(part: string): string {
  if (part.length <= MAX_LINK_PART_LENGTH) return part;
  let end = MAX_LINK_PART_LENGTH - 1;
  const last = part.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair together
  return `${part.slice(0, end)}…`;
}

export interface LineLimitOptions {
  /** Characters of the list (lines and the newlines between them); 0 means no limit. */
  readonly maxLength: number;
  /** Character offset into the whole list where this part starts; must be a line start (else the next one). */
  readonly startIndex: number;
  /** Tokens of the list, from capLimit (src/output/truncate.ts); Infinity: no token limit. */
  readonly maxTokens: number;
}

export interface LineLimitResult {
  readonly lines: string[];
  /** Length of the whole list, lines joined with '\n'. */
  readonly totalLength: number;
  /** Offset of the first line not returned, or undefined when the list was returned to its end. */
  readonly nextIndex: number | undefined;
  readonly limitedBy: 'max_length' | 'max_output_tokens' | undefined;
}

/** Async: the token cap is counted in slices with the event loop free between them (src/tokens.ts). */
export async function limitLines(all: readonly string[], options: LineLimitOptions): Promise<LineLimitResult> {
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
  // The token cap, on whole lines too: keep the lines that end inside the prefix within the cap, then drop lines
  // from the end while the list still does not fit (a prefix of whole lines re-counts a token or two apart).
  // Work is bounded by the cap, not by the list.
  if (options.maxTokens !== Infinity) {
    const joined = lines.join('\n');
    const fits = await prefixLengthWithinTokens(joined, options.maxTokens);
    if (fits < joined.length) {
      let kept = 0;
      for (let end = 0; kept < lines.length && end + lines[kept]!.length <= fits; kept++) {
        end += lines[kept]!.length + 1;
      }
      lines.length = kept;
      while (lines.length > 0 && (await tokensWithin(lines.join('\n'), options.maxTokens)) === undefined) {
        lines.pop();
      }
      limitedBy = 'max_output_tokens';
    }
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
  return truncationSentence({
    limit,
    totalLength: result.totalLength,
    nextIndex: result.nextIndex,
    byTokens,
    toolName,
  });
}

/** One line per link, as the seeds show it: `- Text: url`, or `- url` without titles or text. */
export function linkLine(link: RankedLink, titles: boolean): string {
  const url = shortenLinkPart(link.url);
  return titles && link.text !== '' ? `- ${shortenLinkPart(link.text)}: ${url}` : `- ${url}`;
}

export function markdownLink(text: string, url: string): string {
  const label = shortenLinkPart(text || url).replace(/[[\]\\]/g, '\\$&');
  return `[${label}](${shortenLinkPart(url).replace(/[()\s]/g, (c) => encodeURIComponent(c))})`;
}

/** A page's same-site links, ranked (frequency, then first appearance): the links tool and web's links mode. */
export function siteLinks(page: PageContent): RankedLink[] {
  const links = page.linkList?.links ?? [];
  return rankLinks(links.filter((link) => isSameSite(link.url, page.finalUrl)));
}

/** linkPageSummary's fields as a schema (outputSchema of links and of web's links mode), kept beside it. */
export const LINK_PAGE_SHAPE = {
  url: z.string().describe('The URL asked for'),
  final_url: z.string().describe('Where it led, after redirects'),
  http_status: z.number().int(),
  from_cache: z.boolean(),
  age_seconds: z.number().int().describe('How old the snapshot is'),
  rendered: z.boolean().describe('Read through a browser (RENDER_JS)'),
  hidden_blocks_dropped: z.number().int().optional(),
  fetched_at: z.string().describe('ISO 8601'),
};

/** The fields every link-listing result carries about the page the links were read from. */
export function linkPageSummary(url: string, page: PageContent): Record<string, unknown> {
  return {
    url,
    final_url: page.finalUrl,
    http_status: page.httpStatus,
    from_cache: page.fromCache,
    age_seconds: ageSeconds(page.fetchedAt),
    rendered: page.rendered,
    hidden_blocks_dropped: page.hiddenBlocksDropped,
    fetched_at: page.fetchedAt.toISOString(),
  };
}

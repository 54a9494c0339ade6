// The crawl's token budget, held exactly (SPEC "Crawl budgets that hold exactly"). Each page becomes one Markdown
// section; its tokens are counted with the same tokenizer as the output cap (src/tokens.ts). A page that does not
// fit in what is left is cut at a clean boundary — a paragraph, else a line, else a word — with a notice inside
// the section, and the notice's tokens are part of the count. When so little is left that not even
// MIN_CUT_CONTENT_TOKENS of content would fit, the page is left out instead (the crawler lists it as skipped
// for budget). Pure.
import { countTokensAsync, prefixLengthWithinTokens, tokensWithin } from '../tokens.js';

/** Below this many tokens of content, a cut page would be a heading and a notice: leave it out instead. */
export const MIN_CUT_CONTENT_TOKENS = 50;

// How far back from the token limit a cut may move to reach a paragraph (share of the prefix) or a line/word
// break (characters).
const PARAGRAPH_WINDOW_SHARE = 0.3;
const LINE_WINDOW = 200;

export interface PageSectionInput {
  readonly index: number;
  readonly title: string;
  readonly url: string;
  readonly content: string;
}

export interface FittedSection {
  /** The Markdown section, ending in a blank line so sections concatenate. */
  readonly text: string;
  readonly tokens: number;
  /** Characters of the page's content included (all of them unless cut). */
  readonly shownLength: number;
  readonly isCut: boolean;
}

/** `## [n] Title`, the URL, the content: the section one page gets in the crawl's Markdown. */
export function pageSection(page: PageSectionInput, content = page.content): string {
  const title = page.title.replace(/\s+/g, ' ').trim() || page.url;
  return `## [${page.index}] ${title}\n\nURL: ${page.url}\n\n${content.trim()}\n\n`;
}

export function cutNotice(shown: number, total: number, budget: number): string {
  return (
    `\n\n<error>Page cut at ${shown} of ${total} characters to stay within the crawl budget of ${budget} ` +
    `tokens (max_tokens).</error>`
  );
}

/** The end of a clean cut at or before `end`: a paragraph, a line or a word boundary, never inside a code fence. */
export function cleanCutEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  let cut = end;
  const paragraph = text.lastIndexOf('\n\n', end);
  const line = text.lastIndexOf('\n', end);
  const space = text.lastIndexOf(' ', end);
  if (paragraph > 0 && end - paragraph <= Math.max(LINE_WINDOW, end * PARAGRAPH_WINDOW_SHARE)) cut = paragraph;
  else if (line > 0 && end - line <= LINE_WINDOW) cut = line;
  else if (space > 0 && end - space <= LINE_WINDOW) cut = space;
  // An odd number of fence lines means the cut falls inside a code block: cut before the block instead, so the
  // rest of the output is not read as code.
  const fences = text.slice(0, cut).match(/^ {0,3}(?:```|~~~)/gm) ?? [];
  if (fences.length % 2 === 1) {
    const lastFence = text.slice(0, cut).search(/^ {0,3}(?:```|~~~)(?![\s\S]*^ {0,3}(?:```|~~~))/m);
    if (lastFence > 0) cut = lastFence;
  }
  return cut;
}

/**
 * The page's section within `available` tokens: whole when it fits, else cut cleanly with a notice, else
 * undefined (too little room). `budget` is the crawl's whole budget, named in the notice.
 */
export async function fitSection(
  page: PageSectionInput,
  available: number,
  budget: number,
): Promise<FittedSection | undefined> {
  const whole = pageSection(page);
  // Counted only up to what is left: the work is bounded by the budget, not by the page (src/tokens.ts).
  const wholeTokens = await tokensWithin(whole, available);
  if (wholeTokens !== undefined) {
    return { text: whole, tokens: wholeTokens, shownLength: page.content.length, isCut: false };
  }
  const content = page.content.trim();
  const frame = await countTokensAsync(pageSection(page, cutNotice(content.length, content.length, budget)));
  let contentBudget = available - frame;
  // Token counts of a prefix plus the frame are not strictly additive, so check the result and tighten.
  for (let attempt = 0; attempt < 8 && contentBudget >= MIN_CUT_CONTENT_TOKENS; attempt++) {
    const shown = cleanCutEnd(content, await prefixLengthWithinTokens(content, contentBudget));
    const kept = content.slice(0, shown).trimEnd();
    if (kept === '') return undefined;
    const text = pageSection(page, kept + cutNotice(kept.length, content.length, budget));
    const tokens = await countTokensAsync(text);
    if (tokens <= available) return { text, tokens, shownLength: kept.length, isCut: true };
    contentBudget -= tokens - available;
  }
  return undefined;
}

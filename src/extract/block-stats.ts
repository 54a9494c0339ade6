// What extraction measures of each block, once, bottom-up: text, link text and commas, and the weight of its class
// or id (Readability's). Selection (main-content.ts), joining (gather.ts) and cleaning (clean-content.ts) all judge
// blocks by these numbers.
import { cleanText } from '../clean-text.js';
import { OUTCOME_READABLE_CHARS } from '../outcome.js';
import { isElement, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';
import { textChars, type ExplainNumbers } from './trace.js';
import { LAYOUT_WORDS, NEGATIVE, POSITIVE } from './vocabulary.js';

/** Text a block needs to count as a paragraph, and under which a block without a picture is a fragment. */
export const PARAGRAPH_MIN_CHARS = 25;

/** One element's measured numbers; `score` and `isCandidate` are filled in by the scoring pass. */
export interface BlockStats {
  /** Characters of text in the subtree (whitespace collapsed roughly: runs count once). */
  text: number;
  /** Characters of text inside links in the subtree. */
  linkText: number;
  /** Commas in the subtree's text (Readability's "this looks like prose" signal). */
  commas: number;
  score: number;
  isCandidate: boolean;
}

/** Fills `stats` bottom-up with text, link text and comma counts. */
export function measure(el: HtmlElement, stats: Stats, insideLink: boolean): BlockStats {
  const node: BlockStats = { text: 0, linkText: 0, commas: 0, score: 0, isCandidate: false };
  const isLink = insideLink || el.name === 'a';
  for (const child of el.children) {
    if (child.type === 'text') {
      const length = trimmedLength(child.data);
      node.text += length;
      if (isLink) node.linkText += length;
      node.commas += countCommas(child.data);
    } else if (isElement(child)) {
      const inner = measure(child, stats, isLink);
      node.text += inner.text;
      node.linkText += inner.linkText;
      node.commas += inner.commas;
    }
  }
  stats.set(el, node);
  return node;
}

export function trimmedLength(text: string): number {
  // Runs of whitespace count as one character, as a reader sees them.
  let length = 0;
  let inSpace = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isSpace = code === 32 || code === 10 || code === 9 || code === 13 || code === 12;
    if (!isSpace) length++;
    else if (!inSpace) length++;
    inSpace = isSpace;
  }
  return length;
}

// Commas of several scripts: Latin, CJK (、，), Arabic (،).
export function countCommas(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 || code === 0x3001 || code === 0xff0c || code === 0x060c) count++;
  }
  return count;
}

export function linkDensity(stats: BlockStats): number {
  return stats.text === 0 ? 0 : stats.linkText / stats.text;
}

export function classAndId(el: HtmlElement): string {
  const { class: className, id } = el.attribs;
  return className && id ? `${className} ${id}` : (className ?? id ?? '');
}

/**
 * Readability's class weight: +25 for a content-like class or id, −25 for a boilerplate-like one — unless only layout
 * words make it look like boilerplate and the block reads as prose (`LAYOUT_WORDS`).
 */
export function classWeight(el: HtmlElement): number {
  let weight = 0;
  let prose: boolean | undefined;
  for (const value of [el.attribs.class, el.attribs.id]) {
    if (!value) continue;
    if (NEGATIVE.test(value) && !(onlyLayoutWords(value, NEGATIVE) && (prose ??= readsAsProse(el)))) weight -= 25;
    if (POSITIVE.test(value)) weight += 25;
  }
  return weight;
}

/** Whether `pattern` matches `names` only through layout words (`LAYOUT_WORDS`), no function word. */
export function onlyLayoutWords(names: string, pattern: RegExp): boolean {
  return !pattern.test(names.replace(LAYOUT_WORDS, ' '));
}

// What reads as prose: this much text outside links, and most of the block's text.
const PROSE_MIN_CHARS = 150;
const PROSE_MIN_SHARE = 0.6;

/** A block of text a reader reads (prose outside links, most of its text), not a strip of links or labels. */
export function readsAsProse(el: HtmlElement): boolean {
  let prose = 0;
  let total = 0;
  const visit = (node: HtmlElement, inLink: boolean): void => {
    for (const child of node.children) {
      if (child.type === 'text') {
        const length = trimmedLength(child.data);
        total += length;
        if (!inLink) prose += length;
      } else if (isElement(child)) visit(child, inLink || child.name === 'a');
    }
  };
  visit(el, false);
  return prose >= PROSE_MIN_CHARS && prose >= total * PROSE_MIN_SHARE;
}

/** What a block was judged on: its score (when it is a candidate), text length and link density. */
export function numbersOf(el: HtmlElement, stats: Stats): ExplainNumbers {
  const node = stats.get(el);
  if (!node) return { chars: textChars(el) };
  const measured = { chars: node.text, linkDensity: linkDensity(node) };
  return node.isCandidate ? { score: node.score, ...measured } : measured;
}

export function hasDescendant(el: HtmlElement, name: string): boolean {
  for (const child of el.children) {
    if (isElement(child) && (child.name === name || hasDescendant(child, name))) return true;
  }
  return false;
}

/** Characters of text outside links: prose, as opposed to navigation. */
export function proseLength(el: HtmlElement): number {
  let length = 0;
  for (const child of el.children) {
    if (child.type === 'text') length += trimmedLength(child.data);
    else if (isElement(child) && child.name !== 'a') length += proseLength(child);
  }
  return length;
}

/** JavaScript's `\s` (ECMA-262 WhiteSpace and LineTerminator), by UTF-16 unit: 1 for a space. */
const SPACE_UNITS = new Uint8Array(0x10000);
for (const unit of [9, 10, 11, 12, 13, 32, 160, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]) {
  SPACE_UNITS[unit] = 1;
}
SPACE_UNITS.fill(1, 0x2000, 0x200b);

/**
 * Whether a UTF-16 unit (a `charCodeAt`) is one of JavaScript's `\s`. One load from a table, not a chain of
 * comparisons: the comparisons past ASCII were first met at a page's first non-ASCII text, where V8 threw away
 * the optimized code of the text measurers that inline this.
 */
export function isSpaceCode(code: number): boolean {
  return SPACE_UNITS[code] === 1;
}

/** Text is measured in pieces of about this many characters, each cut at an ASCII space, tab or line break. */
const MEASURE_CHUNK = 1 << 16;

/**
 * Characters of a subtree's visible text, clean, with every run of whitespace one space and the ends trimmed: what
 * `cleanText(textOf(root)).replace(/\s+/g, ' ').trim().length` says, without building that text. On a 9 MB page
 * those strings (the replace's parts above all) took 120 MB for a moment (issue 23). The text is cleaned in pieces
 * cut at an ASCII space, tab or line break, which no cleaning rule looks across, so the count is the same.
 */
export function visibleTextLength(root: HtmlElement | HtmlDocument): number {
  if (root.type !== 'tag' && root.type !== 'root') return 0;
  let length = 0;
  let words = false; // a word has been counted
  let space = false; // whitespace since the last word
  const count = (text: string): void => {
    const clean = cleanText(text);
    for (let i = 0; i < clean.length; i++) {
      if (isSpaceCode(clean.charCodeAt(i))) {
        space = true;
        continue;
      }
      if (space && words) length++;
      length++;
      words = true;
      space = false;
    }
  };
  let pending = '';
  const visit = (node: HtmlElement | HtmlDocument): void => {
    for (const child of node.children) {
      if (child.type === 'text') {
        pending += child.data;
        if (pending.length < MEASURE_CHUNK) continue;
        const cut = lastBreak(pending);
        if (cut <= 0) continue;
        count(pending.slice(0, cut));
        pending = pending.slice(cut);
      } else if (child.type === 'tag') visit(child); // as textOf: not into <script> or <style>
    }
  };
  visit(root);
  count(pending);
  return length;
}

/** Where the last ASCII space, tab, LF or CR of `text` is; -1 when it has none. */
function lastBreak(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9 || code === 10 || code === 13) return i;
  }
  return -1;
}

/** Readable characters of visible text as the outcome rules count them: clean, whitespace collapsed, trimmed. */
export const measuredLength = (text: string): number => cleanText(text).replace(/\s+/g, ' ').trim().length;

/**
 * A page's visible text length as the outcome rules read it (src/outcome.ts): exact below OUTCOME_READABLE_CHARS,
 * else some count at or above it. The walk stops there instead of joining and cleaning a whole page's text to
 * compare it with a few hundred characters (links and web_scraper measure every page they read).
 */
export function pageReadableLength(root: HtmlElement | HtmlDocument): number {
  let text = '';
  let measureAt = OUTCOME_READABLE_CHARS;
  const stack: (HtmlNode | HtmlDocument)[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') {
      text += node.data;
      if (text.length < measureAt) continue;
      // Cleaning and collapsing only shorten text: a prefix that measures enough means the whole page does.
      const length = measuredLength(text);
      if (length >= OUTCOME_READABLE_CHARS) return length;
      measureAt = text.length * 2;
    } else if (node.type === 'tag' || node.type === 'root') {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return measuredLength(text);
}

/** Each measured element's numbers. */
export type Stats = Map<HtmlElement, BlockStats>;

// What extraction measures of each block, once, bottom-up: text, link text and commas, and the weight of its class
// or id (Readability's). Selection (main-content.ts), joining (gather.ts) and cleaning (clean-content.ts) all judge
// blocks by these numbers.
import { cleanText } from '../clean-text.js';
import { isElement, textOf, type HtmlDocument, type HtmlElement } from './parse.js';
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

export function visibleTextLength(root: HtmlElement | HtmlDocument): number {
  return cleanText(textOf(root)).replace(/\s+/g, ' ').trim().length;
}

/** Each measured element's numbers. */
export type Stats = Map<HtmlElement, BlockStats>;

// `section` (issue 14 item 4): one heading and what follows it up to the next heading of the same or a higher level,
// cut from the tree in document order, so a section that spans containers (a heading in one <div>, its text in the
// next) is cut as a reader sees it. Pure.
import { headingLevel, type Heading } from './headings.js';
import { collapseWhitespace, isElement, textOf, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';

/** At most this many headings are listed when a section is not found (issue 14: "lists up to 20 headings"). */
export const SECTION_HEADINGS_LISTED = 20;

/** `#n`: the n-th heading of the list (web_scraper's outline), counting from 1. */
const BY_NUMBER = /^#\s*(\d+)$/;

const normalise = (text: string) => collapseWhitespace(text).toLowerCase();

/**
 * The heading `query` names in `headings`: `#n` is the n-th, counting from 1; any other text is the first heading
 * whose text is the same, case and runs of whitespace aside.
 */
export function findSectionHeading(headings: readonly Heading[], query: string): Heading | undefined {
  const number = BY_NUMBER.exec(query.trim());
  if (number) return headings[Number(number[1]) - 1];
  const wanted = normalise(query);
  return headings.find((heading) => normalise(heading.text) === wanted);
}

/** A heading with text at `level` or above (h1 is the highest): where the section that began at `level` ends. */
function endsSection(el: HtmlElement, level: number): boolean {
  const own = headingLevel(el);
  return own !== undefined && own <= level && collapseWhitespace(textOf(el)) !== '';
}

/** The nodes from `root` down to `target`, or undefined when `target` is not under `root`. */
function pathTo(root: HtmlDocument | HtmlElement, target: HtmlElement): Set<HtmlNode | HtmlDocument> | undefined {
  if (root === target) return new Set([root]);
  for (const child of root.children) {
    if (!isElement(child)) continue;
    const path = pathTo(child, target);
    if (path) return path.add(root);
  }
  return undefined;
}

/**
 * Cuts `root` down, in place, to `start` and what follows it until the next heading of the same or a higher level.
 * The elements that contain `start` stay as containers holding only the section's part. Returns false, leaving
 * `root` untouched, when `start` is not under it.
 */
export function cutSection(root: HtmlDocument | HtmlElement, start: HtmlElement): boolean {
  const ancestors = pathTo(root, start);
  const level = headingLevel(start);
  if (!ancestors || level === undefined) return false;
  let phase: 'before' | 'inside' | 'after' = 'before';
  const prune = (parent: HtmlDocument | HtmlElement): void => {
    const kept: HtmlNode[] = [];
    for (const child of parent.children) {
      if (child === start) {
        phase = 'inside';
        kept.push(child); // the heading whole: a heading inside it cannot end its own section
        continue;
      }
      if (!isElement(child)) {
        if (phase === 'inside') kept.push(child);
        continue;
      }
      if (phase === 'inside' && endsSection(child, level)) phase = 'after';
      if (phase === 'after') break;
      if (phase === 'before' && !ancestors.has(child)) continue;
      prune(child);
      kept.push(child);
    }
    parent.children = kept;
  };
  prune(root);
  return true;
}

/**
 * The error an agent reads when `section` names no heading: the headings there are, as `#n text`, the first
 * SECTION_HEADINGS_LISTED of `total`, so that the next call can name one. `section` is already quoted (bounded).
 */
export function sectionNotFoundMessage(
  section: string,
  headings: readonly { readonly text: string }[],
  total: number,
): string {
  if (total === 0)
    return `section "${section}" was not found: the page has no headings (h1–h6). Read it without section.`;
  const lines = headings.map((heading, index) => `#${index + 1} ${heading.text}`);
  const more = total > headings.length ? [`… and ${total - headings.length} more`] : [];
  return [
    `section "${section}" was not found: no heading has that text or number. Call again with one of these ` +
      `headings' text or its #n:`,
    ...lines,
    ...more,
  ].join('\n');
}

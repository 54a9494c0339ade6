// The page's headings, in one list that web_scraper's outline and the `section` argument both number, so that `#3`
// means the same heading in both (issue 14 item 4). Pure.
import { forEachElement } from './links.js';
import { collapseWhitespace, isElement, textOf, type HtmlDocument, type HtmlElement } from './parse.js';

export interface Heading {
  /** 1 for <h1> … 6 for <h6>. */
  readonly level: number;
  /** Its text, whitespace collapsed. */
  readonly text: string;
  readonly element: HtmlElement;
}

/** The level of an `<h1>`–`<h6>` element; undefined for any other element. */
export function headingLevel(el: HtmlElement): number | undefined {
  return /^h[1-6]$/.test(el.name) ? Number(el.name[1]) : undefined;
}

/**
 * Seed web-scraper-plan.md milestone 2 `build_outline`: every h1–h6 with text, in document order, under each root
 * in turn (a root that is itself a heading counts).
 */
export function listHeadings(roots: readonly (HtmlElement | HtmlDocument)[]): Heading[] {
  const headings: Heading[] = [];
  const visit = (el: HtmlElement): void => {
    const level = headingLevel(el);
    if (level === undefined) return;
    const text = collapseWhitespace(textOf(el));
    if (text) headings.push({ level, text, element: el });
  };
  for (const root of roots) {
    if (isElement(root)) visit(root);
    forEachElement(root, visit);
  }
  return headings;
}

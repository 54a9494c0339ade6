// HTML text → a light DOM tree. htmlparser2 builds plain objects (tag name, attributes, children) without the
// per-node event-target and live-collection machinery of a browser DOM: on the evaluation pages it parses about 5×
// faster than linkedom and 20× faster than jsdom (docs/benchmarks.md). Extraction needs no more than this tree.
// Not handled here: decoding bytes (src/fetch/ hands over text), HTML5 tree-construction fix-ups beyond what
// htmlparser2 does (implied <p> ends, void elements); misnested inline tags stay as written.
import { parseDocument } from 'htmlparser2';

/** An element. `type` is 'tag', or 'script'/'style' for those raw-text elements. */
export interface HtmlElement {
  readonly type: 'tag' | 'script' | 'style';
  /** Lower-case tag name. */
  readonly name: string;
  readonly attribs: Record<string, string>;
  children: HtmlNode[];
  parent: HtmlElement | HtmlDocument | null;
}

export interface HtmlText {
  readonly type: 'text';
  /** Text with character references decoded. */
  readonly data: string;
  parent: HtmlElement | HtmlDocument | null;
}

export interface HtmlDocument {
  readonly type: 'root';
  children: HtmlNode[];
  parent: null;
}

/** Comments, doctype and CDATA: kept in the tree by the parser, ignored by everything here. */
export interface HtmlOther {
  readonly type: 'comment' | 'directive' | 'cdata';
  parent: HtmlElement | HtmlDocument | null;
}

export type HtmlNode = HtmlElement | HtmlText | HtmlOther;

// Script and style bodies, comments and inline SVG are never text a reader sees, and on news pages they are often
// most of the bytes (inline JSON state, icon sprites). Cutting them from the source first is cheaper than
// tokenizing them. Raw-text elements end at the first matching end tag (HTML §13.2.5), which the lazy match finds.
const NEVER_RENDERED =
  /<script\b[^>]*>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<!--[\s\S]*?-->|<svg\b[^>]*>[\s\S]*?<\/svg\s*>/gi;

export function parseHtml(html: string): HtmlDocument {
  return parseDocument(html.replace(NEVER_RENDERED, '')) as unknown as HtmlDocument;
}

export function isElement(node: HtmlNode | HtmlDocument): node is HtmlElement {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/** Text with every run of whitespace made one space, trimmed; '' for nothing. */
export function collapseWhitespace(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Visible text of a subtree, as the DOM's textContent (no whitespace collapsing). */
export function textOf(node: HtmlNode | HtmlDocument): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'tag' && node.type !== 'root') return '';
  let text = '';
  for (const child of node.children) text += textOf(child);
  return text;
}

/** First element in document order (the root included) that matches. */
export function findElement(
  root: HtmlElement | HtmlDocument,
  matches: (el: HtmlElement) => boolean,
): HtmlElement | undefined {
  if (isElement(root) && matches(root)) return root;
  for (const child of root.children) {
    if (isElement(child)) {
      const found = findElement(child, matches);
      if (found) return found;
    }
  }
  return undefined;
}

// HTML text → a light DOM tree. htmlparser2 builds plain objects (tag name, attributes, children) without the
// per-node event-target and live-collection machinery of a browser DOM: on the evaluation pages it parses about 5×
// faster than linkedom and 20× faster than jsdom (docs/benchmarks.md). Extraction needs no more than this tree.
// Not handled here: decoding bytes (src/fetch/ hands over text), HTML5 tree-construction fix-ups beyond what
// htmlparser2 does (implied <p> ends, void elements) and where <body> begins and ends (placeBodyContent below);
// misnested inline tags stay as written.
import { DomHandler, Parser, type Handler, type parseDocument } from 'htmlparser2';
import { cutNeverRendered, type StyleSource } from './html-source.js';
import { SKIPPING_TOKENIZER } from './skipping-tokenizer.js';
import { DroppedElements, MAX_NESTING_DEPTH, TreeParser, type NamedElements } from './tree-parser.js';

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

// The depth cap (MAX_NESTING_DEPTH) is tree-parser.ts's; DepthCappedParser applies it to htmlparser2's Parser.
export { MAX_NESTING_DEPTH } from './tree-parser.js';

/**
 * htmlparser2's parser with the browser's depth cap. An element opened at the cap is dropped — its start tag, its
 * attributes and its matching end tag — while its content (text, void elements such as <img> and <br>) joins the
 * element at the cap, as in Blink, where the element stays but empty, its content beside it. A dropped <a> loses its
 * link and keeps its words; hidden-ness by attribute is lost with the element, as a browser shows that text too.
 */
class DepthCappedParser extends Parser {
  private readonly dropped = new DroppedElements();
  /**
   * Inside a dropped start tag, until it ends. Its attributes need no guard: htmlparser2 gathers an attribute into
   * the tag's record only while a start tag it emitted is open, and none was.
   */
  private inDroppedTag = false;

  constructor(
    handler: Partial<Handler>,
    private readonly xmlMode: boolean,
  ) {
    super(handler, { xmlMode, Tokenizer: SKIPPING_TOKENIZER });
  }

  /**
   * Writes `pieces` one after another and ends: the parser reads them as one document (a token may span two), and
   * no string of the whole document is made (html-source.ts cutNeverRendered).
   */
  parsePieces(pieces: readonly string[]): void {
    for (const piece of pieces) this.write(piece);
    this.end();
  }

  // htmlparser2 keeps its open elements in a private `stack` (htmlparser2 10.x); the deep-document tests fail
  // loudly if that ever changes.
  private depth(): number {
    return (this as unknown as { stack: string[] }).stack.length;
  }

  // Offsets are into the whole document, written in pieces: htmlparser2's own (private) getSlice reads them from its
  // buffers, as its onopentagname does next; the deep-document tests fail loudly if that ever changes.
  private tagName(start: number, endIndex: number): string {
    const name = (this as unknown as { getSlice(start: number, end: number): string }).getSlice(start, endIndex);
    return this.xmlMode ? name : name.toLowerCase();
  }

  override onopentagname(start: number, endIndex: number): void {
    if (this.depth() >= MAX_NESTING_DEPTH) {
      const name = this.tagName(start, endIndex);
      if (!this.isVoidElement(name)) {
        this.dropped.add(name);
        this.inDroppedTag = true;
        return;
      }
    }
    super.onopentagname(start, endIndex);
  }

  override onopentagend(endIndex: number): void {
    if (this.inDroppedTag) this.inDroppedTag = false;
    else super.onopentagend(endIndex);
  }

  override onselfclosingtag(endIndex: number): void {
    if (!this.inDroppedTag) super.onselfclosingtag(endIndex);
    // `<x/>` closes in XML; in HTML the slash means nothing on a non-void element (HTML §13.2.6.1).
    else if (this.xmlMode) this.endDroppedTag(this.dropped.innermost!);
    else this.inDroppedTag = false;
  }

  override onclosetag(start: number, endIndex: number): void {
    const name = this.tagName(start, endIndex);
    if (this.dropped.has(name)) {
      this.endDroppedTag(name);
      return;
    }
    const before = this.depth();
    super.onclosetag(start, endIndex);
    if (this.depth() < before) this.dropped.clear();
  }

  /** Ends the innermost dropped `name` and any dropped element opened inside it (misnested tags). */
  private endDroppedTag(name: string): void {
    this.inDroppedTag = false;
    this.dropped.end(name);
  }
}

/**
 * Markup → a DOM tree (domhandler's nodes, which DomUtils walks) nested at most MAX_NESTING_DEPTH deep: feeds, in
 * `xmlMode`. A page's HTML is parsed by parseHtml into the light tree of tree-parser.ts, under the same cap.
 */
export function parseMarkup(markup: string, options: { xmlMode?: boolean } = {}): ReturnType<typeof parseDocument> {
  const handler = new DomHandler(undefined, { xmlMode: options.xmlMode ?? false });
  new DepthCappedParser(handler, options.xmlMode ?? false).parsePieces([markup]);
  return handler.root;
}

/**
 * `options.styles` collects the page's `<style>` sheets as the pre-pass cuts them (for hidden-css.ts);
 * `options.source` is the pre-pass already run on `html` (cutNeverRendered), not run again; `options.named` collects
 * the elements of the names it holds as keys, each list in document order (tree-parser.ts), read before the tree is
 * changed (metadata.ts).
 */
export function parseHtml(
  html: string,
  options: { styles?: StyleSource[]; source?: readonly string[]; named?: NamedElements } = {},
): HtmlDocument {
  const source = options.source ?? cutNeverRendered(html, options.styles);
  const parser = new TreeParser(options.named); // the light tree (tree-parser.ts); feeds keep domhandler's, above
  parser.parse(source);
  const doc = parser.root;
  placeBodyContent(doc);
  return doc;
}

/**
 * htmlparser2's events for HTML the pre-pass has cut (cutNeverRendered), under the same depth cap, to a handler that
 * builds no tree (link-stream.ts). The handler sees the events the tree of parseHtml is built by (tree-parser.ts),
 * before placeBodyContent.
 */
export function streamHtml(source: readonly string[], handler: Partial<Handler>): void {
  new DepthCappedParser(handler, false).parsePieces(source);
}

// What may stay in <head> (HTML §13.2.6.4.4, "in head"): any other start tag, or text that is not whitespace, ends
// the head and starts the body in a browser.
export const HEAD_CONTENT: ReadonlySet<string> = new Set([
  'base', 'basefont', 'bgsound', 'link', 'meta', 'title', 'noscript', 'noframes', 'style', 'script', 'template',
]); // prettier-ignore

/**
 * Puts into <body> what a browser puts there and htmlparser2, which builds no implied elements, leaves elsewhere:
 * the content of a page that never closes its <head> (from the first element not allowed in a head on, which would
 * otherwise be dropped with the head), and content between </head> and <body> or after </body> and
 * </html> (HTML §13.2.6.4.6, "after head", and §13.2.6.4.19–22, "after body"). A page with none of these is left
 * as parsed. Content before <head> stays where it is.
 */
function placeBodyContent(doc: HtmlDocument): void {
  const html = doc.children.find((node): node is HtmlElement => isElement(node) && node.name === 'html');
  const top = html ?? doc;
  const headAt = top.children.findIndex((node) => isElement(node) && node.name === 'head');
  const bodyAt = top.children.findIndex((node) => isElement(node) && node.name === 'body');
  // Without either, extraction reads the whole <html> as the body already; a body before the head is past repair
  // here (browsers merge such pages in ways no extraction relies on).
  if ((headAt < 0 && bodyAt < 0) || (bodyAt >= 0 && bodyAt < headAt)) return;
  const before: HtmlNode[] = [];
  const after: HtmlNode[] = [];
  if (headAt >= 0) before.push(...takeBodyStart((top.children[headAt] as HtmlElement).children));
  // Between the head and the body (or after the head when there is no body), what is not head content starts the
  // body; after the body, everything joins it.
  const between = top.children.slice(headAt + 1, bodyAt < 0 ? undefined : bodyAt);
  before.push(...takeBodyStart(between));
  if (bodyAt >= 0) after.push(...top.children.slice(bodyAt + 1));
  if (html) after.push(...doc.children.slice(doc.children.indexOf(html) + 1));
  if (!before.concat(after).some(isContent)) return;

  const remove = new Set([...before, ...after]);
  if (html) doc.children = doc.children.filter((node) => !remove.has(node));
  let body = bodyAt >= 0 ? (top.children[bodyAt] as HtmlElement) : undefined;
  top.children = top.children.filter((node) => !remove.has(node));
  if (!body) {
    body = { type: 'tag', name: 'body', attribs: {}, children: [], parent: top };
    top.children.splice(headAt + 1, 0, body);
  }
  body.children = [...before, ...body.children, ...after];
  for (const node of body.children) node.parent = body;
}

/**
 * The nodes that go to the body, taken out of `nodes`: from the first one that starts a body (an element a head may
 * not hold, or text that is not whitespace) on, except the head's own elements, which browsers never render wherever
 * they end up (a <title> or <meta> met after the body started).
 */
function takeBodyStart(nodes: HtmlNode[]): HtmlNode[] {
  const at = nodes.findIndex((node) =>
    isElement(node) ? !HEAD_CONTENT.has(node.name) : node.type === 'text' && !isWhitespace(node.data),
  );
  if (at < 0) return [];
  const stays = (node: HtmlNode) => isElement(node) && HEAD_CONTENT.has(node.name) && node.name !== 'noscript';
  const tail = nodes.splice(at);
  nodes.push(...tail.filter(stays));
  return tail.filter((node) => !stays(node));
}

function isContent(node: HtmlNode): boolean {
  return isElement(node) || (node.type === 'text' && !isWhitespace(node.data));
}

export function isWhitespace(text: string): boolean {
  return /^[\t\n\f\r ]*$/.test(text);
}

export function isElement(node: HtmlNode | HtmlDocument): node is HtmlElement {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/**
 * Keeps the children of `parent` that `keep` accepts, asked in order, in place: its exact-length array stays and is
 * shortened. `children = children.filter(…)` gave every element of the tree a new array with the spare room of one
 * grown by push (17 slots for one child, some 190 bytes): 12 MB more for the 112,000 elements of a 9 MB page, besides
 * the old arrays left as garbage (issue 23 item 8).
 */
export function keepChildren(parent: HtmlElement | HtmlDocument, keep: (child: HtmlNode) => boolean): void {
  const children = parent.children;
  let kept = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (!keep(child)) continue;
    if (kept !== i) children[kept] = child;
    kept += 1;
  }
  if (kept !== children.length) children.length = kept;
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

/** Whether `el` is `ancestor` or lies inside it, by its parent links (a block taken out keeps its `parent`). */
export function isWithin(el: HtmlElement, ancestor: HtmlElement): boolean {
  for (let node: HtmlElement['parent'] = el; node && isElement(node); node = node.parent)
    if (node === ancestor) return true;
  return false;
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

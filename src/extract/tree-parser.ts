// A page's HTML → the light tree extraction reads, from the tokenizer's events directly. htmlparser2's Parser sits
// between its tokenizer and a handler: it slices names and text out of the pieces written, keeps the open elements
// in an array it `unshift`s, and calls the handler for each event through optional calls; a handler then builds the
// nodes. Here one class does both, so a start tag is one element made where the tag ends, its attributes gathered on
// the way, and nothing else is made or looked up. The tree is the one htmlparser2's Parser with parse.ts's depth cap
// and a handler building nodes would give, node for node: tree-parser.test.ts compares the two on markup made to
// meet every rule below and on random markup, so a rule changed in one and not the other fails there (and
// bench/same-output.mjs showed the 1060 evaluation pages' output unchanged when this replaced the Parser). The rules
// are htmlparser2's (10.x, Parser.ts), not the HTML standard's: implied end tags for a few elements, void elements,
// `</br>` and `</p>` with no open `<p>`, `/>` closing only inside <svg> and <math>.
// Feeds (XML mode) and link-stream.ts's events keep htmlparser2's Parser (parse.ts).
import type { TokenizerCallbacks } from 'htmlparser2';
import type { HtmlDocument, HtmlElement, HtmlNode, HtmlText } from './parse.js';
import { emptyObjectArray } from './object-array.js';
import { SKIPPING_TOKENIZER } from './skipping-tokenizer.js';

/**
 * The deepest an element is nested. Browsers cap the tree their HTML parser builds (Blink: 512,
 * `kMaximumHTMLParserDOMTreeDepth` in html_construction_site.cc); past the cap they attach new nodes to the element
 * at the cap instead of nesting them. We do the same (here and in parse.ts's DepthCappedParser), so a page of
 * 100,000 nested elements costs a flat list, not a 100,000-deep tree: htmlparser2's open-element stack is an array
 * it `unshift`s (quadratic: 11 s to parse such a page), and every walker here recurses (a stack overflow).
 */
export const MAX_NESTING_DEPTH = 512;

/** The attributes of every element that has none: frozen, since it is shared. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

// htmlparser2's tables (Parser.ts): the start tags that close the open element named in their set first.
const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTION = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])], ['li', new Set(['li'])],
  ['p', P], ['h1', P], ['h2', P], ['h3', P], ['h4', P], ['h5', P], ['h6', P],
  ['select', FORM], ['input', FORM], ['output', FORM], ['button', FORM], ['datalist', FORM], ['textarea', FORM],
  ['option', new Set(['option'])], ['optgroup', new Set(['optgroup', 'option'])], ['dd', DD_DT], ['dt', DD_DT],
  ['address', P], ['article', P], ['aside', P], ['blockquote', P], ['details', P], ['div', P], ['dl', P],
  ['fieldset', P], ['figcaption', P], ['figure', P], ['footer', P], ['form', P], ['header', P], ['hr', P],
  ['main', P], ['nav', P], ['ol', P], ['pre', P], ['section', P], ['table', P], ['ul', P],
  ['rt', RT_RP], ['rp', RT_RP], ['tbody', TABLE_SECTION], ['tfoot', TABLE_SECTION],
]); // prettier-ignore
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]); // prettier-ignore
const FOREIGN_CONTEXT = new Set(['math', 'svg']);
const HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/**
 * The elements dropped at the depth cap and still open, innermost last: their end tags end them, not an element at
 * the cap. Kept by both parsers of the cap (TreeParser here, parse.ts's DepthCappedParser).
 */
export class DroppedElements {
  private readonly names: string[] = [];
  /** How many of each name are in `names`, so an end tag for none of them costs O(1). */
  private readonly counts = new Map<string, number>();

  get innermost(): string | undefined {
    return this.names.at(-1);
  }

  add(name: string): void {
    this.names.push(name);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  has(name: string): boolean {
    return (this.counts.get(name) ?? 0) > 0;
  }

  /** Ends the innermost dropped `name` and any dropped element opened inside it (misnested tags). */
  end(name: string): void {
    for (;;) {
      const top = this.names.pop()!;
      this.counts.set(top, this.counts.get(top)! - 1);
      if (top === name) return;
    }
  }

  /** A real element closed: the dropped ones were inside it and end with it. */
  clear(): void {
    if (this.names.length === 0) return;
    this.names.length = 0;
    this.counts.clear();
  }
}

const { hasOwn } = Object as unknown as { hasOwn(object: object, key: string): boolean };

/** Elements by name, each list in document order: the names asked for are the keys, their lists filled by the parse. */
export type NamedElements = Map<string, HtmlElement[]>;

/**
 * The tokenizer's callbacks, building the tree; `root` holds it once `parse` has returned. With `named`, the elements
 * of its names are listed there as they are made: the head's readers (metadata.ts) find the first of each kind
 * without a walk of the whole tree.
 */
export class TreeParser implements TokenizerCallbacks {
  constructor(private readonly named?: NamedElements) {}

  readonly root: HtmlDocument = { type: 'root', children: [], parent: null };
  private readonly tokenizer = new SKIPPING_TOKENIZER({ xmlMode: false, decodeEntities: true }, this);
  /** The pieces written and not yet read past, the first starting at `bufferOffset` in the document. */
  private readonly buffers: string[] = [];
  private bufferOffset = 0;
  /** The open elements, the root first, the innermost last; beside each, where its children start in `pending`. */
  private readonly open: (HtmlElement | HtmlDocument)[] = [this.root];
  private readonly starts: number[] = [0];
  /**
   * The children of every open element, in one array up to `pendingLength`: an element gets its own, exactly as
   * long, when it closes (an array grown by push keeps 17 slots for a single child). Slots past the length are
   * written over, never cut off: setting an array's length is a call into V8's runtime.
   */
  private readonly pending = emptyObjectArray<HtmlNode>();
  private pendingLength = 0;
  /** Whether `/>` closes an element here: inside <svg> or <math>, not in their HTML integration points. Last is now. */
  private readonly foreign: boolean[] = [false];
  /** The start tag being read: its name, and its attributes (null while a dropped tag is read). */
  private tagName = '';
  private attribs: Record<string, string> | null = null;
  /** How many attributes `attribs` holds: counted, not asked of the record (a for…in per element). */
  private attribCount = 0;
  private attribName = '';
  private attribValue = '';
  /** The text node the next text event extends (`a `, `&amp;`, ` b` make one node), and its pieces while it grows. */
  private lastText: { data: string } | undefined;
  private textPieces: string[] | undefined;
  private readonly dropped = new DroppedElements();
  private inDroppedTag = false;

  /** Reads `pieces` one after another as one document (a token may span two) and ends it. */
  parse(pieces: readonly string[]): void {
    for (const piece of pieces) {
      this.buffers.push(piece);
      this.tokenizer.write(piece);
    }
    this.tokenizer.end();
  }

  // --- Start tags

  onopentagname(start: number, endIndex: number): void {
    const name = this.getSlice(start, endIndex).toLowerCase();
    if (this.open.length > MAX_NESTING_DEPTH && !VOID_ELEMENTS.has(name)) {
      // At the cap: the element is dropped, its content joins the element at the cap (MAX_NESTING_DEPTH).
      this.dropped.add(name);
      this.inDroppedTag = true;
      this.attribs = null;
      return;
    }
    this.startTag(name);
  }

  onattribname(start: number, endIndex: number): void {
    if (this.attribs !== null) this.attribName = this.getSlice(start, endIndex).toLowerCase();
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.attribs !== null) this.attribValue += this.getSlice(start, endIndex);
  }

  onattribentity(codepoint: number): void {
    if (this.attribs !== null) this.attribValue += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    const { attribs } = this;
    if (attribs === null) return;
    // The first of two attributes of one name wins.
    if (!hasOwn(attribs, this.attribName)) {
      attribs[this.attribName] = this.attribValue;
      this.attribCount++;
    }
    this.attribValue = '';
  }

  onopentagend(): void {
    if (this.inDroppedTag) this.inDroppedTag = false;
    else this.endStartTag();
  }

  onselfclosingtag(): void {
    // `<x/>` closes only in foreign content; in HTML the slash means nothing on a non-void element (HTML §13.2.6.1).
    if (this.inDroppedTag) this.inDroppedTag = false;
    else if (this.foreign[this.foreign.length - 1]) this.closeCurrentTag();
    else this.endStartTag();
  }

  /** A start tag's name: the open elements it implies the end of close, and its attributes are gathered next. */
  private startTag(name: string): void {
    const implied = OPEN_IMPLIES_CLOSE.get(name);
    if (implied) while (this.open.length > 1 && implied.has(this.innermostName())) this.close();
    if (!VOID_ELEMENTS.has(name)) {
      if (FOREIGN_CONTEXT.has(name)) this.foreign.push(true);
      else if (HTML_INTEGRATION.has(name)) this.foreign.push(false);
    }
    this.tagName = name;
    this.attribs = {};
    this.attribCount = 0;
  }

  /** The start tag's element, made where the tag ends: opened, or (void) left closed. */
  private endStartTag(): void {
    const name = this.tagName;
    const attribs = this.attribs;
    this.attribs = null;
    this.tagName = '';
    if (attribs === null) return;
    const type = name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag';
    this.endText();
    const element: HtmlElement = {
      type,
      name,
      attribs: this.attribCount === 0 ? NO_ATTRIBUTES : attribs,
      children: [],
      parent: this.innermost(),
    };
    this.add(element);
    this.named?.get(name)?.push(element);
    if (!VOID_ELEMENTS.has(name)) {
      this.open.push(element);
      this.starts.push(this.pendingLength);
    }
  }

  /** Ends the start tag and closes its element at once (`<path/>` in <svg>, an implied `<p>` for `</p>`). */
  private closeCurrentTag(): void {
    const name = this.tagName;
    this.endStartTag();
    if (this.open.length > 1 && this.innermostName() === name) this.close();
  }

  // --- End tags

  onclosetag(start: number, endIndex: number): void {
    const name = this.getSlice(start, endIndex).toLowerCase();
    if (this.dropped.has(name)) {
      this.inDroppedTag = false;
      this.dropped.end(name);
      return;
    }
    const depth = this.open.length;
    if (FOREIGN_CONTEXT.has(name) || HTML_INTEGRATION.has(name)) this.foreign.pop();
    if (!VOID_ELEMENTS.has(name)) {
      // The innermost open element of this name (0: none). The step runs on every end tag, so V8 has seen it
      // before the first one that closes more than the innermost element.
      let at = this.open.length;
      do at--;
      while (at > 0 && (this.open[at] as HtmlElement).name !== name);
      if (at > 0) while (this.open.length > at) this.close();
      else if (name === 'p') {
        // `</p>` with no `<p>` open is an empty paragraph, as in a browser.
        this.startTag('p');
        this.closeCurrentTag();
      }
    } else if (name === 'br') {
      // `</br>` is a `<br>`, as in a browser.
      this.endText();
      this.add({ type: 'tag', name: 'br', attribs: NO_ATTRIBUTES, children: [], parent: this.innermost() });
    }
    if (this.open.length < depth) this.dropped.clear();
  }

  // --- Text and the rest

  ontext(start: number, endIndex: number): void {
    this.text(this.getSlice(start, endIndex));
  }

  ontextentity(codepoint: number): void {
    this.text(String.fromCodePoint(codepoint));
  }

  oncomment(start: number, endIndex: number, offset: number): void {
    this.comment(this.getSlice(start, endIndex - offset));
  }

  oncdata(start: number, endIndex: number, offset: number): void {
    // In HTML, CDATA outside foreign content is a bogus comment.
    this.comment(`[CDATA[${this.getSlice(start, endIndex - offset)}]]`);
  }

  ondeclaration(): void {
    this.endText();
    this.add({ type: 'directive', parent: this.innermost() });
  }

  onprocessinginstruction(): void {
    this.ondeclaration();
  }

  onend(): void {
    this.endText();
    while (this.open.length > 0) this.close();
  }

  private text(data: string): void {
    if (this.lastText !== undefined) {
      (this.textPieces ??= [this.lastText.data]).push(data);
      return;
    }
    const text: HtmlText = { type: 'text', data, parent: this.innermost() };
    this.add(text);
    this.lastText = text;
  }

  private comment(data: string): void {
    this.endText();
    this.add({ type: 'comment', data, parent: this.innermost() } as HtmlNode);
  }

  /**
   * Ends the text node the last text events wrote, its pieces joined into one flat string: built by `+=`, a text was
   * a chain of pieces (a V8 cons string) that every reader walks (docs/benchmarks.md, "Speed, session 38").
   */
  private endText(): void {
    if (this.textPieces !== undefined) {
      this.lastText!.data = this.textPieces.join('');
      this.textPieces = undefined;
    }
    this.lastText = undefined;
  }

  /**
   * A node made with `parent: this.innermost()`: each kind of node sets it in its own literal, not in one store here
   * that meets every kind (V8 threw away the optimized tag reader at each kind it had not seen there).
   */
  private add(node: HtmlNode): void {
    this.pending[this.pendingLength++] = node;
  }

  private innermost(): HtmlElement | HtmlDocument {
    return this.open[this.open.length - 1]!;
  }

  /** Closes the innermost open element: its children taken out of `pending`. */
  private close(): void {
    this.endText();
    const element = this.open.pop()!;
    const start = this.starts.pop()!;
    element.children = this.pending.slice(start, this.pendingLength);
    this.pendingLength = start;
  }

  private innermostName(): string {
    return (this.innermost() as HtmlElement).name;
  }

  /**
   * The document's text between two offsets, which may lie in different pieces (htmlparser2's Parser.getSlice). Kept
   * this short because V8 copies it into each caller it optimizes (eleven of them); the rest is `sliceAcross`.
   */
  private getSlice(start: number, end: number): string {
    const first = this.buffers[0]!;
    const to = end - this.bufferOffset;
    return to <= first.length ? first.slice(start - this.bufferOffset, to) : this.sliceAcross(start, end);
  }

  /** getSlice past the first piece: the pieces read past are let go, and a slice over two of them is joined. */
  private sliceAcross(start: number, end: number): string {
    const { buffers } = this;
    while (start - this.bufferOffset >= buffers[0]!.length) this.shiftBuffer();
    let slice = buffers[0]!.slice(start - this.bufferOffset, end - this.bufferOffset);
    while (end - this.bufferOffset > buffers[0]!.length) {
      this.shiftBuffer();
      slice += buffers[0]!.slice(0, end - this.bufferOffset);
    }
    return slice;
  }

  private shiftBuffer(): void {
    this.bufferOffset += this.buffers[0]!.length;
    this.buffers.shift();
  }
}

// The tree parse.ts builds from htmlparser2's events: the fields extraction reads (type, name, attribs, children,
// parent; a text's data) and nothing else. domhandler's nodes also carry prev, next, startIndex and endIndex, which
// nothing here reads, and each parent's children array keeps the spare room of an array grown by push (17 slots
// for one child). On a page of 200,000 links that was about 800 bytes a link and 170 MB for the tree (issue 23):
// here each children array is made at its length when its element closes, and an element without attributes shares
// one frozen empty record. Feeds (XML mode) keep domhandler's tree, which DomUtils walks by prev and next.
import type { Handler } from 'htmlparser2';
import type { HtmlDocument, HtmlElement, HtmlNode, HtmlText } from './parse.js';

/** The attributes of every element that has none: frozen, since it is shared. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

interface Comment {
  readonly type: 'comment';
  data: string;
  parent: HtmlElement | HtmlDocument | null;
}

/** htmlparser2's handler that builds the light tree; `root` holds it once the parser has ended. */
export class TreeBuilder implements Partial<Handler> {
  readonly root: HtmlDocument = { type: 'root', children: [], parent: null };
  /** The open elements, innermost last, each with where its children start in `pending`. */
  private readonly open: { readonly element: HtmlElement | HtmlDocument; readonly start: number }[] = [
    { element: this.root, start: 0 },
  ];
  /**
   * The children of every open element, in one array: an element gets its own, exactly as long, when it closes. An
   * array per element grown by push would keep 17 slots for a single child (the grown room is never given back).
   */
  private readonly pending: HtmlNode[] = [];
  /**
   * How much of `pending` holds open elements' children. The slots past it are left as they are, to be written over:
   * shortening the array by setting its length is a call into V8's runtime, once per element (a fiftieth of a cold
   * pass over the news pages).
   */
  private pendingLength = 0;
  /** The text or comment the next event of its kind extends (one node for `a &amp; b`, as domhandler does). */
  private last: { readonly type: 'text' | 'comment'; data: string } | undefined;
  /**
   * The pieces of the text `last` while more than one event writes it (`a `, `&`, ` b`), joined into one flat string
   * when it ends. Built by `+=`, a text was a chain of pieces (a V8 cons string) that every reader walks, and the
   * walkers that measure text, optimized for flat strings, were deoptimized by the first chain and ran up to twice as
   * slow on a page's later text, in some runs and not others (docs/benchmarks.md, "Speed, session 38").
   */
  private textPieces: string[] | undefined;
  /** Inside CDATA (XML mode only, which feeds parse with domhandler): its text is not the page's. */
  private inCdata = false;

  private add(node: HtmlNode): void {
    node.parent = this.open[this.open.length - 1]!.element;
    this.pending[this.pendingLength++] = node;
  }

  /** The children of the innermost open element, taken out of `pending`. */
  private close(): void {
    const { element, start } = this.open.pop()!;
    element.children = this.pending.slice(start, this.pendingLength);
    this.pendingLength = start;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    let empty = true;
    for (const _ in attribs) {
      empty = false;
      break;
    }
    const type = name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag';
    const element: HtmlElement = { type, name, attribs: empty ? NO_ATTRIBUTES : attribs, children: [], parent: null };
    this.add(element);
    this.open.push({ element, start: this.pendingLength });
    this.endRun();
  }

  onclosetag(): void {
    this.endRun();
    if (this.open.length > 1) this.close();
  }

  ontext(data: string): void {
    if (this.inCdata) return;
    if (this.last?.type === 'text') {
      (this.textPieces ??= [this.last.data]).push(data);
      return;
    }
    const text = { type: 'text', data, parent: null } as { type: 'text'; data: string; parent: null };
    this.add(text as HtmlText);
    this.endRun();
    this.last = text;
  }

  oncomment(data: string): void {
    if (this.last?.type === 'comment') {
      this.last.data += data;
      return;
    }
    const comment: Comment = { type: 'comment', data, parent: null };
    this.add(comment);
    this.endRun();
    this.last = comment;
  }

  oncommentend(): void {
    this.endRun();
  }

  oncdatastart(): void {
    this.add({ type: 'cdata', parent: null });
    this.endRun();
    this.inCdata = true;
  }

  oncdataend(): void {
    this.endRun();
    this.inCdata = false;
  }

  onprocessinginstruction(): void {
    this.add({ type: 'directive', parent: null });
    this.endRun();
  }

  onend(): void {
    this.endRun();
    while (this.open.length > 0) this.close();
  }

  /** Ends the run of text or comment events that `last` gathers. */
  private endRun(): void {
    if (this.textPieces !== undefined) {
      this.last!.data = this.textPieces.join('');
      this.textPieces = undefined;
    }
    this.last = undefined;
  }
}

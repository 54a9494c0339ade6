// A page's visible links read from htmlparser2's events as they come, without building its tree (issue 23 item 8:
// memory proportional to what is kept). The tree of a page of 200,000 links is about 100 MB; the links are a fifth
// of that. The result is the tree path's (links.ts extractLinksFromTree) exactly: the same links in the same order
// with the same text, the same canonical URL and hidden-block count, and a visible-text count the outcome rules read
// the same way (pageReadableLength's prefix measure, on the same text).
//
// It holds only where every hiding decision is known when an element opens: the element's own attributes (the
// `hidden` attribute, aria-hidden, an inline style, <template>, the never-rendered elements). Two things need the
// tree, and a page that has either is read by the tree path instead (streamLinks returns undefined):
// - hiding rules in the page's own `<style>` sheets, which weigh an element's text and its siblings (clean-hidden.ts);
// - content in `<head>` that a browser puts in the body (parse.ts placeBodyContent): any element a head may not hold,
//   or text, as a child of a `<head>`.
import { cleanText } from '../clean-text.js';
import { OUTCOME_READABLE_CHARS } from '../outcome.js';
import { measuredLength } from './block-stats.js';
import { countsAsHiddenAlt, countsAsHiddenText, hiddenReason } from './clean-hidden.js';
import type { CutPage } from './parse-page.js';
import { baseUrlOf } from './metadata.js';
import { collapseWhitespace, HEAD_CONTENT, isWhitespace, streamHtml, type HtmlElement } from './parse.js';
import { NEVER_CONTENT } from './vocabulary.js';

/** Thrown from a handler event to stop the parse: the page needs its tree. */
class NeedsTree extends Error {}

/** A link being read: its href until the end resolves it, its words as they come. */
interface OpenLink {
  url: string;
  text: string;
  alt: string | undefined;
  readonly label: string | undefined;
  readonly title: string | undefined;
}

interface Frame {
  /** This element is removed with what it holds (never rendered, or hidden by its own attributes). */
  readonly removed: boolean;
  readonly isHead: boolean;
  /** The link this element opens, read until it closes. */
  readonly link: OpenLink | undefined;
}

const CANONICAL = /(?:^|\s)canonical(?:\s|$)/i;

class LinkCollector {
  /** The open elements, innermost last. */
  private readonly open: Frame[] = [];
  /** Open elements that remove what they hold: while any is open, nothing is visible. */
  private removedDepth = 0;
  /** The links in document order (of their start tags), hrefs unresolved until the end. */
  readonly links: OpenLink[] = [];
  /** The links still open, innermost last: every visible word goes to each (nested links share their words). */
  private readonly reading: OpenLink[] = [];
  hiddenBlocksDropped = 0;
  /** The hidden element being read (its depth in `open`), counted when it closes if it held text (clean-hidden.ts). */
  private hiddenAt: number | undefined;
  private hiddenHeldText = false;
  baseHref: string | undefined;
  canonicalHref: string | undefined;
  /** Visible text so far, as pageReadableLength joins it, until it measures OUTCOME_READABLE_CHARS. */
  private text = '';
  private measureAt = OUTCOME_READABLE_CHARS;
  /** Text since the last other event: one text node of the tree, measured when it ends (as the tree walk does). */
  private textPending = false;
  readable: number | undefined;

  onopentag(name: string, attribs: Record<string, string>): void {
    this.endText();
    const parent = this.open.at(-1);
    const { href } = attribs;
    // Read before cleaning, wherever they are (metadata.ts, links.ts readCanonicalUrl).
    if (name === 'base' && href !== undefined) this.baseHref ??= href;
    if (name === 'link' && this.canonicalHref === undefined && href && CANONICAL.test(attribs.rel ?? '')) {
      this.canonicalHref = href;
    }
    if (parent?.isHead && !HEAD_CONTENT.has(name)) throw new NeedsTree();
    let removed = NEVER_CONTENT.has(name);
    if (!removed && this.removedDepth === 0) {
      const element = { type: 'tag', name, attribs, children: [], parent: null } satisfies HtmlElement;
      removed = hiddenReason(element) !== undefined;
      if (removed) {
        this.hiddenAt = this.open.length;
        this.hiddenHeldText = name === 'template' || countsAsHiddenAlt(attribs);
      }
    } else if (!removed) {
      removed = true; // inside a removed element: gone with it, and not counted
    }
    if (this.hiddenAt !== undefined && !this.hiddenHeldText && countsAsHiddenAlt(attribs)) this.hiddenHeldText = true;
    let link: OpenLink | undefined;
    if (!removed) {
      if (name === 'img' && attribs.alt?.trim()) {
        for (const open of this.reading) open.alt ??= attribs.alt;
      } else if (name === 'a' && href !== undefined) {
        link = { url: href, text: '', alt: undefined, label: attribs['aria-label'], title: attribs.title };
        this.links.push(link);
        this.reading.push(link);
      }
    }
    if (removed) this.removedDepth++;
    this.open.push({ removed, isHead: name === 'head', link });
  }

  onclosetag(): void {
    this.endText();
    const frame = this.open.pop();
    if (!frame) return;
    if (frame.removed) this.removedDepth--;
    if (this.open.length === this.hiddenAt) {
      if (this.hiddenHeldText) this.hiddenBlocksDropped++;
      this.hiddenAt = undefined;
    }
    if (frame.link) {
      this.reading.pop();
      const { link } = frame;
      link.text = cleanText(
        collapseWhitespace(link.text) ||
          collapseWhitespace(link.alt) ||
          collapseWhitespace(link.label) ||
          collapseWhitespace(link.title),
      );
    }
  }

  ontext(data: string): void {
    const parent = this.open.at(-1);
    if (parent?.isHead && !isWhitespace(data)) throw new NeedsTree();
    if (this.removedDepth > 0) {
      if (this.hiddenAt !== undefined && !this.hiddenHeldText) this.hiddenHeldText = countsAsHiddenText(data);
      return;
    }
    for (const link of this.reading) link.text += data;
    if (this.readable !== undefined) return;
    this.text += data;
    this.textPending = true;
  }

  /** A text node of the tree ends: measured as pageReadableLength measures it (block-stats.ts). */
  private endText(): void {
    if (!this.textPending) return;
    this.textPending = false;
    if (this.text.length < this.measureAt) return;
    const length = measuredLength(this.text);
    if (length >= OUTCOME_READABLE_CHARS) {
      this.readable = length;
      this.text = '';
    } else this.measureAt = this.text.length * 2;
  }

  oncomment(): void {
    this.endText();
  }

  onprocessinginstruction(): void {
    this.endText();
  }

  onend(): void {
    while (this.open.length > 0) this.onclosetag();
    this.endText();
    this.readable ??= measuredLength(this.text);
    this.text = '';
  }
}

/** What streamLinks read: the links with their hrefs as written, for links.ts to resolve against `baseUrl`. */
export interface StreamedLinks {
  readonly links: { url: string; text: string }[];
  readonly baseUrl: string;
  readonly canonicalHref: string | undefined;
  readonly hiddenBlocksDropped: number;
  readonly pageTextLength: number;
}

/**
 * A page's visible links in document order, read without its tree, each `url` the href as written; undefined when
 * the page needs the tree for that (the top of this file). `cut` is the page's pre-pass (parse-page.ts cutPage).
 */
export function streamLinks(cut: CutPage, pageUrl: string): StreamedLinks | undefined {
  if (cut.sheet.hides.size > 0) return undefined;
  const collector = new LinkCollector();
  try {
    streamHtml(cut.source, collector);
  } catch (error) {
    if (error instanceof NeedsTree) return undefined;
    throw error;
  }
  return {
    links: collector.links,
    baseUrl: baseUrlOf(collector.baseHref, pageUrl),
    canonicalHref: collector.canonicalHref,
    hiddenBlocksDropped: collector.hiddenBlocksDropped,
    pageTextLength: collector.readable!,
  };
}

// HTML → the web_scraper's document (seeds/web-scraper-plan.md milestones 1–3): readable text with an inline `[n]`
// marker after every link (the same URL keeps its number), the references those markers point to with their
// surrounding context, the h1–h6 outline and the page's metadata. Pure, so a worker thread can run it.
// Not handled: text drawn by scripts or CSS (`::before` content), <area> image maps, frames.
import { cleanStrings } from '../clean-text.js';
import { pageReadableLength } from './block-stats.js';
import { removeHidden } from './clean-hidden.js';
import { listHeadings } from './headings.js';
import { readCanonicalUrl, resolveHref } from './links.js';
import { isSameSite } from './link-set.js';
import { parsePage } from './parse-page.js';
import { applySelectors, type SelectOptions } from './select.js';
import { readJsonLd } from './structured-data.js';
import {
  collapseWhitespace,
  findElement,
  isElement,
  textOf,
  type HtmlDocument,
  type HtmlElement,
  type HtmlNode,
} from './parse.js';
import { BLOCK_ELEMENTS, NEVER_RENDERED } from './vocabulary.js';

export type ReferenceType = 'a' | 'img';

export interface ScrapeReference {
  readonly id: number;
  readonly url: string;
  readonly text: string;
  /** Text around the first occurrence, from its block (paragraph, list item, cell), at most CONTEXT_MAX chars. */
  readonly context: string;
  /** Another site than the page's (sub-domains of the same registrable domain are the same site). */
  readonly external: boolean;
  readonly type: ReferenceType;
}

export interface OutlineEntry {
  readonly level: number;
  readonly text: string;
}

export interface ScrapeMetadata {
  readonly title: string | null;
  readonly description: string | null;
  readonly language: string | null;
  readonly canonical_url: string | null;
  readonly author: string | null;
  readonly published_date: string | null;
}

export interface ScrapedHtml {
  readonly text: string;
  readonly references: ScrapeReference[];
  readonly outline: OutlineEntry[];
  readonly metadata: ScrapeMetadata;
  readonly hiddenBlocksDropped: number;
  /** With `selector`: how many elements it matched (0: the text is empty, and the tool says so). */
  readonly selectorMatched?: number;
  /** The visible text of the whole page, which decides empty and needs_js (not the selection's, with `selector`). */
  readonly pageTextLength?: number;
}

/** Seed milestone 3 `_get_link_context(context_chars=100)`: half before the link text, half after. */
export const CONTEXT_CHARS = 100;
/** A context never grows past this, however long the link text is ("very long context should truncate"). */
export const CONTEXT_MAX = 300;

// Seed milestone 1: "script", "style", "noscript", "nav", "footer", "header" never reach `text`; nor does anything
// else never rendered (clean-hidden.ts removes most of it already; this is the backstop).
const EXCLUDED: ReadonlySet<string> = new Set([...NEVER_RENDERED, 'nav', 'footer', 'header']);

function orNull(text: string | null | undefined): string | null {
  const value = collapseWhitespace(text);
  return value === '' ? null : value;
}

interface Occurrence {
  readonly id: number;
  readonly start: number;
  readonly end: number;
}

/** One block being built: the text as the reader sees it (`plain`) and with markers (`marked`). */
class Block {
  plain = '';
  marked = '';
  readonly occurrences: Occurrence[] = [];

  append(raw: string): void {
    const text = raw.replace(/\s+/g, ' ');
    this.plain = join(this.plain, text);
    this.marked = join(this.marked, text);
  }

  marker(id: number): void {
    this.marked += `${this.marked === '' || this.marked.endsWith(' ') ? '' : ' '}[${id}]`;
  }
}

function join(current: string, text: string): string {
  if (current === '' || current.endsWith(' ')) return current + text.replace(/^ /, '');
  return current + text;
}

class Scraper {
  readonly blocks: string[] = [];
  readonly references: ScrapeReference[] = [];
  private readonly ids = new Map<string, number>();
  private block = new Block();
  private linkDepth = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly pageUrl: string,
  ) {}

  walk(node: HtmlElement | HtmlDocument): void {
    for (const child of node.children as HtmlNode[]) {
      if (child.type === 'text') this.block.append(child.data);
      else if (isElement(child)) this.element(child);
    }
  }

  finish(): void {
    this.flush();
  }

  /** An element the caller's `selector` matched: read even when its own tag is one the seed leaves out (nav). */
  select(el: HtmlElement): void {
    this.flush();
    if (el.name === 'a') this.anchor(el);
    else if (el.name === 'img') this.image(el);
    else this.walk(el);
    this.flush();
  }

  private element(el: HtmlElement): void {
    const tag = el.name;
    if (EXCLUDED.has(tag)) return;
    // A line break ends a block of text here (the renderer writes it as a Markdown hard break instead).
    const isBlock = BLOCK_ELEMENTS.has(tag) || tag === 'br';
    if (isBlock) this.flush();
    if (tag === 'a') this.anchor(el);
    else if (tag === 'img') this.image(el);
    else this.walk(el);
    if (isBlock) this.flush();
  }

  private anchor(el: HtmlElement): void {
    const url = resolveHref(el.attribs.href ?? null, this.baseUrl);
    // A link inside a link is invalid HTML; parsers split them, but be safe: only the outer one is numbered.
    if (!url || this.linkDepth > 0) {
      this.walk(el);
      return;
    }
    const block = this.block;
    const start = block.plain.length;
    this.linkDepth++;
    this.walk(el);
    this.linkDepth--;
    if (this.block !== block) {
      // The link held blocks of its own (a card wrapping a heading and a paragraph): number it where it ends.
      this.mark(url, 'a', collapseWhitespace(textOf(el)), this.block, 0);
      return;
    }
    this.mark(url, 'a', collapseWhitespace(textOf(el)), block, skipSpace(block.plain, start));
  }

  private image(el: HtmlElement): void {
    const alt = el.attribs.alt ?? null;
    if (alt) this.block.append(` ${alt} `);
    // Inside a link the image is part of the link's text; alt="" marks a decorative image (HTML §4.8.4.4.4).
    if (this.linkDepth > 0 || alt === '') return;
    const src = el.attribs.src;
    // data: URIs are never references: they would flood the context with base64 (SPEC "No context floods").
    if (!src || src.trim().startsWith('data:')) return;
    const url = resolveHref(src, this.baseUrl);
    if (url)
      this.mark(url, 'img', collapseWhitespace(alt), this.block, skipSpace(this.block.plain, this.block.plain.length));
  }

  private mark(url: string, type: ReferenceType, text: string, block: Block, start: number): void {
    let id = this.ids.get(url);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(url, id);
      this.references.push({ id, url, text, context: '', external: !isSameSite(url, this.pageUrl), type });
      block.occurrences.push({ id, start, end: block.plain.length });
    }
    block.marker(id);
  }

  private flush(): void {
    const block = this.block;
    const marked = block.marked.trim();
    const plain = block.plain.trimEnd();
    for (const { id, start, end } of block.occurrences) {
      const reference = this.references[id - 1]!;
      this.references[id - 1] = { ...reference, context: contextAround(plain, start, Math.min(end, plain.length)) };
    }
    if (marked !== '') this.blocks.push(marked);
    this.block = new Block();
  }
}

function skipSpace(text: string, index: number): number {
  return text[index] === ' ' ? index + 1 : index;
}

/** CONTEXT_CHARS / 2 either side of the link text, cut at CONTEXT_MAX when the link text itself is long. */
export function contextAround(text: string, start: number, end: number): string {
  const half = CONTEXT_CHARS / 2;
  const from = Math.max(0, start - half);
  const to = Math.min(text.length, end + half, from + CONTEXT_MAX);
  // A window cut inside a word drops that partial word ("ls and planes" → "and planes"), never the link text.
  let first = from;
  let last = to;
  if (first > 0 && text[first - 1] !== ' ') {
    const space = text.indexOf(' ', first);
    if (space >= 0 && space < start) first = space + 1;
  }
  if (last < text.length && text[last] !== ' ') {
    const space = text.lastIndexOf(' ', last - 1);
    if (space >= end) last = space;
  }
  return text.slice(first, last).trim();
}

/** The first `<meta>` whose name or property is one of `names` (case-insensitive), with non-empty content. */
function metaContent(doc: HtmlDocument, names: readonly string[]): string | null {
  for (const name of names) {
    const meta = findElement(
      doc,
      (el) =>
        el.name === 'meta' &&
        [el.attribs.name, el.attribs.property, el.attribs.itemprop].some((key) => key?.toLowerCase() === name) &&
        Boolean(el.attribs.content?.trim()),
    );
    if (meta) return orNull(meta.attribs.content);
  }
  return null;
}

const JSON_LD = /<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi;

/**
 * schema.org JSON-LD items, read from the source (the parser drops scripts) and flattened as structured_data's are
 * (structured-data.ts readJsonLd: @graph, caps, broken blocks skipped).
 */
function jsonLd(html: string): Record<string, unknown>[] {
  return readJsonLd(Array.from(html.matchAll(JSON_LD), (match) => match[1] ?? '')).items;
}

function ldAuthor(items: readonly Record<string, unknown>[]): string | null {
  for (const item of items) {
    const authors: unknown[] = Array.isArray(item.author) ? item.author : [item.author];
    const names = authors
      .map((author) => (typeof author === 'string' ? author : (author as { name?: unknown } | null)?.name))
      .filter((name): name is string => typeof name === 'string' && name.trim() !== '');
    if (names.length > 0) return names.join(', ');
  }
  return null;
}

function ldDate(items: readonly Record<string, unknown>[]): string | null {
  for (const item of items) if (typeof item.datePublished === 'string') return orNull(item.datePublished);
  return null;
}

/**
 * Seed milestone 2 `extract_metadata`: title from <title> (og:title when there is none), description from
 * `<meta name="description">` with the OpenGraph fallback, language from `<html lang>`; plus the canonical URL,
 * author and published date where the page states them (meta tags, then JSON-LD).
 */
export function readScrapeMetadata(doc: HtmlDocument, html: string, baseUrl: string): ScrapeMetadata {
  const ld = jsonLd(html);
  const titleElement = findElement(doc, (el) => el.name === 'title');
  return {
    title: orNull(titleElement ? textOf(titleElement) : null) ?? metaContent(doc, ['og:title']),
    description: metaContent(doc, ['description', 'og:description']),
    language: orNull(findElement(doc, (el) => el.name === 'html')?.attribs.lang),
    canonical_url: readCanonicalUrl(doc, baseUrl) ?? null,
    author: metaContent(doc, ['author', 'article:author']) ?? ldAuthor(ld),
    published_date:
      metaContent(doc, ['article:published_time', 'datepublished', 'date', 'dc.date', 'dcterms.created']) ?? ldDate(ld),
  };
}

/**
 * Seed milestone 2 `build_outline`: every h1–h6 with text, in document order (src/extract/headings.ts, the list
 * `section`'s `#n` counts in too), under each root.
 */
export function readOutline(doc: HtmlDocument | readonly (HtmlDocument | HtmlElement)[]): OutlineEntry[] {
  return listHeadings(Array.isArray(doc) ? doc : [doc as HtmlDocument]).map(({ level, text }) => ({ level, text }));
}

export function scrapeHtml(html: string, pageUrl: string, options: SelectOptions = {}): ScrapedHtml {
  const { doc, metadata: head, sheet } = parsePage(html, pageUrl);
  const { baseUrl } = head;
  // Metadata first: cleaning removes <head> with its <title>, <meta> and <link>.
  const metadata = readScrapeMetadata(doc, html, baseUrl);
  // Hidden blocks go before the walk and the outline, so hidden text gets neither a marker nor a heading.
  const hiddenBlocksDropped = removeHidden(doc, { sheet });
  // Then the caller's selectors (src/extract/select.ts): excluded parts go before `selector` is matched, so an
  // excluded element is never selected; with `selector` the text and the outline are the matched elements only.
  const selection = applySelectors(doc, options);
  // The whole page's visible text decides its outcome (src/outcome.ts): a page of links only is not empty.
  const pageTextLength = selection ? selection.pageTextLength : pageReadableLength(doc);
  const outline = readOutline(selection ? selection.roots : doc);
  const scraper = new Scraper(baseUrl, pageUrl);
  if (selection) for (const root of selection.roots) scraper.select(root);
  else scraper.walk(findElement(doc, (el) => el.name === 'body') ?? doc);
  scraper.finish();
  // Clean at the source (src/clean-text.ts), so the words web_scraper chunks and counts are the words it returns.
  const text = scraper.blocks.join('\n\n');
  const selected = !selection ? {} : { selectorMatched: selection.matched };
  const found = { text, references: scraper.references, outline, metadata, hiddenBlocksDropped, pageTextLength };
  return cleanStrings({ ...found, ...selected });
}

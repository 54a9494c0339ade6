// The first step of every reader of a whole page (extractArticle, extractLinks, scrapeHtml): parse once, keeping the
// `<style>` bodies the pre-pass cuts, read what `<head>` says, and the page's hiding rules. Pure.
// What each reader reads next from `<head>` (canonical URL, meta tags) it reads before it calls removeHidden with
// `sheet`: cleaning removes `<head>`.
import { readHidingSheet, type HidingSheet } from './hidden-css.js';
import { cutNeverRendered, type StyleSource } from './html-source.js';
import { METADATA_ELEMENTS, readMetadata, type PageMetadata } from './metadata.js';
import { parseHtml, type HtmlDocument, type HtmlElement } from './parse.js';
import { emptyObjectArray } from './object-array.js';

export interface ParsedPage {
  readonly doc: HtmlDocument;
  /** Title, language and base URL (`<base href>` resolved against the page URL, else the page URL: HTML §4.2.3). */
  readonly metadata: PageMetadata;
  /** What the page's `<style>` sheets hide, read from the source: parsing drops style bodies unread. */
  readonly sheet: HidingSheet;
}

/** The source pre-pass of a page (cutNeverRendered) and the hiding rules of the sheets it cut. */
export interface CutPage {
  /** The runs of the page's HTML that stay (cutNeverRendered), read by the parser in order. */
  readonly source: readonly string[];
  readonly sheet: HidingSheet;
}

export function cutPage(html: string): CutPage {
  const styles: StyleSource[] = [];
  const source = cutNeverRendered(html, styles);
  return { source, sheet: readHidingSheet(html, styles) };
}

/** `cut`: the page's pre-pass already run (cutPage), not run again. */
export function parsePage(html: string, pageUrl: string, cut: CutPage = cutPage(html)): ParsedPage {
  const named = new Map(METADATA_ELEMENTS.map((name) => [name, emptyObjectArray<HtmlElement>()]));
  const doc = parseHtml(html, { source: cut.source, named });
  return { doc, metadata: readMetadata(named, pageUrl), sheet: cut.sheet };
}

// The first step of every reader of a whole page (extractArticle, extractLinks, scrapeHtml): parse once, keeping the
// `<style>` bodies the pre-pass cuts, read what `<head>` says, and the page's hiding rules. Pure.
// What each reader reads next from `<head>` (canonical URL, meta tags) it reads before it calls removeHidden with
// `sheet`: cleaning removes `<head>`.
import { readHidingSheet, type HidingSheet } from './hidden-css.js';
import type { StyleSource } from './html-source.js';
import { readMetadata, type PageMetadata } from './metadata.js';
import { parseHtml, type HtmlDocument } from './parse.js';

export interface ParsedPage {
  readonly doc: HtmlDocument;
  /** Title, language and base URL (`<base href>` resolved against the page URL, else the page URL: HTML §4.2.3). */
  readonly metadata: PageMetadata;
  /** What the page's `<style>` sheets hide, read from the source: parsing drops style bodies unread. */
  readonly sheet: HidingSheet;
}

export function parsePage(html: string, pageUrl: string): ParsedPage {
  const styles: StyleSource[] = [];
  const doc = parseHtml(html, { styles });
  return { doc, metadata: readMetadata(doc, pageUrl), sheet: readHidingSheet(html, styles) };
}

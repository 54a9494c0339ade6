// A page's structured data as data (issue 28 item 3): its JSON-LD, OpenGraph and Twitter card tags, microdata and
// RDFa Lite items (microdata.ts) and data tables (data-tables.ts). Pure, run in the worker when a call asks for it
// (`structured_data`), from a parse of its own: main-content extraction cuts the tree it reads.
// Bounded: JSON-LD is parsed up to MAX_JSON_LD_CHARS of block text and MAX_DATA_ITEMS items (after @graph is
// flattened); each other kind has its caps where it is read. What a cap or a broken block left out is counted.
// Hidden parts of the page: items and tags are data the page declares for machines, most of them never shown (a
// JSON-LD block, a <meta itemprop>), and are read wherever they are; tables are read after hidden blocks are removed,
// as the Markdown is.
import { readHidingSheet } from './hidden-css.js';
import { removeHidden } from './clean-hidden.js';
import { cutNeverRendered, type ScriptSource, type StyleSource } from './html-source.js';
import { boundedValue, readDataTables, tableCsv, type DataTable } from './data-tables.js';
import { baseUrlOf } from './metadata.js';
import { readMicrodata, readRdfa, type DataItem } from './microdata.js';
import { MAX_DATA_ITEMS, MAX_JSON_LD_CHARS, MAX_META_TAGS } from './data-limits.js';
import { findElement, isElement, parseHtml, type HtmlDocument, type HtmlElement } from './parse.js';

export interface StructuredDataOptions {
  /** Each table as { caption, headers, rows } (the default) or as CSV text. */
  readonly tables?: 'rows' | 'csv';
}

/** A data table as CSV (`tables: "csv"`). */
export interface CsvTable {
  readonly caption?: string;
  readonly csv: string;
  readonly totalRows?: number;
}

/** What a cap or a broken block left out; a kind absent left nothing out. */
export interface StructuredDataCuts {
  /** JSON-LD blocks that are not JSON, skipped. */
  readonly jsonLdInvalid?: number;
  /** JSON-LD blocks past MAX_JSON_LD_CHARS, not parsed. */
  readonly jsonLdBlocksLeftOut?: number;
  /** JSON-LD items past MAX_DATA_ITEMS. */
  readonly jsonLdItemsLeftOut?: number;
  readonly microdataItemsLeftOut?: number;
  readonly rdfaItemsLeftOut?: number;
  /** Property values past MAX_DATA_VALUES, microdata and RDFa together. */
  readonly valuesLeftOut?: number;
  readonly metaTagsLeftOut?: number;
  readonly tablesLeftOut?: number;
  /** Tables cut at their rows (the table's totalRows says how many it has). */
  readonly tablesCut?: number;
}

/** Each kind the page has; a kind it has none of is absent, and a page with none is {}. */
export interface StructuredData {
  readonly jsonLd?: Record<string, unknown>[];
  readonly openGraph?: Record<string, string | string[]>;
  readonly twitter?: Record<string, string | string[]>;
  readonly microdata?: DataItem[];
  readonly rdfa?: DataItem[];
  readonly tables?: DataTable[] | CsvTable[];
  readonly cuts?: StructuredDataCuts;
}

// The OpenGraph namespaces (ogp.me: og, and the object types' own) and Twitter's cards.
const OPEN_GRAPH = /^(?:og|article|book|profile|product|music|video|fb):/;
const TWITTER = /^twitter:/;

export function extractStructuredData(
  html: string,
  pageUrl: string,
  options: StructuredDataOptions = {},
): StructuredData {
  const styles: StyleSource[] = [];
  const scripts: ScriptSource[] = [];
  const source = cutNeverRendered(html, styles, scripts);
  const doc = parseHtml(html, { source });
  const baseUrl = baseUrlOf(
    findElement(doc, (el) => el.name === 'base' && el.attribs.href !== undefined)?.attribs.href,
    pageUrl,
  );
  const jsonLd = readJsonLd(jsonLdTexts(html, scripts));
  const meta = readMetaTags(doc);
  const microdata = readMicrodata(doc, baseUrl);
  const rdfa = readRdfa(doc, baseUrl);
  // Tables last: removing hidden blocks changes the tree the items were read from.
  removeHidden(doc, { sheet: readHidingSheet(html, styles) });
  const found = readDataTables(doc);
  const tablesCut = found.tables.filter((table) => table.totalRows !== undefined).length;
  const cuts = nonZero({
    jsonLdInvalid: jsonLd.invalid,
    jsonLdBlocksLeftOut: jsonLd.blocksLeftOut,
    jsonLdItemsLeftOut: jsonLd.itemsLeftOut,
    microdataItemsLeftOut: microdata.itemsLeftOut,
    rdfaItemsLeftOut: rdfa.itemsLeftOut,
    valuesLeftOut: microdata.valuesLeftOut + rdfa.valuesLeftOut,
    metaTagsLeftOut: meta.leftOut,
    tablesLeftOut: found.tablesLeftOut,
    tablesCut,
  });
  const tables = options.tables === 'csv' ? found.tables.map(csvTable) : found.tables;
  return {
    ...(jsonLd.items.length > 0 && { jsonLd: jsonLd.items }),
    ...(meta.openGraph && { openGraph: meta.openGraph }),
    ...(meta.twitter && { twitter: meta.twitter }),
    ...(microdata.items.length > 0 && { microdata: microdata.items }),
    ...(rdfa.items.length > 0 && { rdfa: rdfa.items }),
    ...(tables.length > 0 && { tables }),
    ...(cuts && { cuts }),
  };
}

function csvTable(table: DataTable): CsvTable {
  return {
    ...(table.caption !== undefined && { caption: table.caption }),
    csv: tableCsv(table),
    ...(table.totalRows !== undefined && { totalRows: table.totalRows }),
  };
}

function nonZero(counts: Record<string, number>): StructuredDataCuts | undefined {
  const kept = Object.entries(counts).filter(([, count]) => count > 0);
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

// ---------------------------------------------------------------------------------------------------------------
// JSON-LD

/** The text of each `<script type="application/ld+json">` the pre-pass cut (html-source.ts), in page order. */
function jsonLdTexts(html: string, scripts: readonly ScriptSource[]): string[] {
  return scripts
    .filter((script) => /\btype\s*=\s*["']?\s*application\/ld\+json\s*["';>\s]/i.test(`${script.attributes}>`))
    .map((script) => html.slice(script.start, script.end));
}

export interface JsonLdRead {
  readonly items: Record<string, unknown>[];
  readonly invalid: number;
  readonly blocksLeftOut: number;
  readonly itemsLeftOut: number;
}

/**
 * JSON-LD blocks → their items, in page order: a block's top-level array and each `@graph` flattened into the
 * list (the graph's `@context` given to each of its items that has none), a value that is no object skipped, a
 * block that is not JSON counted in `invalid`. At most MAX_JSON_LD_CHARS of text is parsed and MAX_DATA_ITEMS items
 * kept. `__proto__` keys are dropped as the text is parsed (an object's prototype is no data).
 */
export function readJsonLd(texts: readonly string[]): JsonLdRead {
  const items: Record<string, unknown>[] = [];
  let invalid = 0;
  let blocksLeftOut = 0;
  let itemsLeftOut = 0;
  let charsLeft = MAX_JSON_LD_CHARS;
  for (const raw of texts) {
    // Some pages wrap the JSON in a comment or CDATA, as old advice for inline scripts said.
    const text = raw
      .trim()
      .replace(/^(?:<!--|\/\/\s*<!\[CDATA\[)|(?:-->|\/\/\s*\]\]>)$/g, '')
      .trim();
    if (text === '') continue;
    if (text.length > charsLeft) {
      blocksLeftOut += 1;
      continue;
    }
    charsLeft -= text.length;
    let data: unknown;
    try {
      data = JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
    } catch {
      // Broken JSON-LD is common on real pages: counted, and the page's other blocks still read.
      invalid += 1;
      continue;
    }
    for (const item of flattenJsonLd(data)) {
      if (items.length < MAX_DATA_ITEMS) items.push(item);
      else itemsLeftOut += 1;
    }
  }
  return { items, invalid, blocksLeftOut, itemsLeftOut };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function flattenJsonLd(data: unknown): Record<string, unknown>[] {
  const list = Array.isArray(data) ? data : [data];
  const items: Record<string, unknown>[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const graph = item['@graph'];
    if (!Array.isArray(graph)) {
      items.push(item);
      continue;
    }
    const context = item['@context'];
    for (const node of graph) {
      if (!isObject(node)) continue;
      items.push(context === undefined || '@context' in node ? node : { '@context': context, ...node });
    }
  }
  return items;
}

// ---------------------------------------------------------------------------------------------------------------
// OpenGraph and Twitter cards

interface MetaTags {
  readonly openGraph?: Record<string, string | string[]>;
  readonly twitter?: Record<string, string | string[]>;
  readonly leftOut: number;
}

/**
 * `<meta property|name="og:…" content>` and `twitter:…`, wherever they are, keyed by the property as written (lower
 * case); a property given again (several `og:image`) becomes a list in page order.
 */
function readMetaTags(doc: HtmlDocument): MetaTags {
  const openGraph: Record<string, string | string[]> = Object.create(null) as Record<string, never>;
  const twitter: Record<string, string | string[]> = Object.create(null) as Record<string, never>;
  let kept = 0;
  let leftOut = 0;
  const visit = (node: HtmlDocument | HtmlElement) => {
    if (isElement(node) && node.name === 'meta') {
      const key = (node.attribs.property ?? node.attribs.name ?? '').trim().toLowerCase();
      const content = node.attribs.content;
      const into = OPEN_GRAPH.test(key) ? openGraph : TWITTER.test(key) ? twitter : undefined;
      if (into && content !== undefined && content.trim() !== '') {
        if (kept >= MAX_META_TAGS) leftOut += 1;
        else {
          kept += 1;
          const value = boundedValue(content.trim());
          const before = into[key];
          into[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
        }
      }
    }
    for (const child of node.children) if (isElement(child)) visit(child);
  };
  visit(doc);
  return {
    ...(Object.keys(openGraph).length > 0 && { openGraph: { ...openGraph } }),
    ...(Object.keys(twitter).length > 0 && { twitter: { ...twitter } }),
    leftOut,
  };
}

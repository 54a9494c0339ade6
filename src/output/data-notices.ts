// The sentences of `structured_data` (issue 28 item 3): the line that says what a page declares as data, and what
// its caps or broken blocks left out. Named from src/output/notices.ts.
import type { StructuredData, StructuredDataCuts } from '../extract/structured-data.js';
import {
  MAX_DATA_ITEMS,
  MAX_DATA_TABLES,
  MAX_DATA_VALUES,
  MAX_JSON_LD_CHARS,
  MAX_META_TAGS,
  MAX_TABLE_CELLS,
  MAX_TABLE_ROWS,
} from '../extract/data-limits.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the page declares, kind by kind ("2 JSON-LD items, OpenGraph, 1 table"). */
function kinds(data: StructuredData): string[] {
  return [
    data.jsonLd && count(data.jsonLd.length, 'JSON-LD item'),
    data.openGraph && 'OpenGraph',
    data.twitter && 'Twitter card',
    data.microdata && count(data.microdata.length, 'microdata item'),
    data.rdfa && count(data.rdfa.length, 'RDFa item'),
    data.tables && count(data.tables.length, 'table'),
  ].filter((kind): kind is string => typeof kind === 'string');
}

const CUT_SENTENCES: Record<keyof StructuredDataCuts, (n: number) => string> = {
  jsonLdInvalid: (n) => `${count(n, 'JSON-LD block')} not valid JSON, skipped`,
  jsonLdBlocksLeftOut: (n) => `${count(n, 'JSON-LD block')} past the ${MAX_JSON_LD_CHARS / 1024} KB read of a page`,
  jsonLdItemsLeftOut: (n) => `${count(n, 'JSON-LD item')} past the first ${MAX_DATA_ITEMS}`,
  microdataItemsLeftOut: (n) => `${count(n, 'microdata item')} past the first ${MAX_DATA_ITEMS}`,
  rdfaItemsLeftOut: (n) => `${count(n, 'RDFa item')} past the first ${MAX_DATA_ITEMS}`,
  valuesLeftOut: (n) => `${count(n, 'property value')} past the first ${MAX_DATA_VALUES}`,
  metaTagsLeftOut: (n) => `${count(n, 'OpenGraph or Twitter tag')} past the first ${MAX_META_TAGS}`,
  tablesLeftOut: (n) =>
    `${count(n, 'table')} past the first ${MAX_DATA_TABLES} (or ${MAX_TABLE_CELLS.toLocaleString('en-US')} cells)`,
  tablesCut: (n) =>
    `${count(n, 'table')} cut at ${MAX_TABLE_ROWS} rows or the cells left (total_rows says how many it has)`,
};

export const DATA_SENTENCES = {
  /** The line of the text tools (fetch, read_url) when structured data was asked for: where it is, what it holds. */
  dataLine: (data: StructuredData) => {
    const found = kinds(data);
    return found.length === 0
      ? 'Structured data: the page declares none (no JSON-LD, OpenGraph, Twitter card, microdata, RDFa or data table).'
      : `Structured data: ${found.join(', ')}, in the structured result's structured_data.`;
  },
  /** What the caps and broken blocks left out, one sentence; undefined when nothing was. */
  leftOut: (cuts: StructuredDataCuts | undefined) => {
    const parts = Object.entries(cuts ?? {}).map(([key, n]) => CUT_SENTENCES[key as keyof StructuredDataCuts](n));
    return parts.length === 0 ? undefined : `Left out: ${parts.join('; ')}.`;
  },
};

// `structured_data` in a structured result (issue 28 item 3): what an HTML page declares as data, in the results'
// snake_case, and its schema. One shape for every tool that reads a page (fetch, read_url, web_scraper, read_many's
// and search's pages), so the JSON API, MCP and the CLI's --json give the same.
import { z } from 'zod';
import type { StructuredData } from '../extract/structured-data.js';
import { DATA_SENTENCES } from './data-notices.js';

const metaShape = z
  .record(z.string(), z.union([z.string(), z.array(z.string())]))
  .describe('Each tag by its property as written (og:title); a repeated one a list');

const itemShape = z.object({
  type: z.string().optional().describe('itemtype (microdata) or typeof with its vocab (RDFa)'),
  id: z.string().optional().describe('itemid, or resource'),
  properties: z
    .record(z.string(), z.array(z.unknown()))
    .describe('Each property name → its values in page order: a string, or a nested item {type, id, properties}'),
});

/** The schema of `structured_data`; absent from a result that did not ask for it or is not HTML. */
export const STRUCTURED_DATA_SHAPE = z
  .object({
    json_ld: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .describe('Every JSON-LD item, parsed, @graph flattened, in page order'),
    open_graph: metaShape.optional(),
    twitter: metaShape.optional(),
    microdata: z.array(itemShape).optional(),
    rdfa: z.array(itemShape).optional().describe('RDFa Lite items'),
    tables: z
      .array(
        z.object({
          caption: z.string().optional(),
          headers: z.array(z.string()).optional().describe('The header row ([] when the table has none)'),
          rows: z.array(z.array(z.string())).optional(),
          csv: z.string().optional().describe('With tables: "csv", the table as CSV in place of headers and rows'),
          total_rows: z.number().int().optional().describe('The rows the table has, when it was cut'),
        }),
      )
      .optional()
      .describe('Each data table (layout tables left out)'),
    left_out: z
      .record(z.string(), z.number().int())
      .optional()
      .describe('What caps or broken blocks left out, by kind (json_ld_invalid, tables_cut, …)'),
    note: z.string().optional().describe('The same in words'),
  })
  .optional()
  .describe('With structured_data: what the page declares as data; a kind it has none of is absent');

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A page's structured data in the result's snake_case; the cuts as counts and in words. */
export function structuredDataResult(data: StructuredData): Record<string, unknown> {
  const note = DATA_SENTENCES.leftOut(data.cuts);
  return {
    ...(data.jsonLd && { json_ld: data.jsonLd }),
    ...(data.openGraph && { open_graph: data.openGraph }),
    ...(data.twitter && { twitter: data.twitter }),
    ...(data.microdata && { microdata: data.microdata }),
    ...(data.rdfa && { rdfa: data.rdfa }),
    ...(data.tables && {
      tables: data.tables.map(({ totalRows, ...table }) => ({
        ...table,
        ...(totalRows !== undefined && { total_rows: totalRows }),
      })),
    }),
    ...(data.cuts && {
      left_out: Object.fromEntries(Object.entries(data.cuts).map(([key, n]) => [snake(key), n])),
    }),
    ...(note && { note }),
  };
}

/** The line a text tool adds when structured data was asked for (the text never carries the data itself). */
export function structuredDataLine(data: StructuredData | undefined): string {
  return data ? DATA_SENTENCES.dataLine(data) : '';
}

// `structured_data` and `tables` (issue 28 item 3) on the tools that read a page (fetch, read_url, web_scraper,
// read_many, search): what an HTML page declares as data, in the structured result.
//
// Asked for, not always on: JSON-LD alone is often 10–50 KB on a news or shop page, which every result would carry
// to every client (MCP structuredContent, the JSON API) and web_scraper's text (its JSON) would grow by; and reading
// it is a second parse of the page in the worker. A page's text never carries the data: fetch and read_url add one
// line saying it is there and what it holds; web_scraper's JSON text has it, being the structured result itself.
import { z } from 'zod';
import type { StructuredDataOptions } from '../extract/structured-data.js';
import { booleanArgument } from './arguments.js';

export const structuredDataShape = {
  structured_data: booleanArgument(
    'structured_data',
    false,
    "Also return what the page declares as data, in the result's structured_data: its JSON-LD (parsed, @graph " +
      'flattened), OpenGraph and Twitter card tags, microdata and RDFa items, and each data table as caption, ' +
      'headers and rows. HTML pages only',
  ),
  tables: z
    .enum(['rows', 'csv'], { error: 'tables must be "rows" or "csv"' })
    .optional()
    .describe(
      'How structured_data gives each table: rows (default) or csv, one CSV text per table. Implies structured_data',
    ),
};

/** The arguments as the engine's read option; none when structured data was not asked for. */
export function structuredDataOptions(args: { structured_data?: boolean; tables?: 'rows' | 'csv' }): {
  structuredData?: StructuredDataOptions;
} {
  if (!args.structured_data && args.tables === undefined) return {};
  return { structuredData: { tables: args.tables ?? 'rows' } };
}

// The bounds of structured data (issue 28 item 3), in a module of their own: the agent's sentences
// (src/output/data-notices.ts) name them without loading the readers and the HTML parser at start-up.

/** The most tables read from one page. */
export const MAX_DATA_TABLES = 20;
// The same caps as a spreadsheet's sheet (src/formats/sheets.ts MAX_SHEET_ROWS and MAX_SHEET_COLUMNS, a layer
// above, which extract/ cannot import): keep both copies in sync.
export const MAX_TABLE_ROWS = 1000;
export const MAX_TABLE_COLUMNS = 100;
/** The most cells of all the page's tables together: 20 full tables would otherwise be two million. */
export const MAX_TABLE_CELLS = 20_000;
/** A value (a cell, a property, a meta tag's content) longer than this is cut, with `…`. */
export const MAX_DATA_VALUE_CHARS = 1000;
/** The most top-level items read of each syntax (microdata, RDFa); JSON-LD's cap is the same. */
export const MAX_DATA_ITEMS = 100;
/** The most property values of all the items of one syntax together, nested ones included. */
export const MAX_DATA_VALUES = 2000;
/** The most JSON-LD text parsed from one page, all blocks together; a block that would pass it is not parsed. */
export const MAX_JSON_LD_CHARS = 256 * 1024;
/** The most OpenGraph or Twitter tags kept of one page. */
export const MAX_META_TAGS = 100;

// A page's data tables as data (issue 28 item 3): each table Markdown would render as a GFM table (table-cells.ts
// decides, so layout tables are left out here as there), as its caption, header row and rows of cell text, or as CSV.
// Bounded: at most MAX_DATA_TABLES tables, MAX_TABLE_ROWS rows and MAX_TABLE_COLUMNS columns each, MAX_TABLE_CELLS
// cells in all, each cell's text cut at MAX_DATA_VALUE_CHARS.
// Not handled: rowspan (a spanned cell is in its first row only); colspan repeats nothing, its extra columns are ''.
import { collapseWhitespace, isElement, textOf, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';
import { isLayoutTable, isTable, tableCells } from './table-cells.js';
import { NEVER_RENDERED } from './vocabulary.js';
import {
  MAX_DATA_TABLES,
  MAX_DATA_VALUE_CHARS,
  MAX_TABLE_CELLS,
  MAX_TABLE_COLUMNS,
  MAX_TABLE_ROWS,
} from './data-limits.js';

export interface DataTable {
  readonly caption?: string;
  /** The header row: a <thead>'s last row, or a first row of <th> only; [] when the table has none. */
  readonly headers: string[];
  readonly rows: string[][];
  /** The table had more rows than MAX_TABLE_ROWS (or than the cells left of MAX_TABLE_CELLS): how many. */
  readonly totalRows?: number;
}

export interface DataTables {
  readonly tables: DataTable[];
  /** Data tables past MAX_DATA_TABLES, or past MAX_TABLE_CELLS, not read. */
  readonly tablesLeftOut: number;
}

/** A value cut at MAX_DATA_VALUE_CHARS. */
export function boundedValue(text: string): string {
  return text.length > MAX_DATA_VALUE_CHARS ? `${text.slice(0, MAX_DATA_VALUE_CHARS - 1)}…` : text;
}

/** The data tables of `root` (hidden ones already removed by the caller), in document order. */
export function readDataTables(root: HtmlDocument | HtmlElement): DataTables {
  const tables: DataTable[] = [];
  let tablesLeftOut = 0;
  let cellsLeft = MAX_TABLE_CELLS;
  for (const table of findTables(root)) {
    const cells = tableCells(table);
    if (isLayoutTable(table, cells)) continue;
    if (tables.length >= MAX_DATA_TABLES || cellsLeft <= 0) {
      tablesLeftOut += 1;
      continue;
    }
    const read = readTable(table, cells, cellsLeft);
    if (!read) continue;
    cellsLeft -= read.cells;
    tables.push(read.table);
  }
  return { tables, tablesLeftOut };
}

/**
 * Every table in document order, the ones inside a layout table's cells included (a data table laid out in a page
 * table), but not a table inside a data table's cell, which is part of that cell's text.
 */
function findTables(root: HtmlDocument | HtmlElement): HtmlElement[] {
  const found: HtmlElement[] = [];
  const walk = (node: HtmlDocument | HtmlElement) => {
    for (const child of node.children) {
      if (!isElement(child) || NEVER_RENDERED.has(child.name)) continue;
      if (isTable(child)) {
        found.push(child);
        if (!isLayoutTable(child, tableCells(child))) continue;
      }
      walk(child);
    }
  };
  walk(root);
  return found;
}

function readTable(
  table: HtmlElement,
  cells: HtmlElement[][],
  cellsLeft: number,
): { table: DataTable; cells: number } | undefined {
  const width = Math.min(MAX_TABLE_COLUMNS, Math.max(0, ...cells.map((row) => spanWidth(row))));
  const headerAt = headerRowIndex(table, cells);
  const headers = headerAt === undefined ? [] : rowTexts(cells[headerAt]!, width);
  // A <thead>'s rows above its last are headings of headings: left out, as rows of nothing but empty cells are.
  // A <tfoot> renders last wherever it is written; one that repeats the header row is left out.
  const rowsOf = (inFoot: boolean) =>
    cells
      .filter((row, i) => (headerAt === undefined || i > headerAt) && isFootRow(row) === inFoot)
      .map((row) => rowTexts(row, width))
      .filter((row) => row.some((text) => text !== ''));
  const foot = rowsOf(true).filter((row) => row.join('\u0000') !== headers.join('\u0000'));
  const body = [...rowsOf(false), ...foot];
  if (body.length === 0 && headers.every((text) => text === '')) return undefined;
  const rowsFit = Math.max(0, Math.min(MAX_TABLE_ROWS, Math.floor(cellsLeft / Math.max(1, width)) - 1));
  const rows = body.slice(0, rowsFit);
  const caption = captionOf(table);
  return {
    table: {
      ...(caption && { caption }),
      headers,
      rows,
      ...(rows.length < body.length && { totalRows: body.length }),
    },
    cells: (rows.length + 1) * width,
  };
}

/** The row that heads the table: a <thead>'s last row, else a first row of <th> cells only. */
function headerRowIndex(table: HtmlElement, cells: HtmlElement[][]): number | undefined {
  const head = table.children.find((child): child is HtmlElement => isElement(child) && child.name === 'thead');
  if (head) {
    const headRows = head.children.filter((child) => isElement(child) && child.name === 'tr').length;
    if (headRows > 0) return headRows - 1;
  }
  const first = cells[0];
  return first && first.length > 0 && first.every((cell) => cell.name === 'th') ? 0 : undefined;
}

function isFootRow(row: readonly HtmlElement[]): boolean {
  const tr = row[0]?.parent;
  const group = tr && tr.type !== 'root' ? tr.parent : null;
  return group !== null && group.type !== 'root' && group.name === 'tfoot';
}

function spanWidth(row: readonly HtmlElement[]): number {
  return row.reduce((sum, cell) => sum + colspan(cell), 0);
}

function colspan(cell: HtmlElement): number {
  const span = Number.parseInt(cell.attribs.colspan ?? '1', 10);
  return Number.isFinite(span) && span > 1 ? Math.min(span, MAX_TABLE_COLUMNS) : 1;
}

/** A row's cell texts, each spanned column after the first '', padded or cut to `width`. */
function rowTexts(row: readonly HtmlElement[], width: number): string[] {
  const texts: string[] = [];
  for (const cell of row) {
    if (texts.length >= width) break;
    texts.push(cellText(cell));
    for (let extra = colspan(cell) - 1; extra > 0 && texts.length < width; extra--) texts.push('');
  }
  while (texts.length < width) texts.push('');
  return texts;
}

function cellText(cell: HtmlElement): string {
  return boundedValue(collapseWhitespace(renderedText(cell)));
}

/** textOf without what is never rendered (a <noscript> fallback, a <template>). */
function renderedText(node: HtmlNode): string {
  if (node.type === 'text') return node.data;
  if (!isElement(node) || NEVER_RENDERED.has(node.name)) return '';
  if (node.name === 'br') return ' ';
  let text = '';
  for (const child of node.children) text += renderedText(child);
  return text;
}

function captionOf(table: HtmlElement): string | undefined {
  const caption = table.children.find((child): child is HtmlElement => isElement(child) && child.name === 'caption');
  return caption ? boundedValue(collapseWhitespace(textOf(caption))) || undefined : undefined;
}

/**
 * A table as CSV (RFC 4180, lines ended by `\n`): the header row first when there is one; a field with a comma,
 * a quote or a line break is quoted, its quotes doubled.
 */
export function tableCsv(table: DataTable): string {
  const lines = (table.headers.length > 0 ? [table.headers, ...table.rows] : table.rows).map((row) =>
    row.map(csvField).join(','),
  );
  return lines.join('\n');
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// A table's rows and cells, and whether it holds data or lays out a page: the one rule the Markdown renderer
// (markdown.ts, a GFM table or blocks) and the structured data's tables (data-tables.ts) both follow.
import { findElement, isElement, type HtmlElement } from './parse.js';

/** Each row of `table` (its own, and those of its thead, tbody and tfoot; not a nested table's), as its td/th cells. */
export function tableCells(table: HtmlElement): HtmlElement[][] {
  const rows: HtmlElement[] = [];
  collectRows(table, rows);
  return rows.map((row) =>
    row.children.filter((cell): cell is HtmlElement => isElement(cell) && (cell.name === 'td' || cell.name === 'th')),
  );
}

/** Layout tables (one column, or a table of tables) hold page structure, not data. `cells`: tableCells(table). */
export function isLayoutTable(table: HtmlElement, cells: readonly (readonly HtmlElement[])[]): boolean {
  const width = Math.max(0, ...cells.map((row) => row.length));
  return width <= 1 || table.children.some((child) => isElement(child) && findElement(child, isTable) !== undefined);
}

export function isTable(el: HtmlElement): boolean {
  return el.name === 'table';
}

function collectRows(node: HtmlElement, rows: HtmlElement[]): void {
  for (const child of node.children) {
    if (!isElement(child)) continue;
    const tag = child.name;
    if (tag === 'tr') rows.push(child);
    else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') collectRows(child, rows);
  }
}

// Spreadsheets as Markdown (issue 27): Excel's .xlsx (ECMA-376 SpreadsheetML) and OpenDocument's .ods, each sheet a
// `## Sheet name` section holding one GFM table, the first row its header. Sheets are read by htmlparser2's events
// as they are inflated, never as a tree: a sheet stops at MAX_SHEET_ROWS rows (an .xlsx stops inflating there) and
// MAX_SHEET_COLUMNS columns, and the cut is said under the table. OpenDocument's repeated rows and cells (a sheet's
// unused million rows written as one) are laid out only when something follows them.
// Not handled: formulas (their cached value is shown), number formats (a date is its serial number, a percentage its
// fraction), merged cells, hidden sheets (shown like the others), charts.
import { Parser } from 'htmlparser2';
import { attribute, childrenNamed, gfmTable, parseXml, relationshipId } from './document-xml.js';
import { relationships } from './ooxml.js';
import type { ZipArchive } from './zip.js';

export const MAX_SHEET_ROWS = 1000;
export const MAX_SHEET_COLUMNS = 100;

/** What a sheet's cut is: the rows shown, and the rows the sheet has when it says (xlsx's dimension, ods counted). */
export interface SheetCut {
  readonly sheet: string;
  readonly shownRows: number;
  readonly totalRows: number | undefined;
  readonly columnsCut: boolean;
}

export interface Sheet {
  readonly name: string;
  readonly rows: string[][];
  readonly cut?: SheetCut;
}

/** The sentence under a cut table (src/output/notices.ts's rule: a lower layer names its sentences where made). */
export function sheetCutNote(cut: SheetCut): string {
  const rows = cut.totalRows === undefined ? '' : ` of ${cut.totalRows.toLocaleString('en-US')}`;
  const columns = cut.columnsCut ? ` and its first ${MAX_SHEET_COLUMNS} columns` : '';
  return `_(Sheet "${cut.sheet}" cut: its first ${cut.shownRows.toLocaleString('en-US')} rows${rows}${columns} are shown.)_`;
}

/** Sheets → `## name` sections with their tables and cut notes. */
export function renderSheets(sheets: readonly Sheet[]): string {
  return sheets
    .map((sheet) => {
      const table = gfmTable(sheet.rows);
      const body = [table === '' ? '_(empty sheet)_' : table, ...(sheet.cut ? [sheetCutNote(sheet.cut)] : [])];
      return [`## ${sheet.name.replace(/\s+/g, ' ').trim()}`, ...body].join('\n\n');
    })
    .join('\n\n');
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Rows without their trailing empty cells, and with no empty row at the end. */
function trimRows(rows: string[][]): string[][] {
  for (const row of rows) while (row.length > 0 && row.at(-1)!.trim() === '') row.pop();
  while (rows.length > 0 && rows.at(-1)!.length === 0) rows.pop();
  return rows;
}

// ---- xlsx ----------------------------------------------------------------------------------------------------------

/** "BC12" → column index 54 (0-based); undefined when the reference names none. */
function columnOf(reference: string | undefined): number | undefined {
  const letters = /^([A-Z]{1,3})\d*$/i.exec(reference ?? '')?.[1];
  if (!letters) return undefined;
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column - 1;
}

function sharedStrings(zip: ZipArchive, part: string | undefined): string[] {
  const strings: string[] = [];
  let current: string | undefined;
  let inText = 0;
  let phonetic = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        const tag = local(name);
        if (tag === 'si') current = '';
        else if (tag === 'rPh') phonetic++;
        else if (tag === 't' && phonetic === 0) inText++;
      },
      ontext(text) {
        if (inText > 0 && current !== undefined) current += text;
      },
      onclosetag(name) {
        const tag = local(name);
        if (tag === 'si') {
          strings.push(current ?? '');
          current = undefined;
        } else if (tag === 'rPh') phonetic--;
        else if (tag === 't' && inText > 0) inText--;
      },
    },
    { xmlMode: true },
  );
  if (part) zip.stream(part, (chunk) => (parser.write(chunk), true));
  parser.end();
  return strings;
}

function readXlsxSheet(zip: ZipArchive, part: string, name: string, strings: readonly string[]): Sheet {
  const rows: string[][] = [];
  let totalRows: number | undefined;
  let row: string[] | undefined;
  let column = 0;
  let type = '';
  let value: string | undefined;
  let inValue = false;
  let columnsCut = false;
  let full = false;
  const parser = new Parser(
    {
      onopentag(tag, attribs) {
        switch (local(tag)) {
          case 'dimension': {
            const last = /(\d+)$/.exec(attribs.ref ?? '')?.[1];
            if (last) totalRows = Number(last);
            break;
          }
          case 'row':
            if (rows.length >= MAX_SHEET_ROWS) full = true;
            else row = [];
            break;
          case 'c':
            column = columnOf(attribs.r) ?? row?.length ?? 0;
            type = attribs.t ?? 'n';
            value = undefined;
            break;
          case 'v':
          case 't':
            inValue = true;
            value ??= '';
            break;
        }
      },
      ontext(text) {
        if (inValue) value += text;
      },
      onclosetag(tag) {
        const name = local(tag);
        if (name === 'v' || name === 't') inValue = false;
        else if (name === 'c' && row && value !== undefined) {
          if (column >= MAX_SHEET_COLUMNS) columnsCut = true;
          else row[column] = cellValue(type, value, strings);
        } else if (name === 'row' && row) {
          rows.push(Array.from(row, (cell) => cell ?? ''));
          row = undefined;
        }
      },
    },
    { xmlMode: true },
  );
  // Stop inflating at the first row past the cap: a million-row sheet costs the rows shown.
  zip.stream(part, (chunk) => (parser.write(chunk), !full), { stopsEarly: true });
  if (!full) parser.end();
  const shown = trimRows(rows);
  const cut = full || columnsCut ? { sheet: name, shownRows: shown.length, totalRows, columnsCut } : undefined;
  return { name, rows: shown, ...(cut && { cut }) };
}

function cellValue(type: string, value: string, strings: readonly string[]): string {
  if (type === 's') return strings[Number(value)] ?? '';
  if (type === 'b') return value === '1' ? 'TRUE' : 'FALSE';
  return value;
}

/** An .xlsx's sheets in the workbook's order. */
export function readXlsx(zip: ZipArchive, part: string): Sheet[] {
  const workbook = parseXml(zip.text(part) ?? '');
  const rels = relationships(zip, part);
  const shared = [...rels.values()].find((rel) => rel.type.endsWith('/sharedStrings'));
  const strings = sharedStrings(zip, shared?.target);
  const sheetList = workbook && childrenNamed(workbook, 'sheets')[0];
  return (sheetList ? childrenNamed(sheetList, 'sheet') : []).flatMap((sheet) => {
    const rel = rels.get(relationshipId(sheet) ?? '');
    if (!rel || rel.external || !zip.has(rel.target)) return [];
    return [readXlsxSheet(zip, rel.target, attribute(sheet, 'name') ?? 'Sheet', strings)];
  });
}

// ---- ods -----------------------------------------------------------------------------------------------------------

/** An .ods's sheets (content.xml's tables) in order. */
export function readOds(zip: ZipArchive): Sheet[] {
  const sheets: Sheet[] = [];
  let sheet: { name: string; rows: string[][]; total: number; columnsCut: boolean } | undefined;
  let row: string[] | undefined;
  let rowRepeat = 1;
  let pendingEmpty = 0;
  let cellRepeat = 1;
  let cell: string | undefined;
  let paragraphs = 0;
  const parser = new Parser(
    {
      onopentag(tag, attribs) {
        switch (tag) {
          case 'table:table':
            sheet = { name: attribs['table:name'] ?? 'Sheet', rows: [], total: 0, columnsCut: false };
            pendingEmpty = 0;
            break;
          case 'table:table-row':
            row = [];
            rowRepeat = Math.max(1, Number(attribs['table:number-rows-repeated'] ?? 1) || 1);
            break;
          case 'table:table-cell':
          case 'table:covered-table-cell':
            cell = '';
            paragraphs = 0;
            cellRepeat = Math.max(1, Number(attribs['table:number-columns-repeated'] ?? 1) || 1);
            break;
          case 'text:p':
            if (cell !== undefined && paragraphs++ > 0) cell += ' ';
            break;
          case 'text:s':
            if (cell !== undefined) cell += ' '.repeat(Math.min(100, Number(attribs['text:c'] ?? 1) || 1));
            break;
          case 'text:tab':
          case 'text:line-break':
            if (cell !== undefined) cell += ' ';
            break;
        }
      },
      ontext(text) {
        if (cell !== undefined && paragraphs > 0) cell += text;
      },
      onclosetag(tag) {
        if ((tag === 'table:table-cell' || tag === 'table:covered-table-cell') && row && cell !== undefined) {
          // Repeated cells are laid out up to the column cap; an empty run at the end is trimmed anyway.
          const room = Math.max(0, MAX_SHEET_COLUMNS - row.length);
          if (cellRepeat > room && cell.trim() !== '' && sheet) sheet.columnsCut = true;
          const count =
            cell.trim() === '' && row.length + cellRepeat > MAX_SHEET_COLUMNS ? room : Math.min(cellRepeat, room);
          for (let i = 0; i < count; i++) row.push(cell);
          cell = undefined;
        } else if (tag === 'table:table-row' && row && sheet) {
          const empty = row.every((value) => value.trim() === '');
          if (empty) pendingEmpty += rowRepeat;
          else {
            // Empty rows before this one are real rows of the sheet: kept, up to the cap.
            for (let i = 0; i < pendingEmpty + rowRepeat; i++) {
              sheet.total++;
              if (sheet.rows.length < MAX_SHEET_ROWS) sheet.rows.push(i < pendingEmpty ? [] : [...row]);
            }
            pendingEmpty = 0;
          }
          row = undefined;
        } else if (tag === 'table:table' && sheet) {
          const rows = trimRows(sheet.rows);
          const cutRows = sheet.total > rows.length && sheet.total > MAX_SHEET_ROWS;
          const cut =
            cutRows || sheet.columnsCut
              ? { sheet: sheet.name, shownRows: rows.length, totalRows: sheet.total, columnsCut: sheet.columnsCut }
              : undefined;
          sheets.push({ name: sheet.name, rows, ...(cut && { cut }) });
          sheet = undefined;
        }
      },
    },
    { xmlMode: true },
  );
  zip.stream('content.xml', (chunk) => (parser.write(chunk), true));
  parser.end();
  return sheets;
}

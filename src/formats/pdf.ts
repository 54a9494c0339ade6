// PDF → text, page by page (SPEC "Content": "PDF: its text, page by page, as Markdown"). Parsing is PDF.js
// (Mozilla) through unpdf's serverless build: pure JavaScript, no canvas, no download at install or run time.
// It is CPU work, so the engine runs readPdfText on the worker pool (src/workers/tasks.ts) and only renders here.
// Not handled: OCR of scanned pages (reported as having no text layer), reading order of multi-column layouts
// beyond what PDF.js's text items give, tables, and PDFs that need a password (reported, never guessed).
import { constants, inflateSync } from 'node:zlib';
import type { getDocumentProxy } from 'unpdf';
import { formatBytes } from './render-non-html.js';

/** Why a PDF gave no text, when it gave none. */
export type PdfProblem = 'encrypted' | 'no_text' | 'unreadable' | 'too_large';

// PDF.js holds every stream it decodes in memory, about three times over: a 400 KB PDF whose one content stream
// inflates to 400 MB took 1.3 GB of RSS. Text extraction decodes content streams, fonts and object streams, which
// in real documents add up to a few MB; past this budget the file is a decompression bomb, not a document.
export const MAX_INFLATED_BYTES = 128 * 1024 * 1024;

/** What the worker hands back: structured-clonable, one string per page. */
export interface PdfText {
  readonly pageCount: number;
  readonly title: string | undefined;
  /** The text of each page, lines separated by \n; '' for a page with no text layer. */
  readonly pages: readonly string[];
  readonly problem: PdfProblem | undefined;
  /** PDF.js's own words when the file could not be opened. */
  readonly detail: string | undefined;
}

interface TextItemLike {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

/** Extracts the text of every page. Never throws for a bad PDF: the problem is in the result. */
export async function readPdfText(bytes: Uint8Array, maxInflatedBytes = MAX_INFLATED_BYTES): Promise<PdfText> {
  if (inflatedTextStreamBytes(bytes, maxInflatedBytes) > maxInflatedBytes) {
    const detail = `its compressed streams expand to more than ${formatBytes(maxInflatedBytes)}`;
    return { pageCount: 0, title: undefined, pages: [], problem: 'too_large', detail };
  }
  // Loaded on first use: every extraction worker imports this module, few of them ever see a PDF.
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: PDF.js writes warnings with console.log, and on stdio stdout is the MCP channel.
    pdf = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    const name = (error as { name?: string }).name;
    const detail = error instanceof Error ? error.message : String(error);
    const problem = name === 'PasswordException' ? 'encrypted' : 'unreadable';
    return { pageCount: 0, title: undefined, pages: [], problem, detail };
  }
  try {
    const title = await readTitle(pdf);
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      pages.push(joinTextItems(content.items as TextItemLike[]));
      page.cleanup();
    }
    const problem = pages.every((text) => text === '') ? 'no_text' : undefined;
    return { pageCount: pdf.numPages, title, pages, problem, detail: undefined };
  } finally {
    await pdf.destroy();
  }
}

// The keyword that opens stream data (ISO 32000-1 §7.3.8), not the end of "endstream".
const STREAM_START = /(?<!end)stream\r?\n/g;
const IMAGE_DICT = /\/Subtype\s*\/Image\b/;
const FLATE = /\/(?:FlateDecode|Fl)\b/;

/**
 * The bytes the FlateDecode streams a text reader decodes would inflate to, counted up to `budget` (+1 when
 * over). Image XObjects are skipped: extracting text never decodes them, and scans are large by nature.
 * Not handled: LZW and other filters (rare in modern PDFs), streams inside encrypted files (refused anyway).
 */
export function inflatedTextStreamBytes(bytes: Uint8Array, budget: number): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM_START)) {
    const start = match.index + match[0].length;
    // The stream's dictionary: from its "N 0 obj" to the keyword (nested dictionaries included).
    const dict = text.slice(Math.max(text.lastIndexOf(' obj', match.index), match.index - 4096, 0), match.index);
    if (!FLATE.test(dict) || IMAGE_DICT.test(dict)) continue;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    try {
      const data = bytes.subarray(start, end);
      // Z_SYNC_FLUSH: a truncated stream still counts what it inflates to, as PDF.js would read it.
      total += inflateSync(data, { maxOutputLength: budget - total + 1, finishFlush: constants.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return budget + 1;
      // A damaged stream inflates to nothing here; PDF.js will report it if it matters.
    }
    if (total > budget) return total;
  }
  return total;
}

async function readTitle(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<string | undefined> {
  try {
    const { info } = await pdf.getMetadata();
    const title = (info as { Title?: unknown }).Title;
    return typeof title === 'string' && title.trim() !== '' ? title.trim() : undefined;
  } catch {
    return undefined; // a damaged Info dictionary costs the title, not the text
  }
}

/** PDF.js text items → lines: an item ending a line says so (hasEOL); spaces are items of their own. */
export function joinTextItems(items: readonly TextItemLike[]): string {
  let text = '';
  for (const item of items) {
    if (typeof item.str !== 'string') continue; // marked-content markers carry no text
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return normalizePageText(text);
}

// Control characters other than tab and newline come from broken font encodings; they help no reader.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

function normalizePageText(text: string): string {
  return text
    .replace(CONTROL, '')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface RenderedPdf {
  readonly content: string;
  readonly outcome: 'ok' | 'empty' | 'too_large';
  /** For an empty outcome: what the agent is told instead of empty text. */
  readonly statusDetail: string | undefined;
}

/** Markdown with one `## Page N` section per page, or a status when there is no text to give. */
export function renderPdf(pdf: PdfText, byteLength: number): RenderedPdf {
  const size = formatBytes(byteLength);
  if (pdf.problem === 'encrypted') {
    const statusDetail = `is an encrypted PDF (${size}) that needs a password; its text cannot be read`;
    return { content: '', outcome: 'empty', statusDetail };
  }
  if (pdf.problem === 'unreadable') {
    const statusDetail = `is a PDF (${size}) that could not be parsed: ${pdf.detail ?? 'unknown error'}`;
    return { content: '', outcome: 'empty', statusDetail };
  }
  if (pdf.problem === 'too_large') {
    // too_large is not one of the outcomes a text tool turns into a status line, so the line is the content.
    const statusDetail = `is a PDF (${size}) that was not read: ${pdf.detail ?? 'it is too large'}`;
    return {
      content: `PDF document (${size}) was not read: ${pdf.detail ?? 'too large'}.`,
      outcome: 'too_large',
      statusDetail,
    };
  }
  if (pdf.problem === 'no_text') {
    const pages = pdf.pageCount === 1 ? '1 page' : `${pdf.pageCount} pages`;
    const statusDetail = `is a PDF of ${pages} (${size}) with no text layer (scanned or image-only); it needs OCR to be read`;
    return { content: '', outcome: 'empty', statusDetail };
  }
  return { content: pdfPagesMarkdown(pdf.pages), outcome: 'ok', statusDetail: undefined };
}

/** One `## Page N` section per page, in order; the OCR of scanned pages (src/engine/read-pdf.ts) fills in theirs. */
export function pdfPagesMarkdown(pages: readonly string[]): string {
  const sections = pages.map(
    (text, index) => `## Page ${index + 1}\n\n${text === '' ? '_(no text on this page)_' : text}`,
  );
  return sections.join('\n\n');
}

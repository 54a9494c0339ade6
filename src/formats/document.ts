// Office and e-book documents → Markdown (issue 27): .docx, .xlsx, .pptx (ooxml.ts, sheets.ts), .odt, .ods, .odp
// (odf.ts, sheets.ts), .epub (epub.ts), .rtf (rtf.ts). The engine runs readDocument in the worker pool under the call's
// time limit (src/workers/tasks.ts); a package is opened by zip.ts under its caps, so a bomb is the `too_large`
// outcome, never an out-of-memory worker. The format is decided from the bytes (document-sniff.ts) and the package's
// own manifest, never the URL or the Content-Type.
// The sentences the agent reads for a document that gave no text are here (src/output/notices.ts's rule: a layer below
// output/ names its sentences where it makes them), as pdf.ts's are.
import { packageFormat } from './document-sniff.js';
import type { DocumentMetadata } from './document-xml.js';
import { readEpub } from './epub.js';
import { readOdp, readOdt, odfMetadata } from './odf.js';
import { coreProperties, ooxmlMain, readDocx, readPptx } from './ooxml.js';
import { formatBytes } from './render-non-html.js';
import { readRtf } from './rtf.js';
import { readOds, readXlsx, renderSheets, type SheetCut } from './sheets.js';
import { ZipArchive, ZipFormatError, ZipLimitError } from './zip.js';

export type DocumentFormat = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'epub' | 'rtf';

/** Each format's media type: the content type the structured result names, whatever the server said. */
export const DOCUMENT_MEDIA_TYPES: Readonly<Record<DocumentFormat, string>> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
  rtf: 'application/rtf',
};

/** Which of our readers read it: the structured result's `document.reader`. */
const READERS: Readonly<Record<DocumentFormat, string>> = {
  docx: 'ooxml-word',
  xlsx: 'ooxml-sheets',
  pptx: 'ooxml-slides',
  odt: 'odf-text',
  ods: 'odf-sheets',
  odp: 'odf-slides',
  epub: 'epub-spine',
  rtf: 'rtf',
};

/** Each format named with its article, as the status lines say it. */
const NAMES: Readonly<Record<DocumentFormat, string>> = {
  docx: 'a Word document',
  xlsx: 'an Excel workbook',
  pptx: 'a PowerPoint presentation',
  odt: 'an OpenDocument text',
  ods: 'an OpenDocument spreadsheet',
  odp: 'an OpenDocument presentation',
  epub: 'an EPUB book',
  rtf: 'an RTF document',
};

export type DocumentProblem = 'too_large' | 'unreadable';

/** What the worker hands back: structured-clonable. */
export interface DocumentText {
  readonly format: DocumentFormat | undefined;
  readonly markdown: string;
  readonly metadata: DocumentMetadata;
  /** Slides, sheets or chapters, by format. */
  readonly parts?: { readonly slides?: number; readonly sheets?: number; readonly chapters?: number };
  /** The sheets cut by rows or columns. */
  readonly cuts: readonly SheetCut[];
  readonly problem: DocumentProblem | undefined;
  readonly detail: string | undefined;
}

const failed = (format: DocumentFormat | undefined, problem: DocumentProblem, detail: string): DocumentText => ({
  format,
  markdown: '',
  metadata: {},
  cuts: [],
  problem,
  detail,
});

/** Reads a document. Never throws for a bad or hostile file: the problem is in the result. */
export function readDocument(bytes: Uint8Array, baseUrl: string): DocumentText {
  if (bytes[0] === 0x7b) {
    const rtf = readRtf(bytes, baseUrl);
    return { format: 'rtf', markdown: rtf.markdown, metadata: rtf.metadata, cuts: [], problem: undefined, detail: '' };
  }
  let format: DocumentFormat | undefined = packageFormat(bytes);
  try {
    const zip = new ZipArchive(bytes);
    const main = format === undefined ? ooxmlMain(zip) : undefined;
    format ??= main?.format;
    switch (format) {
      case 'docx':
        return ok(format, readDocx(zip, main!.part, baseUrl), coreProperties(zip));
      case 'pptx': {
        const { markdown, slides } = readPptx(zip, main!.part, baseUrl);
        return ok(format, markdown, coreProperties(zip), { slides });
      }
      case 'xlsx': {
        const sheets = readXlsx(zip, main!.part);
        return ok(format, renderSheets(sheets), coreProperties(zip), { sheets: sheets.length }, cutsOf(sheets));
      }
      case 'odt':
        return ok(format, readOdt(zip, baseUrl), odfMetadata(zip));
      case 'odp': {
        const { markdown, slides } = readOdp(zip, baseUrl);
        return ok(format, markdown, odfMetadata(zip), { slides });
      }
      case 'ods': {
        const sheets = readOds(zip);
        return ok(format, renderSheets(sheets), odfMetadata(zip), { sheets: sheets.length }, cutsOf(sheets));
      }
      case 'epub': {
        const book = readEpub(zip);
        return ok(format, book.markdown, book.metadata, { chapters: book.chapters });
      }
      default:
        return failed(undefined, 'unreadable', 'its manifest names no main part this reader knows');
    }
  } catch (error) {
    if (error instanceof ZipLimitError) return failed(format, 'too_large', error.message);
    if (error instanceof ZipFormatError) return failed(format, 'unreadable', error.message);
    return failed(format, 'unreadable', error instanceof Error ? error.message : String(error));
  }
}

function cutsOf(sheets: readonly { readonly cut?: SheetCut }[]): SheetCut[] {
  return sheets.flatMap((sheet) => (sheet.cut ? [sheet.cut] : []));
}

function ok(
  format: DocumentFormat,
  markdown: string,
  metadata: DocumentMetadata,
  parts?: DocumentText['parts'],
  cuts: readonly SheetCut[] = [],
): DocumentText {
  return { format, markdown, metadata, ...(parts && { parts }), cuts, problem: undefined, detail: undefined };
}

/** What the engine is handed: the Markdown, or the line saying why there is none. */
export interface RenderedDocument {
  readonly content: string;
  readonly outcome: 'ok' | 'empty' | 'too_large';
  readonly statusDetail: string | undefined;
  /** The document's media type and our reader, for the structured result. */
  readonly mediaType: string | undefined;
  readonly reader: string | undefined;
}

export function renderDocument(document: DocumentText, byteLength: number): RenderedDocument {
  const size = formatBytes(byteLength);
  const name = document.format ? NAMES[document.format] : 'an Office or e-book document';
  const Name = name[0]!.toUpperCase() + name.slice(1);
  const facts = {
    mediaType: document.format && DOCUMENT_MEDIA_TYPES[document.format],
    reader: document.format && READERS[document.format],
  };
  if (document.problem === 'too_large') {
    // too_large is not one of the outcomes a text tool turns into a status line, so the line is the content.
    const statusDetail = `is ${name} (${size}) that was not read: ${document.detail ?? 'it is too large'}`;
    return {
      content: `${Name} (${size}) was not read: ${document.detail ?? 'too large'}.`,
      outcome: 'too_large',
      statusDetail,
      ...facts,
    };
  }
  if (document.problem === 'unreadable') {
    const statusDetail = `is ${name} (${size}) that could not be read: ${document.detail ?? 'unknown error'}`;
    return { content: '', outcome: 'empty', statusDetail, ...facts };
  }
  if (document.markdown.trim() === '') {
    return { content: '', outcome: 'empty', statusDetail: `is ${name} (${size}) with no text`, ...facts };
  }
  return { content: document.markdown, outcome: 'ok', statusDetail: undefined, ...facts };
}

// A PDF: its text layer, read page by page in the worker pool (src/formats/pdf.ts); an encrypted document says why
// in `statusDetail`. Pages without a text layer are read by OCR (issue 27): each page's scanned image is taken from
// the file in the worker (src/formats/pdf-page-image.ts), one page at a time, and read by tesseract (src/ocr/), up to
// OCR_CONCURRENCY pages at once, in page order, within the OCR deadline (read-image.ts ocrDeadline). What the deadline
// did not reach is cut and said, as a cut page is; pages with a text layer keep it. Without tesseract a PDF with no
// text at all is `needs_ocr`, and one with some text keeps that text.
import { cleanText } from '../clean-text.js';
import type { Config } from '../config.js';
import type { FetchedPage } from '../fetch/types.js';
import { pdfPagesMarkdown } from '../formats/pdf.js';
import { formatBytes } from '../formats/render-non-html.js';
import type { Ocr } from '../ocr/ocr.js';
import type { Extractor } from '../workers/extractor.js';
import type { KindFields, ReadOptions } from './page-content.js';
import { OCR_READER, ocrDeadline, ocrError, type OcrDeadline } from './read-image.js';

export type PdfOcrConfig = Pick<Config, 'ocrTimeoutMs' | 'ocrConcurrency' | 'ocrMaxPixels'>;

// The sentences of this reader (the engine is below src/output/).
export const pagesNotReached = (first: number, count: number, seconds: number) =>
  `_OCR stopped at its time limit (${seconds} s, OCR_TIMEOUT): ${first === count ? `page ${count}` : `pages ${first}–${count}`} of ${count} ${first === count ? 'was' : 'were'} not read._`;
const PAGE_IMAGE_TOO_LARGE = '_(not read: its image is larger than OCR_MAX_PIXELS)_';
const noTextFound = (pages: number, size: string) =>
  `is a PDF of ${pages === 1 ? '1 page' : `${pages} pages`} (${size}) with no text layer, and OCR found no text in its images`;

export async function readPdfPage(
  page: FetchedPage,
  extractor: Extractor,
  ocr?: Ocr,
  config?: PdfOcrConfig,
  options: ReadOptions = {},
): Promise<KindFields> {
  const pdf = await extractor.readPdf(page.body);
  const fields: KindFields = {
    title: pdf.title,
    content: pdf.content,
    outcome: pdf.outcome,
    pageCount: pdf.pageCount,
    statusDetail: pdf.statusDetail,
  };
  if (pdf.pages === undefined || ocr === undefined || config === undefined) return fields;
  if (!ocr.isAvailable()) {
    return pdf.outcome === 'empty'
      ? { ...fields, content: '', outcome: 'needs_ocr', statusDetail: ocr.unavailableDetail() }
      : fields;
  }
  const deadline = ocrDeadline(config, options);
  const read = await ocrPages(page, pdf.pages, extractor, ocr, config, deadline);
  const hasText = read.pages.some((text) => text !== '');
  const cut =
    read.notReached > 0 ? pagesNotReached(read.pages.length + 1, pdf.pageCount, deadline.timeoutMs / 1000) : '';
  const content = cleanText(
    [hasText ? pdfPagesMarkdown(read.pages) : '', cut].filter((part) => part !== '').join('\n\n'),
  );
  return {
    ...fields,
    content: hasText || cut !== '' ? content : '',
    outcome: hasText || cut !== '' ? 'ok' : pdf.outcome,
    statusDetail: hasText || cut !== '' ? undefined : noTextFound(pdf.pageCount, formatBytes(page.body.byteLength)),
    ...(read.ocrPages > 0 && { reader: OCR_READER, ocrLanguages: ocr.languages, ocrPages: read.ocrPages }),
    ...(read.notReached > 0 && { pagesNotRead: read.notReached }),
  };
}

interface OcrPages {
  /** The pages read, in order, up to the first the deadline did not reach. */
  readonly pages: readonly string[];
  readonly ocrPages: number;
  readonly notReached: number;
}

async function ocrPages(
  page: FetchedPage,
  texts: readonly string[],
  extractor: Extractor,
  ocr: Ocr,
  config: PdfOcrConfig,
  deadline: OcrDeadline,
): Promise<OcrPages> {
  const pages = [...texts];
  const scanned = pages.flatMap((text, index) => (text === '' ? [index] : []));
  let ocrCount = 0;
  const readOne = async (index: number): Promise<string> => {
    const image = await extractor.pdfPageImage(page.body, index + 1, config.ocrMaxPixels);
    if (image.problem === 'too_large') return PAGE_IMAGE_TOO_LARGE;
    if (image.image === undefined) return '';
    deadline.signal.throwIfAborted();
    const text = await ocr.recognize(image.image, { signal: deadline.signal });
    ocrCount++;
    return text;
  };
  // A window of OCR_CONCURRENCY pages at a time, in page order: the pages before a cut are all read.
  for (let start = 0; start < scanned.length; start += config.ocrConcurrency) {
    const window = scanned.slice(start, start + config.ocrConcurrency);
    const results = await Promise.allSettled(window.map(readOne));
    for (const [offset, result] of results.entries()) {
      const index = window[offset]!;
      if (result.status === 'fulfilled') {
        pages[index] = result.value;
        continue;
      }
      if (!deadline.expired()) throw ocrError(result.reason, page.finalUrl, deadline);
      if (ocrCount === 0 && !texts.some((text) => text !== '')) throw ocrError(result.reason, page.finalUrl, deadline);
      return { pages: pages.slice(0, index), ocrPages: ocrCount, notReached: pages.length - index };
    }
  }
  return { pages, ocrPages: ocrCount, notReached: 0 };
}

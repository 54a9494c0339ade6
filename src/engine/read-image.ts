// An image (png, jpeg, webp, tiff, gif): its text by OCR (src/ocr/), the bytes going straight to tesseract — no
// worker, since this thread only pipes them. Without tesseract the outcome is `needs_ocr` (its hint is in
// src/output/notices.ts); an image whose header announces more than OCR_MAX_PIXELS is `too_large`, never decoded.
// The OCR has a deadline (ocrDeadline) and the caller's cancellation; either kills the process.
import { cleanText } from '../clean-text.js';
import type { Config } from '../config.js';
import { ExtractionError, TimeoutError } from '../errors.js';
import type { FetchedPage } from '../fetch/types.js';
import { formatBytes } from '../formats/render-non-html.js';
import { sniffImageType } from '../formats/sniff.js';
import { ImageTooLarge, OcrUnavailable, type Ocr } from '../ocr/ocr.js';
import type { KindFields, ReadOptions } from './page-content.js';
import { readBinaryPage } from './read-binary.js';

/** The reader named in the structured result of a page read by OCR. */
export const OCR_READER = 'ocr';

/** What OCR of one read may take: OCR_TIMEOUT, cut to twice the call's own time-out, and the caller's cancellation. */
export interface OcrDeadline {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** The deadline passed (not the caller's cancellation). */
  readonly expired: () => boolean;
}

export function ocrDeadline(config: Pick<Config, 'ocrTimeoutMs'>, options: ReadOptions): OcrDeadline {
  const callMs = options.timeoutMs === undefined ? Infinity : 2 * options.timeoutMs;
  const timeoutMs = Math.min(config.ocrTimeoutMs, callMs);
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer]) : timer;
  return { signal, timeoutMs, expired: () => timer.aborted && !options.signal?.aborted };
}

// The sentences of this reader (the engine is below src/output/, as render-step.ts's are).
export const ocrTimedOut = (url: string, ms: number) =>
  `OCR of ${url} did not finish within ${ms} ms. Try again, or raise OCR_TIMEOUT.`;
const ocrFailed = (reason: string) => `OCR failed: ${reason}`;
const noTextInImage = (type: string) => `is an image (${type}) in which OCR found no text`;
const imageTooLargeLine = (type: string, bytes: number, error: ImageTooLarge) =>
  `Image (${type}, ${formatBytes(bytes)}) was not read: it is ${error.message}, more than OCR_MAX_PIXELS (${error.maxPixels}).`;

export async function readImagePage(
  page: FetchedPage,
  ocr: Ocr,
  config: Pick<Config, 'ocrTimeoutMs'>,
  options: ReadOptions,
): Promise<KindFields> {
  const type = sniffImageType(page.body) ?? page.mediaType;
  const deadline = ocrDeadline(config, options);
  try {
    const text = cleanText(await ocr.recognize(page.body, { signal: deadline.signal }));
    const fields = { title: undefined, reader: OCR_READER, ocrLanguages: ocr.languages } as const;
    if (text !== '') return { ...fields, content: text, outcome: 'ok' };
    return { ...fields, content: '', outcome: 'empty', statusDetail: noTextInImage(type) };
  } catch (error) {
    // Without OCR the picture is what it was before OCR: one line, never bytes (shown as is with `raw`).
    if (error instanceof OcrUnavailable)
      return { ...readBinaryPage(page), outcome: 'needs_ocr', statusDetail: ocr.unavailableDetail() };
    // A header that gives no size: not an image tesseract could read either.
    if (error instanceof ImageTooLarge && error.size === undefined) return readBinaryPage(page);
    if (error instanceof ImageTooLarge) {
      const line = imageTooLargeLine(type, page.body.byteLength, error);
      return { title: undefined, content: line, outcome: 'too_large', statusDetail: line };
    }
    throw ocrError(error, page.finalUrl, deadline);
  }
}

/** A failed OCR as the error the caller reads: its own cancellation as is, the deadline as TIMEOUT. */
export function ocrError(error: unknown, url: string, deadline: OcrDeadline): unknown {
  if (deadline.expired())
    return new TimeoutError(url, deadline.timeoutMs, undefined, ocrTimedOut(url, deadline.timeoutMs));
  if (deadline.signal.aborted) return error;
  return new ExtractionError('EXTRACTION_FAILED', ocrFailed(error instanceof Error ? error.message : String(error)), {
    cause: error,
  });
}

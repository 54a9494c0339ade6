// Text in pictures (issue 27 item 2): an image's bytes → Markdown, by Debian's tesseract (optional, like Chromium:
// find-tesseract.ts). Bounded like every read: the image's pixels are checked from its header before anything decodes
// it (OCR_MAX_PIXELS), at most OCR_CONCURRENCY processes run at once (the browser's slot pool: a call waits for a slot
// but never past its own deadline), and each process is killed when the call's signal aborts (run-tesseract.ts).
import { createRenderSlots } from '../browser/render-slots.js';
import type { Config } from '../config.js';
import { findTesseract, tesseractPathUnusable } from './find-tesseract.js';
import { imageSize, type ImageSize } from '../image-size.js';
import { ocrMarkdown } from './ocr-markdown.js';
import { runTesseract } from './run-tesseract.js';

/** No tesseract is installed (or TESSERACT_PATH names no executable): the read's outcome is needs_ocr. */
export class OcrUnavailable extends Error {}

/** The image's header announces more pixels than OCR_MAX_PIXELS, or no size at all. */
export class ImageTooLarge extends Error {
  constructor(
    readonly size: ImageSize | undefined,
    readonly maxPixels: number,
  ) {
    super(size ? `${size.width} × ${size.height} pixels` : 'no readable size');
  }
}

export interface RecognizeOptions {
  readonly signal: AbortSignal;
  /** Told each tesseract process's pid as it starts (tests). */
  readonly onSpawn?: (pid: number) => void;
}

export interface Ocr {
  /** Whether a tesseract is there now (looked up at each call: installing it needs no restart). */
  isAvailable(): boolean;
  /** Without OCR, why, when the operator's TESSERACT_PATH is the cause (undefined: nothing is installed). */
  unavailableDetail(): string | undefined;
  /** OCR_LANGUAGES, as tesseract's `-l` takes them ("eng+deu"). */
  readonly languages: string;
  /** The image's text as Markdown paragraphs ('' when it holds none). Rejects with the signal's reason on abort. */
  recognize(image: Uint8Array, options: RecognizeOptions): Promise<string>;
  /** OCR processes running now and calls waiting for a slot. */
  readonly running: number;
  readonly waiting: number;
}

export type OcrConfig = Pick<Config, 'tesseractPath' | 'ocrLanguages' | 'ocrConcurrency' | 'ocrMaxPixels'>;

export function createOcr(config: OcrConfig): Ocr {
  const slots = createRenderSlots(config.ocrConcurrency);
  return {
    isAvailable: () => findTesseract(config.tesseractPath) !== undefined,
    unavailableDetail: () =>
      config.tesseractPath === undefined ? undefined : tesseractPathUnusable(config.tesseractPath),
    languages: config.ocrLanguages,
    get running() {
      return slots.running;
    },
    get waiting() {
      return slots.waiting;
    },
    async recognize(image, { signal, onSpawn }) {
      // No OCR first: an image that cannot be read here is needs_ocr whatever its size.
      const executable = findTesseract(config.tesseractPath);
      if (executable === undefined) throw new OcrUnavailable();
      const size = imageSize(image);
      if (!size || size.width * size.height > config.ocrMaxPixels) throw new ImageTooLarge(size, config.ocrMaxPixels);
      const release = await slots.acquire(signal);
      try {
        const text = await runTesseract(executable, image, { languages: config.ocrLanguages, signal, onSpawn });
        return ocrMarkdown(text);
      } finally {
        release();
      }
    },
  };
}

// Whether the OCR tests have tesseract, and the one line a run prints when they skip for want of it. Vitest's
// globalSetup (vitest.config.ts), so the line comes once per run; test/ocr-available.ts applies the same finding file
// by file (and fails instead under CI). No vitest import here: globalSetup runs outside tests.
import { findTesseract } from '../src/ocr/find-tesseract.js';

/** The tesseract the tests use (TESSERACT_PATH, else PATH), found by the product's own rule, or undefined. */
export const TEST_TESSERACT_PATH: string | undefined = findTesseract(process.env.TESSERACT_PATH || undefined);

export const HOW_TO_RUN_OCR = 'install it with `apt-get install tesseract-ocr` (or set TESSERACT_PATH) to run them';

export default function setup(): void {
  if (!TEST_TESSERACT_PATH && !process.env.CI) {
    process.stderr.write(`[web-reader tests] the OCR tests are skipped: no tesseract found; ${HOW_TO_RUN_OCR}.\n`);
  }
}

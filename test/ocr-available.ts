// Whether the OCR tests can run, for every test file that needs a real tesseract. Without one they skip, and the run
// prints one line saying why and how to run them (test/ocr-notice.ts); with CI set (as .ci/run runs) a missing
// tesseract is a failure, never a silent skip. As test/browser-available.ts does for Chromium.
import { describeWithPart } from './optional-part.js';
import { HOW_TO_RUN_OCR, TEST_TESSERACT_PATH } from './ocr-notice.js';

export { TEST_TESSERACT_PATH };

/** `describe` for tests that need a real tesseract: skipped without one, failed under CI. */
export function describeWithOcr(name: string, body: (tesseractPath: string) => void): void {
  const part = { path: TEST_TESSERACT_PATH, program: 'tesseract', tests: 'the OCR tests', howToRun: HOW_TO_RUN_OCR };
  describeWithPart(name, part, body);
}

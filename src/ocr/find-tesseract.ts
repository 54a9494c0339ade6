// Which tesseract reads text in pictures: TESSERACT_PATH when it is set, and then no other (a path that is not an
// executable means no OCR, never a silent fall-back to another binary); else `tesseract` on PATH, where Debian's
// `tesseract-ocr` package puts it. A few stat calls, made at each OCR until one is found, so that installing it needs
// no restart (the same rule as the browser, src/browser/find-browser.ts).
import { delimiter, join } from 'node:path';
import { isExecutableFile } from '../browser/find-browser.js';

/** The one line that makes OCR work, for the operator (the agent's sentence is src/output/notices.ts). */
export const TESSERACT_INSTALL_LINE = 'apt-get install tesseract-ocr';

/**
 * A read's status detail when TESSERACT_PATH is set but names no executable: the outcome's own help (install the
 * package) would send the operator the wrong way.
 */
export function tesseractPathUnusable(tesseractPath: string): string {
  return (
    `holds its text only in pictures (an image, or a scanned PDF) and TESSERACT_PATH (${tesseractPath}) is not an ` +
    'executable file: point it at tesseract, or unset it to use the one on PATH'
  );
}

/** The executable to run, or undefined when there is none. */
export function findTesseract(
  tesseractPath: string | undefined,
  pathList = process.env.PATH ?? '',
): string | undefined {
  if (tesseractPath !== undefined) return isExecutableFile(tesseractPath) ? tesseractPath : undefined;
  for (const dir of pathList.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'tesseract');
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

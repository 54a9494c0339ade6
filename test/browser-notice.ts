// Whether the rendering tests have a browser, and the one line a run prints when they skip for want of one. It is
// Vitest's globalSetup (vitest.config.ts), so the line comes once per run; test/browser-available.ts applies the
// same finding file by file (and fails instead under CI). No vitest import here: globalSetup runs outside tests.
import { findBrowser } from '../src/browser/find-browser.js';

/** The browser the tests use (CHROMIUM_PATH, else Debian's), found by the product's own rule, or undefined. */
export const TEST_BROWSER_PATH: string | undefined = findBrowser(process.env.CHROMIUM_PATH || undefined);

export const HOW_TO_RUN = 'install it with `apt-get install chromium` (or set CHROMIUM_PATH) to run them';

export default function setup(): void {
  if (!TEST_BROWSER_PATH && !process.env.CI) {
    process.stderr.write(`[web-reader tests] the rendering tests are skipped: no Chromium found; ${HOW_TO_RUN}.\n`);
  }
}

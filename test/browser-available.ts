// Whether the rendering tests can run, decided once for every test file that needs a real Chromium (src/browser/,
// and the tools' rendering tests). Without a browser they skip with one visible line saying why and how to run
// them; with CI set (as .ci/run runs) a missing browser is a failure, never a silent skip.
//
//   describeWithBrowser('renders', (browserPath) => { it(…) });
import { describe, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';

/** The browser the tests use (CHROMIUM_PATH, else Debian's), found by the product's own rule, or undefined. */
export const TEST_BROWSER_PATH: string | undefined = findBrowser(process.env.CHROMIUM_PATH || undefined);

const HOW = 'install it with `apt-get install chromium` (or set CHROMIUM_PATH) to run them';

/** `describe` for tests that need a real browser: skipped with one line without one, failed under CI. */
export function describeWithBrowser(name: string, body: (browserPath: string) => void): void {
  const path = TEST_BROWSER_PATH;
  if (path) return void describe(name, () => body(path));
  if (process.env.CI) {
    describe(name, () => {
      it('needs Chromium, because CI is set', () => {
        throw new Error(`No Chromium for the rendering tests: ${HOW}.`);
      });
    });
    return;
  }
  process.stderr.write(`[web-reader tests] skipping '${name}': no Chromium found; ${HOW}.\n`);
  describe.skip(name, () => body(''));
}

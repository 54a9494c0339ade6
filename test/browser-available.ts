// Whether the rendering tests can run, decided once for every test file that needs a real Chromium (src/browser/,
// and the tools' rendering tests). Without a browser they skip with one visible line saying why and how to run
// them; with CI set (as .ci/run runs) a missing browser is a failure, never a silent skip.
//
//   describeWithBrowser('renders', (browserPath) => { it(…) });
import { accessSync, constants } from 'node:fs';
import { describe, it } from 'vitest';
import { DEFAULT_BROWSER_PATHS } from '../src/browser/find-browser.js';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false; // missing or not executable
  }
}

/** The browser the tests use (CHROMIUM_PATH, else Debian's), or undefined. */
export const TEST_BROWSER_PATH: string | undefined = process.env.CHROMIUM_PATH
  ? isExecutable(process.env.CHROMIUM_PATH)
    ? process.env.CHROMIUM_PATH
    : undefined
  : DEFAULT_BROWSER_PATHS.find(isExecutable);

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

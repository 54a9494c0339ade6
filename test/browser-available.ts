// Whether the rendering tests can run, for every test file that needs a real Chromium (src/browser/, and the tools'
// rendering tests). Without a browser they skip, and the run prints one line saying why and how to run them
// (test/browser-notice.ts); with CI set (as .ci/run runs) a missing browser is a failure, never a silent skip.
//
//   describeWithBrowser('renders', (browserPath) => { it(…) });
import { describeWithPart } from './optional-part.js';
import { HOW_TO_RUN, TEST_BROWSER_PATH } from './browser-notice.js';

export { TEST_BROWSER_PATH };

/**
 * RENDER_TIMEOUT for tests that render an ordinary page: a busy 2-core machine (two suites at load 20) took over 20 s
 * to start Chromium and render, so the deadline sits just under the test's 60 s limit. Tests of the deadline itself
 * set their own.
 */
export const SLOW_MACHINE_RENDER_TIMEOUT = '50000';

/** The same as a render's deadline in ms, for tests that call the renderer itself (src/browser/). */
export const ORDINARY_RENDER_MS = Number(SLOW_MACHINE_RENDER_TIMEOUT);

/** `describe` for tests that need a real browser: skipped without one, failed under CI. */
export function describeWithBrowser(name: string, body: (browserPath: string) => void): void {
  const part = { path: TEST_BROWSER_PATH, program: 'Chromium', tests: 'the rendering tests', howToRun: HOW_TO_RUN };
  describeWithPart(name, part, body);
}

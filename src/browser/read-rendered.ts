// One page from navigation to its DOM: navigate (DOMContentLoaded) → settle (network idle, then the DOM quiet,
// capped) → optional `waitFor` selector → optional `actions` (run-actions.ts) → the DOM serialised → optional
// screenshot (take-screenshot.ts), last, so that it shows the page whose DOM was read. A page whose script holds the main thread for
// SCRIPT_STALL_MS (`while (true) {}`, in the document or in a timer) does not hold the render to its deadline: the
// script is ended (page-guard.ts) and the DOM it had written is read — its content, by the call's deadline. A page
// that starts spinning again as it is read is ended again, a few times, then the deadline decides.
import type { Page, Response } from 'playwright-core';
import { log } from '../log.js';
import type { ActionResult, PageAction } from './page-actions.js';
import { SCRIPT_STALL_MS, type PageGuard } from './page-guard.js';
import { waitForSelector } from './render-failure.js';
import { runActions } from './run-actions.js';
import { settlePage } from './settle-page.js';
import { takeScreenshot, type Screenshot, type ScreenshotRequest } from './take-screenshot.js';

/** Longest wait for the network to go idle and the DOM to stop changing after DOMContentLoaded. */
export const SETTLE_CAP_MS = 5000;
/** How many times a read may end a spinning script before it leaves the page to its deadline. */
const READ_ATTEMPTS = 3;

export interface ReadSteps {
  /** A step raced against the render's deadline and cancellation. */
  readonly bounded: <T>(step: Promise<T>) => Promise<T>;
  /** Milliseconds left before the render's deadline. */
  readonly remaining: () => number;
  /** Checked once the document answered: a refused document is refused, not read. */
  readonly checkDocument: (document: Response | undefined) => void;
  /** Also a screenshot, the last step (take-screenshot.ts). */
  readonly screenshot?: ScreenshotRequest | undefined;
}

export interface ReadPage {
  readonly html: string;
  readonly document: Response | undefined;
  readonly screenshot?: Screenshot;
  /** What became of each of `actions`, in order. */
  readonly actions?: readonly ActionResult[];
}

const STALLED: unique symbol = Symbol('stalled');

export async function readRendered(
  page: Page,
  guard: PageGuard,
  href: string,
  waitFor: string | undefined,
  steps: ReadSteps,
  actions?: readonly PageAction[],
): Promise<ReadPage> {
  const { bounded, remaining, screenshot } = steps;
  let document: Response | undefined;
  page.on('response', (response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) document = response;
  });
  const watching = new AbortController();
  try {
    const stall = guard.stalled(SCRIPT_STALL_MS, watching.signal).then((): typeof STALLED => STALLED);
    const untilStall = <T>(step: Promise<T>) => {
      step.catch(() => {}); // abandoned at a stall, it rejects later, when its context closes
      return bounded(Promise.race([step, stall]));
    };
    // Playwright's own time-out is a backstop a second past ours, so that the deadline always reads as ours.
    const navigated = await untilStall(
      page.goto(href, { waitUntil: 'domcontentloaded', timeout: Math.max(1, remaining()) + 1000 }),
    );
    let stalled = navigated === STALLED;
    if (navigated !== STALLED) document = navigated ?? document;
    if (!stalled) stalled = (await untilStall(settlePage(page, Math.min(SETTLE_CAP_MS, remaining())))) === STALLED;
    watching.abort();
    if (stalled) {
      log('info', `rendering ${href}: a script held the page for ${SCRIPT_STALL_MS} ms; ending it to read the page`);
      await guard.terminate();
    }
    steps.checkDocument(document);
    if (waitFor !== undefined) await bounded(waitForSelector(page, waitFor, remaining, href));
    const done = actions && (await runActions(page, guard, actions, steps));
    const html = await bounded(readDom(page, guard));
    steps.checkDocument(document);
    const shot = screenshot && { screenshot: await bounded(takeScreenshot(page, screenshot, href)) };
    return { html, document, ...(done && { actions: done }), ...shot };
  } finally {
    watching.abort();
  }
}

/** page.content(), ending a script that holds the page meanwhile (a few times); rejects only with Playwright's errors. */
async function readDom(page: Page, guard: PageGuard): Promise<string> {
  const content = page.content();
  content.catch(() => {});
  for (let ended = 0; ended < READ_ATTEMPTS; ended++) {
    const read = await Promise.race([content, delay(SCRIPT_STALL_MS).then((): typeof STALLED => STALLED)]);
    if (read !== STALLED) return read;
    await guard.terminate();
  }
  return content;
}

const delay = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

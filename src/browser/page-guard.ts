// One page's DevTools session, for what Playwright cannot do to a page whose script never yields: know that its event
// loop is stuck, end the script that holds it (Runtime.terminateExecution, which Chromium serves on the renderer's
// IO thread while the main thread is busy), and, for a page that will not close, end its renderer process alone
// (Page.crash). Each browser context has renderer processes of its own (Chromium never shares one between contexts),
// so crashing one ends that render's page and frames and nothing else.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/** A page whose event loop has not run a task for this long is stuck: its script is ended and its DOM read. */
export const SCRIPT_STALL_MS = 3000;

export interface PageGuard {
  /** Resolves when the page's event loop has not run a task for `stallMs`; never once `signal` aborts. */
  stalled(stallMs: number, signal: AbortSignal): Promise<void>;
  /** True when the page's event loop runs a task within `ms`. */
  responsive(ms: number): Promise<boolean>;
  /** Ends the script running in the page now; the page's parser and later tasks go on. Never throws. */
  terminate(): Promise<void>;
  /** Ends the page's renderer process (its context's other pages and frames share it). Never throws. */
  crash(): void;
}

/** A timer that keeps no process alive (browser-renderer.ts and run-actions.ts wait with it too). */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, Math.max(0, ms)).unref();
  });

/** Attaches to `page` (before it navigates: attaching to a page already stuck may not be answered). */
export async function guardPage(context: BrowserContext, page: Page): Promise<PageGuard> {
  const session: CDPSession = await context.newCDPSession(page);

  // A task through the page's event loop: answered only when no script holds the main thread. A navigation that
  // destroys the context answers with an error, which also says the page is not stuck.
  const turn = () =>
    session
      .send('Runtime.evaluate', {
        expression: 'new Promise((resolve) => setTimeout(() => resolve(0), 0))',
        awaitPromise: true,
        returnByValue: true,
      })
      .then(
        () => true,
        () => true,
      );

  const responsive = (ms: number) => Promise.race([turn(), sleep(ms).then(() => false)]);

  return {
    responsive,
    async stalled(stallMs, signal) {
      while (!signal.aborted) {
        if (!(await responsive(stallMs))) {
          if (!signal.aborted) return;
        }
        await sleep(Math.min(250, stallMs));
      }
      await new Promise<never>(() => {}); // stopped: never resolves
    },
    terminate: () =>
      Promise.race([
        session.send('Runtime.terminateExecution').then(
          () => {},
          () => {},
        ),
        sleep(1000),
      ]),
    crash() {
      // Chromium answers only after the renderer is gone, or never: the caller waits for the context instead.
      session.send('Page.crash').catch(() => {});
    },
  };
}

// Running `actions` on a rendered page (issue 28 item 2), the step between `wait_for` and reading the DOM
// (read-rendered.ts). The list was checked in Node before anything was fetched (check-actions.ts); here each action
// runs in order, each within its own time and all within the render's deadline, keeping READ_RESERVE_MS of it for
// reading the DOM afterwards, and each is reported: done, not_found, timed_out or failed. An action that cannot be
// done does not fail the read — the page is read as it is. Nothing here runs a caller's script: clicks, typing and
// keys go through Playwright's input (real events, as a person's would), scrolls and the settle checks are our own
// fixed functions. Every request an action causes (a "load more" fetch, a form post, a navigation) leaves through
// the same egress proxy as the page's own, so the guard judges it the same way (src/browser/egress.test.ts).
import type { Page } from 'playwright-core';
import { errorMessage } from '../errors.js';
import { log } from '../log.js';
import {
  ACTION_TIMEOUT_MS,
  MAX_SCROLLS,
  MAX_WAIT_MS,
  actionKind,
  actionTarget,
  type ActionResult,
  type ActionStatus,
  type PageAction,
} from './page-actions.js';
import { sleep, type PageGuard } from './page-guard.js';
import type { ReadSteps } from './read-rendered.js';
import { settlePage } from './settle-page.js';

/** The render's time kept back from the actions, for reading the DOM after them. */
export const READ_RESERVE_MS = 1500;
/** After an action that may change the page: no request in flight for NETWORK_QUIET_MS, then the DOM quiet, within this. */
const SETTLE_AFTER_ACTION_MS = 3000;
const NETWORK_QUIET_MS = 300;
/** Past Playwright's own time-out: a renderer that never answers (a script holding it) is not waited for. */
const NODE_GRACE_MS = 1000;

const TIMED_OUT: unique symbol = Symbol('timed out');

/** `step`, or TIMED_OUT when it has not settled within `ms`. */
function capped<T>(step: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  step.catch(() => {}); // abandoned at its cap, it may reject later
  return Promise.race([step, sleep(ms).then((): typeof TIMED_OUT => TIMED_OUT)]);
}

const PLAYWRIGHT_CALL = /^(locator|page|keyboard|frame|elementHandle)\.\w+: /;
const isTimeout = (error: unknown) => /Timeout/i.test(errorMessage(error));

/** Requests the page has in flight, counted from now (the page's own earlier ones are settlePage's concern). */
function trackRequests(page: Page) {
  const inFlight = new Set<unknown>();
  const add = (request: unknown) => inFlight.add(request);
  const remove = (request: unknown) => inFlight.delete(request);
  page.on('request', add);
  page.on('requestfinished', remove);
  page.on('requestfailed', remove);
  return {
    count: () => inFlight.size,
    stop() {
      page.off('request', add);
      page.off('requestfinished', remove);
      page.off('requestfailed', remove);
    },
  };
}

/** Scrolls to the bottom; the page's height and element count before new content, what an endless list grows. */
const SCROLL_TO_BOTTOM = () => {
  const root = document.scrollingElement ?? document.documentElement;
  window.scrollTo(0, root.scrollHeight);
  return `${root.scrollHeight} ${document.getElementsByTagName('*').length}`;
};
/** The page's height and element count now. */
const PAGE_SIZE = () => {
  const root = document.scrollingElement ?? document.documentElement;
  return `${root.scrollHeight} ${document.getElementsByTagName('*').length}`;
};

export async function runActions(
  page: Page,
  guard: PageGuard,
  actions: readonly PageAction[],
  steps: ReadSteps,
): Promise<ActionResult[]> {
  const { bounded } = steps;
  const budget = () => steps.remaining() - READ_RESERVE_MS;
  const requests = trackRequests(page);

  /** After a click, a key or a scroll: its requests answered and the DOM quiet, within the cap; never throws. */
  async function settle(): Promise<void> {
    const until = Date.now() + Math.min(SETTLE_AFTER_ACTION_MS, Math.max(0, budget()));
    let quietSince = Date.now();
    while (Date.now() < until) {
      if (requests.count() > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= NETWORK_QUIET_MS) break;
      await sleep(50); // at most SETTLE_AFTER_ACTION_MS in all; the settle below is bounded
    }
    await bounded(settlePage(page, Math.max(0, until - Date.now())));
  }

  /** Whether `selector` matches within `ms`. */
  async function find(selector: string, ms: number): Promise<boolean> {
    const found = page.waitForSelector(`css=${selector}`, { state: 'attached', timeout: Math.max(1, ms) }).then(
      () => true,
      (error: unknown) => {
        if (isTimeout(error)) return false;
        throw error;
      },
    );
    const result = await bounded(capped(found, ms + NODE_GRACE_MS));
    return result === true;
  }

  /** Finds the element, then acts on it within what is left of the action's time. */
  async function onElement(selector: string, act: (timeoutMs: number) => Promise<void>): Promise<ActionStatus> {
    const time = Math.min(ACTION_TIMEOUT_MS, budget());
    if (time <= 0) return 'timed_out';
    const started = Date.now();
    if (!(await find(selector, time))) return 'not_found';
    const left = Math.max(1, time - (Date.now() - started));
    const acted = act(left).then(
      () => 'done' as const,
      (error: unknown) => {
        if (isTimeout(error)) return 'timed_out' as const;
        throw error;
      },
    );
    const done = await bounded(capped(acted, left + NODE_GRACE_MS));
    if (done !== 'done') return 'timed_out';
    await settle();
    return 'done';
  }

  /** Scrolls to the bottom `how` many times, or until the page stops growing; how many times it did. */
  async function scroll(how: 'bottom' | 'until_stable' | number): Promise<{ status: ActionStatus; scrolls: number }> {
    const times = how === 'bottom' ? 1 : how === 'until_stable' ? MAX_SCROLLS : how;
    let scrolls = 0;
    while (scrolls < times) {
      if (budget() <= 0) return { status: 'timed_out', scrolls };
      const time = Math.min(ACTION_TIMEOUT_MS, budget());
      const before = await bounded(capped(page.evaluate(SCROLL_TO_BOTTOM), time));
      if (before === TIMED_OUT) return { status: 'timed_out', scrolls };
      scrolls++;
      await settle();
      if (how !== 'until_stable') continue;
      const after = await bounded(capped(page.evaluate(PAGE_SIZE), Math.max(1, Math.min(ACTION_TIMEOUT_MS, budget()))));
      if (after === TIMED_OUT) return { status: 'timed_out', scrolls };
      if (after === before) break;
    }
    return { status: 'done', scrolls };
  }

  async function run(action: PageAction): Promise<ActionResult> {
    const kind = actionKind(action);
    const report = (status: ActionStatus, scrolls?: number): ActionResult => ({
      action: kind,
      target: actionTarget(action),
      status,
      ...(scrolls !== undefined && { scrolls }),
    });
    if (budget() <= 0) return report('timed_out', kind === 'scroll' ? 0 : undefined);
    if ('click' in action) {
      return report(
        await onElement(action.click, (timeout) => page.locator(`css=${action.click}`).first().click({ timeout })),
      );
    }
    if ('type' in action) {
      return report(
        await onElement(action.type, (timeout) =>
          page.locator(`css=${action.type}`).first().fill(action.text, { timeout }),
        ),
      );
    }
    if ('press' in action) {
      const time = Math.min(ACTION_TIMEOUT_MS, budget());
      const pressed = await bounded(capped(page.keyboard.press(action.press), time));
      if (pressed === TIMED_OUT) return report('timed_out');
      await settle();
      return report('done');
    }
    if ('scroll' in action) {
      const { status, scrolls } = await scroll(action.scroll);
      return report(status, scrolls);
    }
    if (typeof action.wait === 'number') {
      const time = Math.min(action.wait, budget());
      await bounded(sleep(time));
      return report(time < action.wait ? 'timed_out' : 'done');
    }
    const time = Math.min(MAX_WAIT_MS, budget());
    return report((await find(action.wait, time)) ? 'done' : 'not_found');
  }

  try {
    const results: ActionResult[] = [];
    for (const action of actions) {
      let result: ActionResult;
      try {
        result = await run(action);
      } catch (error) {
        // Only Playwright's refusal of this action ("locator.click: …") is the action's; the render's deadline, the
        // caller's cancellation and a page or browser gone are the render's own failure.
        const message = errorMessage(error);
        if (!PLAYWRIGHT_CALL.test(message) || /has been closed|crash/i.test(message)) throw error;
        log('info', `action ${actionKind(action)} failed: ${errorMessage(error).split('\n')[0]}`);
        result = { action: actionKind(action), target: actionTarget(action), status: 'failed' };
      }
      results.push(result);
      // A script that holds the page (an action's handler spinning) is ended, so that the next action and the
      // read get a page that answers.
      if (result.status === 'timed_out' && !(await guard.responsive(500))) await guard.terminate();
    }
    return results;
  } finally {
    requests.stop();
  }
}

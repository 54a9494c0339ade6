// `actions` (issue 28 item 2): what a caller may do to a rendered page before it is read — a short declared list of
// clicks, typing, key presses, scrolls and waits, never a script. This module is the list's shape and bounds, light
// enough for every layer to import; check-actions.ts checks a list in Node before anything is fetched, and
// run-actions.ts runs it.
import { quoteInput } from '../quote.js';

/** The longest list of actions one read runs. */
export const MAX_ACTIONS = 20;
/** The longest `wait` in milliseconds, and the longest a `wait` for a selector waits. */
export const MAX_WAIT_MS = 10_000;
/** The longest one click, type or press may take (finding its element included). */
export const ACTION_TIMEOUT_MS = 5000;
/** The most scrolls to the bottom one `scroll` action makes (a number, or `until_stable`). */
export const MAX_SCROLLS = 20;
/** The longest text one `type` action enters. */
export const MAX_TYPE_LENGTH = 2000;

export type PageAction =
  | { readonly click: string }
  | { readonly type: string; readonly text: string }
  | { readonly press: string }
  | { readonly scroll: 'bottom' | 'until_stable' | number }
  | { readonly wait: string | number };

export type ActionKind = 'click' | 'type' | 'press' | 'scroll' | 'wait';

/**
 * What became of one action: `done`; `not_found` (its selector matched nothing within its time); `timed_out` (the
 * element was there but the action did not finish in its time, or the call's deadline left none for it); `failed`
 * (the browser refused it, e.g. the element went away as it was clicked).
 */
export type ActionStatus = 'done' | 'not_found' | 'timed_out' | 'failed';

export interface ActionResult {
  readonly action: ActionKind;
  /** The selector, key, scroll or wait as given (a long selector cut). */
  readonly target: string;
  readonly status: ActionStatus;
  /** `scroll` only: how many times the page was scrolled to its bottom. */
  readonly scrolls?: number;
}

export const ACTION_KINDS: readonly ActionKind[] = ['click', 'type', 'press', 'scroll', 'wait'];

/** The kind of an action (its one verb key). */
export function actionKind(action: PageAction): ActionKind {
  return ACTION_KINDS.find((kind) => kind in action)!;
}

/** What an action acts on, as the report shows it. */
export function actionTarget(action: PageAction): string {
  const value = (action as Record<string, unknown>)[actionKind(action)];
  return typeof value === 'number' ? String(value) : quoteInput(String(value), 100);
}

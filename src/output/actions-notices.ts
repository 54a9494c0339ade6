// The sentences of `actions` (issue 28 item 2): one line per action done to the rendered page before it was read.
// Named from src/output/notices.ts.
import { ACTION_TIMEOUT_MS, MAX_WAIT_MS, type ActionResult } from '../browser/page-actions.js';

/** A selector that matched nothing: within an action's time, or a `wait`'s own. */
const notFound = (action: ActionResult['action']) =>
  `not found: nothing matched the selector within ${(action === 'wait' ? MAX_WAIT_MS : ACTION_TIMEOUT_MS) / 1000} s; ` +
  'the page was read as it was';

const STATUS_WORDS: Record<Exclude<ActionResult['status'], 'not_found'>, string> = {
  done: 'done',
  timed_out: "timed out: it did not finish within its time, or the call's time left none for it",
  failed: 'failed: the browser could not do it to the element it found',
};

export const ACTION_SENTENCES = {
  heading: 'Actions before reading:',
  line: (index: number, result: ActionResult) => {
    const scrolled =
      result.scrolls === undefined ? '' : ` (scrolled ${result.scrolls} ${result.scrolls === 1 ? 'time' : 'times'})`;
    const status = result.status === 'not_found' ? notFound(result.action) : STATUS_WORDS[result.status];
    return `${index + 1}. ${result.action} ${result.target}: ${status}${scrolled}`;
  },
};

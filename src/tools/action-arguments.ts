// `actions` (issue 28 item 2): what to do to the rendered page before it is read — the argument every tool that reads
// one page shares (fetch, read_url, web_scraper), spread from here. The list's definition and its check are
// src/browser/page-actions.ts, and its check check-actions.ts: run in Node before anything is fetched, every problem naming the action by its
// index. The JSON Schema clients see is written out here (zod would list the shapes, but its union's errors could
// not name the index); the check is the one that decides, and test/mcp/actions.test.ts holds the two together.
import { z } from 'zod';
import {
  ACTION_TIMEOUT_MS,
  MAX_ACTIONS,
  MAX_SCROLLS,
  MAX_TYPE_LENGTH,
  MAX_WAIT_MS,
  type PageAction,
} from '../browser/page-actions.js';

const selector = { type: 'string', minLength: 1, maxLength: 500, description: 'A CSS selector' };
const oneAction = (properties: Record<string, unknown>, required: string[], description: string) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  description,
});

const ACTIONS_JSON_SCHEMA = {
  type: 'array',
  maxItems: MAX_ACTIONS,
  items: {
    anyOf: [
      oneAction(
        { click: selector },
        ['click'],
        `Click the first element the selector matches (found within ${ACTION_TIMEOUT_MS / 1000} s)`,
      ),
      oneAction(
        { type: selector, text: { type: 'string', maxLength: MAX_TYPE_LENGTH } },
        ['type', 'text'],
        'Fill the first element the selector matches (an input, a textarea) with text',
      ),
      oneAction(
        { press: { type: 'string', minLength: 1, maxLength: 60 } },
        ['press'],
        'Press a key on the focused element: "Enter", "Tab", "Escape", "ArrowDown", one character, "Control+A"…',
      ),
      oneAction(
        {
          scroll: {
            anyOf: [{ enum: ['bottom', 'until_stable'] }, { type: 'integer', minimum: 1, maximum: MAX_SCROLLS }],
          },
        },
        ['scroll'],
        `Scroll to the bottom once ("bottom"), N times, or until the page stops growing ("until_stable", at most ${MAX_SCROLLS})`,
      ),
      oneAction(
        { wait: { anyOf: [selector, { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS }] } },
        ['wait'],
        `Wait until a CSS selector matches (at most ${MAX_WAIT_MS / 1000} s), or a number of milliseconds (at most ${MAX_WAIT_MS})`,
      ),
    ],
  },
};

export const actionsArgument = z
  .unknown()
  .superRefine(async (value, context) => {
    const { actionsProblem } = await import('../browser/check-actions.js');
    const problem = actionsProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value as readonly PageAction[])
  .optional()
  .meta(ACTIONS_JSON_SCHEMA)
  .describe(
    'Before reading, do these to the page in a headless browser, in order (at most ' +
      MAX_ACTIONS +
      '; forces render, needs ' +
      'Chromium on the server): {"click": selector}, {"type": selector, "text": …}, {"press": key}, {"scroll": ' +
      '"bottom" | "until_stable" | N}, {"wait": selector | ms}. Each is reported (done, not_found, timed_out, ' +
      'failed); one that cannot be done does not fail the read. Not with headers.',
  );

/** `actions`, spread into the input schema of each tool that reads one page. */
export const actionsShape = { actions: actionsArgument };

/** The actions as the engine's option (an empty list is none). */
export function actionOptions(args: { actions?: readonly PageAction[] | undefined }): {
  actions?: readonly PageAction[];
} {
  return args.actions && args.actions.length > 0 ? { actions: args.actions } : {};
}

// The check of `actions` (issue 28 item 2), run in Node before anything is fetched: by the tools' schemas
// (src/tools/action-arguments.ts) and again by the engine for the library's callers (src/engine/render-step.ts).
// Every problem names the action by its index. Selectors are checked by the same parser as `selector` and `wait_for`
// (src/extract/select.ts), so the page never judges its own selectors and another engine's query (xpath=, text=)
// never reaches the browser. Loaded only when a call has actions: it brings the HTML parser and the selector engine.
import { InvalidArgumentError } from '../errors.js';
import { quoteInput } from '../quote.js';
import { selectorProblem } from '../extract/select.js';
import {
  ACTION_KINDS,
  MAX_ACTIONS,
  MAX_SCROLLS,
  MAX_TYPE_LENGTH,
  MAX_WAIT_MS,
  type ActionKind,
  type PageAction,
} from './page-actions.js';

// Playwright's key names (its US keyboard layout) that a reader needs; one printable character is a key too.
const NAMED_KEYS = new Set([
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Space',
  ...Array.from({ length: 12 }, (_, index) => `F${index + 1}`),
]);
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'ControlOrMeta']);

function keyProblem(key: string): string | undefined {
  const parts = key.split('+');
  const main = parts.pop()!;
  if (parts.some((part) => !MODIFIERS.has(part)))
    return 'its modifiers must be Shift, Control, Alt, Meta or ControlOrMeta';
  if ([...main].length === 1 && main.trim() !== '') return undefined;
  if (NAMED_KEYS.has(main)) return undefined;
  return `it must be one character or a key name (${[...NAMED_KEYS].slice(0, 15).join(', ')}, F1–F12), optionally after modifiers joined by + ("Control+A")`;
}

/** The one problem with action `index`, as the sentence an agent reads; undefined when it is a valid action. */
function actionProblem(value: unknown, index: number): string | undefined {
  const at = `actions[${index}]`;
  const shapes =
    'one of {"click": selector}, {"type": selector, "text": text}, {"press": key}, ' +
    '{"scroll": "bottom" | "until_stable" | count}, {"wait": selector | milliseconds}';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} must be ${shapes}`;
  const keys = Object.keys(value);
  const verbs = keys.filter((key) => (ACTION_KINDS as readonly string[]).includes(key));
  if (verbs.length !== 1) {
    const named = verbs.length === 0 ? 'no action' : `${verbs.length} actions (${verbs.join(', ')})`;
    return `${at} has ${named}: each action is ${shapes}`;
  }
  const kind = verbs[0] as ActionKind;
  const allowed = kind === 'type' ? ['type', 'text'] : [kind];
  const extra = keys.find((key) => !allowed.includes(key));
  if (extra !== undefined) return `${at} (${kind}) has an unknown field "${quoteInput(extra, 50)}"`;
  const field = (value as Record<string, unknown>)[kind];
  const selector = (what: unknown) =>
    typeof what === 'string' ? selectorProblem(`${at} (${kind})`, what) : `${at} (${kind}) must be a CSS selector`;
  switch (kind) {
    case 'click':
      return selector(field);
    case 'type': {
      const text = (value as Record<string, unknown>).text;
      if (typeof text !== 'string') return `${at} (type) needs "text", the string to type`;
      if (text.length > MAX_TYPE_LENGTH) return `${at} (type): text is longer than ${MAX_TYPE_LENGTH} characters`;
      return selector(field);
    }
    case 'press': {
      if (typeof field !== 'string' || field === '') return `${at} (press) must be a key name, e.g. "Enter"`;
      const problem = keyProblem(field);
      return problem && `${at} (press) "${quoteInput(field, 50)}" is not a key: ${problem}`;
    }
    case 'scroll':
      if (field === 'bottom' || field === 'until_stable') return undefined;
      if (typeof field === 'number' && Number.isInteger(field) && field >= 1 && field <= MAX_SCROLLS) return undefined;
      return `${at} (scroll) must be "bottom", "until_stable" or a number of scrolls from 1 to ${MAX_SCROLLS}`;
    case 'wait':
      if (typeof field === 'number') {
        return Number.isInteger(field) && field >= 0 && field <= MAX_WAIT_MS
          ? undefined
          : `${at} (wait) must be a CSS selector or a whole number of milliseconds from 0 to ${MAX_WAIT_MS}`;
      }
      return selector(field);
  }
}

/** The problem with an `actions` value, naming the first bad action by its index; undefined when all are valid. */
export function actionsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'actions must be a list of actions';
  if (value.length > MAX_ACTIONS) return `actions may have at most ${MAX_ACTIONS} entries (it has ${value.length})`;
  for (const [index, action] of value.entries()) {
    const problem = actionProblem(action, index);
    if (problem) return problem;
  }
  return undefined;
}

/** `value` as a checked list of actions; InvalidArgumentError `actions` naming the first bad one. */
export function parseActions(value: unknown): readonly PageAction[] {
  const problem = actionsProblem(value);
  if (problem) throw new InvalidArgumentError('actions', problem);
  return value as readonly PageAction[];
}

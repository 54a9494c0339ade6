// The `actions` check (issue 28 item 2): every bad action is refused in Node before anything is fetched, with a
// message naming it by its index; the JSON Schema clients see accepts what the check accepts.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { actionsShape } from '../tools/action-arguments.js';
import { actionsProblem, parseActions } from './check-actions.js';
import { MAX_ACTIONS } from './page-actions.js';

describe('actionsProblem', () => {
  it.each([
    [[{ click: '#more' }]],
    [[{ type: 'input[name=q]', text: 'harbour' }, { press: 'Enter' }]],
    [[{ press: 'Control+A' }, { press: 'a' }, { press: 'ArrowDown' }, { press: 'F5' }]],
    [[{ scroll: 'bottom' }, { scroll: 'until_stable' }, { scroll: 3 }]],
    [[{ wait: '#results li' }, { wait: 0 }, { wait: 10000 }]],
    [[]],
  ])('accepts %j', (actions) => {
    expect(actionsProblem(actions)).toBeUndefined();
  });

  it.each([
    [{ click: '#more' }, 'actions must be a list of actions'],
    [[{ click: '#more' }, 'click'], 'actions[1] must be one of {"click": selector}'],
    [[{ click: '#a', press: 'Enter' }], 'actions[0] has 2 actions (click, press)'],
    [[{ scroll: 1 }, { hover: '#a' }], 'actions[1] has no action'],
    [[{ click: '#a', force: true }], 'actions[0] (click) has an unknown field "force"'],
    [[{ click: 'div[' }], 'actions[0] (click) "div[" is not valid CSS'],
    [[{ click: 'xpath=//a' }], 'actions[0] (click) "xpath=//a" is not valid CSS'],
    [[{ click: 3 }], 'actions[0] (click) must be a CSS selector'],
    [[{ wait: 1 }, { type: '#q' }], 'actions[1] (type) needs "text"'],
    [[{ press: 'Entr' }], 'actions[0] (press) "Entr" is not a key'],
    [[{ press: 'Super+A' }], 'its modifiers must be Shift, Control, Alt, Meta or ControlOrMeta'],
    [[{ scroll: 0 }], 'actions[0] (scroll) must be "bottom", "until_stable" or a number of scrolls from 1 to 20'],
    [[{ scroll: 'top' }], 'actions[0] (scroll) must be'],
    [[{ wait: 10001 }], 'actions[0] (wait) must be a CSS selector or a whole number of milliseconds from 0 to 10000'],
    [[{ wait: 1.5 }], 'actions[0] (wait) must be a CSS selector or a whole number'],
    [Array.from({ length: MAX_ACTIONS + 1 }, () => ({ wait: 1 })), 'actions may have at most 20 entries (it has 21)'],
  ])('refuses %j, naming the action', (actions, words) => {
    expect(actionsProblem(actions)).toContain(words);
  });

  it('parseActions throws INVALID_ARGUMENT for the argument actions', () => {
    expect(() => parseActions([{ click: '#a' }, { wait: -1 }])).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        argument: 'actions',
        message: expect.stringContaining('actions[1]'),
      }),
    );
  });
});

describe('the actions argument', () => {
  const schema = z.object(actionsShape).strict();

  it('refuses through the tool schema with the same sentence, under the argument actions', async () => {
    const result = await schema.safeParseAsync({ actions: [{ click: '#a' }, { press: 'Entr' }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['actions'],
      message: expect.stringContaining('actions[1] (press)'),
    });
  });

  it('lists every action shape in the JSON Schema clients see, capped at MAX_ACTIONS', () => {
    const listed = z.toJSONSchema(schema, { io: 'input' }) as unknown as {
      properties: { actions: { maxItems: number; items: { anyOf: { required: string[] }[] } } };
    };
    expect(listed.properties.actions.maxItems).toBe(MAX_ACTIONS);
    expect(listed.properties.actions.items.anyOf.map((shape) => shape.required[0])).toEqual([
      'click',
      'type',
      'press',
      'scroll',
      'wait',
    ]);
  });
});

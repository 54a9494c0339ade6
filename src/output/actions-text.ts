// What `actions` show (issue 28 item 2): in a tool's text, one line per action under a lead line, before the page; in
// its structured result, an `actions` array in the same order. The actions themselves are src/browser/run-actions.ts's.
import { z } from 'zod';
import { ACTION_KINDS } from '../browser/page-actions.js';
import type { PageContent } from '../engine/page-content.js';
import { ACTION_SENTENCES } from './notices.js';

/** The lines that report a read's actions; '' when it had none. */
export function actionLines(page: PageContent): string {
  if (!page.actions) return '';
  return [ACTION_SENTENCES.heading, ...page.actions.map((result, index) => ACTION_SENTENCES.line(index, result))].join(
    '\n',
  );
}

export const ACTIONS_RESULT_SHAPE = z
  .array(
    z.object({
      action: z.enum(ACTION_KINDS),
      target: z.string().describe('The selector, key, scroll or wait as given'),
      status: z.enum(['done', 'not_found', 'timed_out', 'failed']),
      scrolls: z.number().int().optional().describe('scroll: how many times the page was scrolled to its bottom'),
    }),
  )
  .optional()
  .describe('With actions: what became of each, in order');

export function structuredActions(page: PageContent): z.infer<typeof ACTIONS_RESULT_SHAPE> {
  return page.actions?.map((result) => ({ ...result }));
}

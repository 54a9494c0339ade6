// What fetch `since` shows (issue 28 item 4): one line when the page is unchanged; a lead line and the unified diff of
// the Markdown when it changed; the page under a lead line when there was nothing to compare with. The comparison
// is src/engine/page-changes.ts's.
import { z } from 'zod';
import type { PageContent } from '../engine/page-content.js';
import { CHANGES_SENTENCES } from './notices.js';

export interface ChangesParts {
  /** The line that says what was compared, before the body. */
  readonly lead: string;
  /** What stands for the page's content: the diff; undefined: the content itself. */
  readonly body?: string;
  /** Nothing but the lead: the page is unchanged. */
  readonly only: boolean;
}

const secondsSince = (takenAt: number | undefined) => Math.max(0, Math.round((Date.now() - (takenAt ?? 0)) / 1000));

export function changesParts(page: PageContent): ChangesParts | undefined {
  const changes = page.changes;
  if (!changes) return undefined;
  const id = changes.snapshotId ?? '';
  const since = changes.sinceId ?? '';
  const seconds = secondsSince(changes.sinceTakenAt);
  switch (changes.status) {
    case 'unchanged':
      return { lead: CHANGES_SENTENCES.unchanged(since, seconds), only: true };
    case 'changed': {
      const diff = changes.diff!;
      if (diff.rewritten) return { lead: CHANGES_SENTENCES.rewritten(since, seconds, id), only: false };
      const lead = CHANGES_SENTENCES.changed(since, seconds, diff.added, diff.removed, id);
      return { lead, body: `\`\`\`diff\n${diff.diff}\n\`\`\``, only: false };
    }
    case 'first':
      return { lead: CHANGES_SENTENCES.first(id), only: false };
    case 'expired':
      return { lead: CHANGES_SENTENCES.expired(since, id), only: false };
    case 'not_kept':
      return { lead: CHANGES_SENTENCES.notKept, only: false };
  }
}

export const CHANGES_RESULT_SHAPE = z
  .object({
    status: z.enum(['first', 'expired', 'unchanged', 'changed', 'not_kept']),
    snapshot_id: z.string().optional().describe('This read: pass it as since later'),
    since_snapshot_id: z.string().optional().describe('The snapshot compared with'),
    since_age_seconds: z.number().int().optional(),
    lines_added: z.number().int().optional(),
    lines_removed: z.number().int().optional(),
  })
  .optional()
  .describe('With since: what changed since the earlier read');

export function structuredChanges(page: PageContent): Record<string, unknown> | undefined {
  const changes = page.changes;
  if (!changes) return undefined;
  return {
    status: changes.status,
    ...(changes.snapshotId !== undefined && { snapshot_id: changes.snapshotId }),
    ...(changes.sinceId !== undefined && { since_snapshot_id: changes.sinceId }),
    ...(changes.sinceTakenAt !== undefined && { since_age_seconds: secondsSince(changes.sinceTakenAt) }),
    ...(changes.diff &&
      !changes.diff.rewritten && { lines_added: changes.diff.added, lines_removed: changes.diff.removed }),
  };
}

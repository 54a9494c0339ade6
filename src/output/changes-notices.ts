// The sentences of fetch `since` (issue 28 item 4): what changed since an earlier read, or why there is nothing to
// compare with. Named from src/output/notices.ts.
import { MAX_EDITED_LINES } from '../extract/page-diff.js';

const ago = (seconds: number) => (seconds < 120 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`);

export const CHANGES_SENTENCES = {
  unchanged: (sinceId: string, seconds: number) =>
    `Unchanged since snapshot ${sinceId} (taken ${ago(seconds)}): the page's Markdown is the same.`,
  changed: (sinceId: string, seconds: number, added: number, removed: number, id: string) =>
    `Changed since snapshot ${sinceId} (taken ${ago(seconds)}): ${added} ${added === 1 ? 'line' : 'lines'} added, ` +
    `${removed} removed. The unified diff of the Markdown follows; this read is snapshot ${id} (a cut diff reads ` +
    `on with since "${sinceId}" and start_index).`,
  rewritten: (sinceId: string, seconds: number, id: string) =>
    `Changed since snapshot ${sinceId} (taken ${ago(seconds)}) past a readable diff (over ${MAX_EDITED_LINES} ` +
    `lines edited): the page as it is now follows; this read is snapshot ${id}.`,
  first: (id: string) =>
    `No earlier snapshot of this page read this way: this read is snapshot ${id}. Call fetch with since "last" ` +
    '(or this id) later for what changed.',
  expired: (sinceId: string, id: string) =>
    `Snapshot ${sinceId} is not kept here (past SNAPSHOT_TTL, or never taken), so there is nothing to compare with: the page as it is ` +
    `now follows; this read is snapshot ${id}.`,
  notKept:
    'since does not apply to a read made with headers: what credentials reveal is never stored, so no snapshot is ' +
    'kept. The page as it is now follows.',
};

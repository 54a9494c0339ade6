// fetch `since` (issue 28 item 4): a read compared with the snapshot an earlier read of the same page took — the last
// one of this reading (`since: "last"`) or one an earlier result named — and kept as the next snapshot. The Markdown
// is compared in the extraction worker (src/extract/page-diff.ts); the snapshots live in the shared state
// (src/shared-state/snapshot-store.ts), so that any replica answers. A read made with the caller's `headers` keeps
// none: what credentials reveal is never stored.
import { InvalidArgumentError } from '../errors.js';
import { carriesCredentials } from '../fetch/credentials.js';
import { quoteInput } from '../quote.js';
import { readingKey, SNAPSHOT_ID, snapshotId, type SnapshotStore } from '../shared-state/snapshot-store.js';
import type { Extractor } from '../workers/extractor.js';
import type { PageChanges, PageContent, ReadOptions } from './page-content.js';

export const SINCE_WITH_RAW_OR_QUERY =
  'since compares the Markdown of the whole page with an earlier read, which raw and query do not return: call again without them.';

export const sinceNotASnapshot = (since: string) =>
  `since must be "last" or a snapshot_id an earlier fetch result named (snap_…), not '${quoteInput(since, 60)}'.`;

export const sinceOfAnotherPage = (since: string) =>
  `since names snapshot ${since}, which is of another page or of this page read another way (selector, section): ` +
  'pass the snapshot_id of an earlier read of this URL with the same options, or "last".';

/** The caller's mistakes with `since`, said before anything is fetched. */
export function assertSinceOptions(options: ReadOptions): void {
  if (options.since === undefined) return;
  if (options.raw || options.query !== undefined) throw new InvalidArgumentError('since', SINCE_WITH_RAW_OR_QUERY);
  if (options.since !== 'last' && !SNAPSHOT_ID.test(options.since)) {
    throw new InvalidArgumentError('since', sinceNotASnapshot(options.since));
  }
}

/** The options that shape a page's Markdown: a snapshot compares only reads made with the same ones. */
function readingOf(url: string, options: ReadOptions): string {
  return readingKey(url, {
    selector: options.selector,
    exclude: options.excludeSelectors,
    section: options.section,
  });
}

/** The page with its `changes`: compared with the snapshot asked for, and kept as the next one. */
export async function withChanges(
  page: PageContent,
  options: ReadOptions,
  snapshots: SnapshotStore | undefined,
  extractor: Extractor,
): Promise<PageContent> {
  const since = options.since;
  if (since === undefined || !snapshots || page.outcome !== 'ok' || page.extractionFailed) return page;
  if (carriesCredentials(options.credentials, page.url)) return { ...page, changes: { status: 'not_kept' } };
  const reading = readingOf(page.url, options);
  const before = since === 'last' ? await snapshots.last(reading) : await snapshots.byId(since);
  if (before && before.reading !== reading) throw new InvalidArgumentError('since', sinceOfAnotherPage(since));
  const id = snapshotId(reading, page.content);
  await snapshots.put(reading, { id, reading, markdown: page.content, takenAt: Date.now() });
  return { ...page, changes: await compare(before, id, since, page.content, extractor) };
}

async function compare(
  before: { id: string; markdown: string; takenAt: number } | undefined,
  id: string,
  since: string,
  markdown: string,
  extractor: Extractor,
): Promise<PageChanges> {
  if (!before)
    return since === 'last'
      ? { status: 'first', snapshotId: id }
      : { status: 'expired', snapshotId: id, sinceId: since };
  const compared = { snapshotId: id, sinceId: before.id, sinceTakenAt: before.takenAt };
  if (before.markdown === markdown) return { status: 'unchanged', ...compared };
  return { status: 'changed', ...compared, diff: await extractor.diffMarkdown(before.markdown, markdown) };
}

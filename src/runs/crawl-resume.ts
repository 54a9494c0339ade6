// Where a crawl's continue_from state lives for the crawl run (src/crawl/resume-store.ts): the store the composition
// root built (src/shared-state/: in memory, or the one replicas share with REDIS_URL, where a crawl is checkpointed
// while it runs and its id holds from its start, docs/scale-out.md "Crawls"), or the CLI's files. Taking a state to
// continue, and handing the id out when a call ends.
import type { CrawlResult } from '../crawl/commit.js';
import type { CrawlState } from '../crawl/frontier.js';
import { createMemoryResumeStore, type ResumeStore, type RunningCrawl } from '../crawl/resume-store.js';
import type { Engine } from '../engine/engine.js';
import { InvalidArgumentError } from '../errors.js';
import { crawlCompleteMessage } from '../output/notices.js';
import { quoteInput } from '../quote.js';

// For a caller that hands no store (a test, a ToolContext built by hand): one in memory per engine, so an id from
// one call continues in another. The engine does not know about crawls (it sits below them), hence a map keyed by
// it rather than a field of it.
const resumeStores = new WeakMap<Engine, ResumeStore>();

export function resumeStoreFor(engine: Engine): ResumeStore {
  let store = resumeStores.get(engine);
  if (!store) {
    store = createMemoryResumeStore({ ttlSeconds: engine.config.crawlResumeTtlSeconds });
    resumeStores.set(engine, store);
  }
  return store;
}

/**
 * The state `id` continues from, held for this call (another call with the id is told when to retry), and its
 * checkpoints when the store keeps crawls as they run. `holdMs`: how long this call may run, so how long a call
 * refused meanwhile is told to wait.
 */
export async function takeResumeState(
  store: ResumeStore,
  id: string,
  ttlSeconds: number,
  holdMs: number,
): Promise<{ state: CrawlState; running?: RunningCrawl }> {
  const taken = store.checkpoints
    ? await store.checkpoints.takeOver(id, holdMs)
    : await store.take(id, holdMs).then((state) => (state === 'complete' || !state ? state : { state }));
  if (taken === 'complete') throw new InvalidArgumentError('continue_from', crawlCompleteMessage(quoteInput(id, 60)));
  if (taken) return taken;
  // Pages already read come from the cache only in the same process (a server, not a new CLI run): not promised.
  const where = store.checkpoints ? 'on any replica of this deployment' : 'where it was started';
  throw new InvalidArgumentError(
    'continue_from',
    `continue_from '${quoteInput(id, 60)}' is unknown or expired: a crawl's id continues it within ` +
      `CRAWL_RESUME_TTL (${ttlSeconds} s) of its last stop, ${where}. Start a new crawl with url.`,
  );
}

/**
 * A checkpointed crawl's id in each progress message (REDIS_URL): a client whose call is lost with its replica reads
 * it there, and continues the crawl from its last committed page on another.
 */
export function crawlIdNote(id: string): string {
  return `; if this call is lost, continue with continue_from="${id}"`;
}

/**
 * The call is over: the id that continues the crawl — `id`, the one the crawl already has when this call continued
 * it (one crawl, one id) — or a note saying why there is none. `taken`: the state this call continued from, kept
 * again under `id` when the call ends with no newer one (cancelled), so the id a client holds still continues.
 */
export async function handOutResumeId(
  store: ResumeStore,
  running: RunningCrawl | undefined,
  result: CrawlResult,
  continued?: { readonly id: string; readonly taken: CrawlState },
): Promise<{ continueFrom?: string; note?: string }> {
  if (running) return releaseRunning(running, result, store);
  const resume = result.resume ?? (result.stopReason === 'cancelled' ? continued?.taken : undefined);
  if (!resume) {
    if (continued) await store.complete(continued.id);
    return {};
  }
  if (result.stopReason === 'stopped' && !store.outlivesProcess) {
    // The server is going away and its resume store with it: an id would not work. Say so instead.
    return { note: 'this server is shutting down, so the crawl cannot be continued on it: call crawl with url again' };
  }
  const continueFrom = await store.save(resume, continued?.id);
  return result.resume ? { continueFrom } : {};
}

const CRAWL_TAKEN_OVER_NOTE =
  'this crawl was continued on another replica while this call ran (its lease lapsed): this result gives no ' +
  'continue_from; the other call has the crawl now';

/** A checkpointed crawl's call is over: its id continues it, or (complete) says so. */
async function releaseRunning(
  running: RunningCrawl,
  result: CrawlResult,
  store: ResumeStore,
): Promise<{ continueFrom?: string; note?: string }> {
  if (result.resume) {
    const kept = await running.release(result.resume);
    if (kept === 'kept') return { continueFrom: running.id };
    // Redis went away meanwhile: the continuation is this replica's alone (in its memory), under the same id.
    if (kept === 'unreachable') return { continueFrom: await store.save(result.resume, running.id) };
    // Another replica took the crawl over meanwhile (redis-resume-store.ts): two owners would read pages twice.
    return { note: CRAWL_TAKEN_OVER_NOTE };
  }
  // A cancelled call keeps its last checkpoint (a caller that lost its connection may continue it); a crawl that
  // ended is complete, and its id says so.
  if (result.stopReason === 'cancelled') await running.release();
  else await running.discard();
  return {};
}

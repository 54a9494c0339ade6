// Where a crawl stopped by its time limit (or a graceful stop) waits to be continued: an id → CrawlState, kept for
// CRAWL_RESUME_TTL seconds. The server keeps them in memory (bounded in count, the oldest evicted first); the CLI,
// one process per call, keeps them as files. The state is plain data, so a shared store (Redis) can replace both.
//
// An id continues its crawl once: `take` removes it, and the continuation gets a new id. Two calls with the same id
// would read the same frontier twice and spend the same budget twice.
//
// A shared store (src/shared-state/redis-resume-store.ts) also keeps a crawl while it runs (`checkpoints`): the id
// exists from the crawl's start, the state is written at every committed page, and a lease names the one replica
// running it, so a crawl whose replica dies is continued from its last committed page on another.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CrawlState } from './frontier.js';

export interface ResumeStore {
  /**
   * Whether a state saved here survives this process (files, a shared store). A crawl stopped by a shutdown is
   * only worth an id when it does: an id in memory would die with the process that hands it out.
   */
  readonly outlivesProcess: boolean;
  /** Keeps the state and returns the id that continues it. */
  save(state: CrawlState): Promise<string>;
  /** The state and its removal, or undefined when the id is unknown, used or expired. */
  take(id: string): Promise<CrawlState | undefined>;
  /** Present on a store shared by replicas: crawls checkpointed while they run (docs/scale-out.md). */
  readonly checkpoints?: CrawlCheckpoints;
}

/** A crawl while it runs: its id from the start, its state written at every committed page, one owner (a lease). */
export interface RunningCrawl {
  /** What continue_from takes: the crawl's last checkpoint, once this call is over or its replica is gone. */
  readonly id: string;
  /** Writes the state the id continues from. Never throws: a checkpoint that fails leaves the previous one. */
  checkpoint(state: CrawlState): Promise<void>;
  /**
   * The call is over. With `final`, the state is kept for a continuation ('kept'); without, the last checkpoint
   * stays (a cancelled call: its id still continues). 'unreachable': the store could not keep it (save it
   * elsewhere); 'lost': another replica took the crawl over meanwhile, so this call must hand out no id.
   */
  release(final?: CrawlState): Promise<'kept' | 'unreachable' | 'lost'>;
  /** The crawl is complete: its state and lease are removed, and its id continues nothing. */
  discard(): Promise<void>;
}

export interface CrawlCheckpoints {
  /** A new crawl's id and lease; undefined while the store is unreachable (the crawl runs without checkpoints). */
  begin(): Promise<RunningCrawl | undefined>;
  /**
   * Takes a stopped (or orphaned) crawl over: its state moves to a new id with this process's lease, in one step.
   * Undefined when the id is unknown, used or expired; throws a QUEUE_TIMEOUT TimeoutError while the crawl's lease
   * is held (it is running), saying when to try again. While the store is unreachable, `take` from its fallback.
   */
  takeOver(id: string): Promise<{ state: CrawlState; running?: RunningCrawl } | undefined>;
}

export interface ResumeStoreOptions {
  readonly ttlSeconds: number;
  /** Memory store: at most this many kept; saving one more evicts the oldest. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/** Crawls a server keeps ready to continue; each holds its seen set, a few hundred kB for a large crawl. */
export const DEFAULT_MAX_RESUMABLE_CRAWLS = 200;

// Ids are random UUIDs: knowing one is what lets a caller continue the crawl (a session-less HTTP API call may
// continue another's), so they must not be guessable. Anything else is refused before it reaches a file name.
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isResumeId(id: string): boolean {
  return ID_PATTERN.test(id);
}

export function createMemoryResumeStore(options: ResumeStoreOptions): ResumeStore {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_RESUMABLE_CRAWLS;
  // Insertion order is age order: the first key is the oldest.
  const entries = new Map<string, { state: CrawlState; expiresAt: number }>();

  function dropExpired(): void {
    const time = now();
    for (const [id, entry] of entries) if (entry.expiresAt <= time) entries.delete(id);
  }

  return {
    outlivesProcess: false,
    async save(state) {
      dropExpired();
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const id = randomUUID();
      entries.set(id, { state, expiresAt: now() + options.ttlSeconds * 1000 });
      return id;
    },
    async take(id) {
      dropExpired();
      const entry = entries.get(id);
      entries.delete(id);
      return entry?.state;
    },
  };
}

/**
 * One JSON file per crawl in `dir` (created 0700, files 0600: a state lists the URLs a user crawled). Expiry is the
 * file's age; expired files are removed whenever one is saved.
 */
export function createFileResumeStore(dir: string, options: ResumeStoreOptions): ResumeStore {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlSeconds * 1000;

  async function removeExpired(): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs + ttlMs <= now()) await rm(path, { force: true });
    }
  }

  return {
    outlivesProcess: true,
    async save(state) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await removeExpired();
      const id = randomUUID();
      await writeFile(join(dir, `${id}.json`), JSON.stringify(state), { mode: 0o600 });
      return id;
    },
    async take(id) {
      if (!isResumeId(id)) return undefined;
      const path = join(dir, `${id}.json`);
      const info = await stat(path).catch(() => undefined);
      if (!info) return undefined;
      const text = await readFile(path, 'utf8').catch(() => undefined);
      await rm(path, { force: true });
      if (text === undefined || info.mtimeMs + ttlMs <= now()) return undefined;
      try {
        const state = JSON.parse(text) as CrawlState;
        return state.version === 1 ? state : undefined;
      } catch {
        return undefined; // a damaged file continues nothing; the caller is told to start a new crawl
      }
    },
  };
}

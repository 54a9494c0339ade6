// Where a crawl stopped by its time limit (or a graceful stop) waits to be continued: an id → CrawlState, kept for
// CRAWL_RESUME_TTL seconds. The server keeps them in memory (bounded in count, the oldest evicted first); the CLI,
// one process per call, keeps them as files. The state is plain data, so a shared store (Redis) can replace both.
//
// One crawl, one id (issue 23): the id a crawl is first given continues it for its whole life. A call that
// continues it holds it (`take`) and writes its state back under the same id when it ends (`save(state, id)`), so
// the id a client sent is the one it gets back, and the one it can retry when the answer is lost. While a call holds
// the id, another take is refused with when to try again (a QUEUE_TIMEOUT with retry_after_seconds): two calls with
// the same id would read the same frontier twice and spend the same budget twice. A crawl that ended is `complete`:
// its id says so for CRAWL_RESUME_TTL instead of "unknown".
//
// A shared store (src/shared-state/redis-resume-store.ts) also keeps a crawl while it runs (`checkpoints`): the id
// exists from the crawl's start, the state is written at every committed page, and a lease names the one replica
// running it, so a crawl whose replica dies is continued, under the same id, from its last committed page on another.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TimeoutError } from '../errors.js';
import type { CrawlState } from './frontier.js';

export interface ResumeStore {
  /**
   * Whether a state saved here survives this process (files, a shared store). A crawl stopped by a shutdown is
   * only worth an id when it does: an id in memory would die with the process that hands it out.
   */
  readonly outlivesProcess: boolean;
  /** Keeps the state under `id` (the crawl's own) or, for a crawl that has none yet, a new id; returns the id. */
  save(state: CrawlState, id?: string): Promise<string>;
  /**
   * The state, held for this call for at most `holdMs` (until it is saved again): a take of the id meanwhile throws
   * a QUEUE_TIMEOUT TimeoutError saying when to try again. 'complete' for a crawl that ended; undefined when the id
   * is unknown or expired.
   */
  take(id: string, holdMs: number): Promise<CrawlState | 'complete' | undefined>;
  /** The crawl the id names ended: its state is removed, and its id says so (for CRAWL_RESUME_TTL). */
  complete(id: string): Promise<void>;
  /** Present on a store shared by replicas: crawls checkpointed while they run (docs/scale-out.md). */
  readonly checkpoints?: CrawlCheckpoints;
}

/** A crawl while it runs: its id for its whole life, its state written at every committed page, one owner (a lease). */
export interface RunningCrawl {
  /** What continue_from takes: the crawl's last checkpoint, once this call is over or its replica is gone. */
  readonly id: string;
  /** Writes the state the id continues from. Never throws: a checkpoint that fails leaves the previous one. */
  checkpoint(state: CrawlState): Promise<void>;
  /**
   * The call is over. With `final`, the state is kept for a continuation ('kept'); without, the last checkpoint
   * stays (a cancelled call: its id still continues). 'unreachable': the store could not keep it (save it
   * elsewhere, under the same id); 'lost': another replica took the crawl over meanwhile, so this call must hand
   * out no id.
   */
  release(final?: CrawlState): Promise<'kept' | 'unreachable' | 'lost'>;
  /** The crawl is complete: its state and lease are removed, and its id says so. */
  discard(): Promise<void>;
}

export interface CrawlCheckpoints {
  /** A new crawl's id and lease; undefined while the store is unreachable (the crawl runs without checkpoints). */
  begin(): Promise<RunningCrawl | undefined>;
  /**
   * Takes a stopped (or orphaned) crawl over under its own id: its lease becomes this process's. 'complete' for a
   * crawl that ended; undefined when the id is unknown or expired; throws a QUEUE_TIMEOUT TimeoutError while the
   * crawl's lease is held (it is running), saying when to try again. While the store is unreachable, `take` from
   * its fallback.
   */
  takeOver(id: string, holdMs: number): Promise<{ state: CrawlState; running?: RunningCrawl } | 'complete' | undefined>;
}

/** The refusal of a continue while a call (here, or on another replica) holds the crawl. */
export function crawlRunningError(id: string, where: 'here' | 'elsewhere', leftMs: number): TimeoutError {
  const seconds = Math.max(1, Math.ceil(leftMs / 1000));
  const place = where === 'here' ? 'on this server' : 'on another replica';
  const message =
    `continue_from '${id}': this crawl is running ${place}; try again in ${seconds} s. A crawl has one owner at ` +
    `a time and keeps its id: when that call ends, or its replica has died and its lease lapsed, the same id ` +
    `continues it from its last committed page.`;
  return new TimeoutError(`continue_from:${id}`, 0, { message, retryAfterSeconds: seconds });
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
  // Insertion order is age order: the first key is the oldest. A held entry is being continued by a call until
  // `heldUntil`; a complete one (no state) only says so.
  type Entry = { state?: CrawlState; expiresAt: number; heldUntil?: number };
  const entries = new Map<string, Entry>();

  function dropExpired(): void {
    const time = now();
    for (const [id, entry] of entries) if (entry.expiresAt <= time) entries.delete(id);
  }

  function put(id: string, entry: Entry): void {
    entries.delete(id);
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(id, entry);
  }

  return {
    outlivesProcess: false,
    async save(state, id = randomUUID()) {
      dropExpired();
      put(id, { state, expiresAt: now() + options.ttlSeconds * 1000 });
      return id;
    },
    async take(id, holdMs) {
      dropExpired();
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (!entry.state) return 'complete';
      const time = now();
      if (entry.heldUntil !== undefined && entry.heldUntil > time) {
        throw crawlRunningError(id, 'here', entry.heldUntil - time);
      }
      entry.heldUntil = time + holdMs;
      return entry.state;
    },
    async complete(id) {
      dropExpired();
      put(id, { expiresAt: now() + options.ttlSeconds * 1000 });
    },
  };
}

/**
 * One JSON file per crawl in `dir` (created 0700, files 0600: a state lists the URLs a user crawled). Expiry is the
 * file's age; expired files are removed whenever one is saved. A call continuing a crawl holds it by renaming its
 * file `<id>.held.json` with the time the hold ends as its mtime (a CLI killed mid-crawl leaves it, and it is taken
 * again once that time has passed); a complete crawl leaves an empty `<id>.done`.
 */
export function createFileResumeStore(dir: string, options: ResumeStoreOptions): ResumeStore {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlSeconds * 1000;
  const path = (id: string, suffix: '.json' | '.held.json' | '.done') => join(dir, `${id}${suffix}`);

  async function removeExpired(): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.json') && !name.endsWith('.done')) continue;
      const file = join(dir, name);
      const info = await stat(file).catch(() => undefined);
      // A held file's mtime is when its hold ends; it expires a TTL after that.
      if (info && info.mtimeMs + ttlMs <= now()) await rm(file, { force: true });
    }
  }

  async function removeAll(id: string): Promise<void> {
    await Promise.all(
      ['.json', '.held.json', '.done'].map((suffix) => rm(join(dir, `${id}${suffix}`), { force: true })),
    );
  }

  return {
    outlivesProcess: true,
    async save(state, id = randomUUID()) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await removeExpired();
      await writeFile(path(id, '.json'), JSON.stringify(state), { mode: 0o600 });
      await rm(path(id, '.held.json'), { force: true });
      return id;
    },
    async take(id, holdMs) {
      if (!isResumeId(id)) return undefined;
      if (await stat(path(id, '.done')).catch(() => undefined)) return 'complete';
      const held = await stat(path(id, '.held.json')).catch(() => undefined);
      if (held && held.mtimeMs > now()) throw crawlRunningError(id, 'here', held.mtimeMs - now());
      const from = held ? path(id, '.held.json') : path(id, '.json');
      const info = held ?? (await stat(from).catch(() => undefined));
      if (!info) return undefined;
      const text = await readFile(from, 'utf8').catch(() => undefined);
      if (text === undefined || info.mtimeMs + ttlMs <= now()) {
        await removeAll(id);
        return undefined;
      }
      let state: CrawlState | undefined;
      try {
        state = JSON.parse(text) as CrawlState;
      } catch {
        state = undefined; // a damaged file continues nothing; the caller is told to start a new crawl
      }
      if (state?.version !== 1) {
        await removeAll(id);
        return undefined;
      }
      const until = new Date(now() + holdMs);
      // Two takes at once: the one whose rename failed lost the race.
      if (!held)
        await rename(from, path(id, '.held.json')).catch(() => Promise.reject(crawlRunningError(id, 'here', holdMs)));
      await utimes(path(id, '.held.json'), until, until);
      return state;
    },
    async complete(id) {
      if (!isResumeId(id)) return;
      await removeAll(id);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(path(id, '.done'), '', { mode: 0o600 });
    },
  };
}

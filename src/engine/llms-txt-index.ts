// Each origin's /llms.txt (src/formats/llms-txt.ts), read once per origin per site-file TTL (fetch/robots-gate.ts
// siteFileTtlMs: CACHE_TTL when longer, else an hour, whatever CACHE_TTL says for pages) and shared by every read of a page on that
// origin (its Markdown twin) and by the `map` tool (its list of URLs). The file is fetched through the same loadPage
// as every page (guard, cache, queue); what is kept here is the parsed answer, including "there is none": a 404 is
// never cached as a page, and without this a site with no llms.txt would cost one extra request per read. Twins
// the convention guessed that turned out missing are kept the same way.
// A lookup nobody asked for (a page read's) never costs the caller (issue 23): it waits for an idle turn in the
// host's queue, which yields to every caller's request and takes no turn from them (fetch/queue.ts); it goes out
// with the User-Agent of the call that started it (the crawler's in a crawl); and `close()` aborts it, so nothing
// fires after the engine is closed. `map`, which asks for the file, takes an ordinary turn.
// A lookup never fails a read: a missing, slow, refused or malformed llms.txt is "no llms.txt".
import { sniffContent } from '../formats/sniff.js';
import { findLlmsTxtTwin, parseLlmsTxt, type LlmsTxt, type LlmsTxtTwin } from '../formats/llms-txt.js';
import type { FetchedPage } from '../fetch/types.js';
import type { LoadOptions, LoadPage } from './load-page.js';
import { TimeoutError } from '../errors.js';
import { unlessAborted } from '../fetch/guarded-connect.js';

/** Origins remembered at once; the oldest is forgotten first (as the robots gate). */
const MAX_ORIGINS = 512;
/** Guessed twins remembered missing per origin. */
const MAX_MISSING_TWINS = 1000;
/**
 * The llms.txt request's own deadline (FETCH_TIMEOUT when smaller): no read waits for it, but `map` does, and a site
 * slow to answer for a file it does not have should not hold the host's queue for FETCH_TIMEOUT.
 */
export const LLMS_TXT_TIMEOUT_MS = 5000;

export interface LlmsTxtIndexOptions {
  readonly loadPage: LoadPage;
  readonly decodeText: (page: FetchedPage) => Promise<string>;
  /** The site-file TTL in ms (siteFileTtlMs): how long an origin's answer (a file or none) is kept. */
  readonly ttlMs: number;
  readonly fetchTimeoutMs: number;
  readonly now?: () => number;
}

export interface LlmsTxtIndex {
  /**
   * The origin's llms.txt, asked for (`map`): an ordinary turn in the queue, as `userAgent`. Undefined when it has
   * none that reads as text, or after `close()`. Never throws but for `signal`.
   */
  read(url: string, signal?: AbortSignal, userAgent?: string): Promise<LlmsTxt | undefined>;
  /**
   * The Markdown twin llms.txt names for the page (unless a guessed one was found missing before), only from an
   * llms.txt already read: an origin not yet looked up starts its lookup (an idle turn, as `userAgent`, the
   * reading call's) and answers none at once. A page read never waits for llms.txt; the reads after it use the twin.
   */
  knownTwinFor(pageUrl: string, userAgent?: string): LlmsTxtTwin | undefined;
  /** A guessed twin that could not be read: not tried again for the site-file TTL. */
  markMissing(twinUrl: string): void;
  /** Aborts every lookup waiting or running; none starts after. */
  close(): void;
}

interface OriginEntry {
  readonly file: Promise<LlmsTxt | undefined>;
  /** The file once `file` has settled (undefined for none); `settled` says whether it has. */
  value?: LlmsTxt | undefined;
  settled: boolean;
  /** A lookup nobody asked for, waiting for an idle turn: one that asks replaces it. */
  readonly idle: boolean;
  readonly controller: AbortController;
  readonly expires: number;
  readonly missing: Set<string>;
}

/** Why a lookup gave no answer worth keeping: it never had its turn, or it was stopped. Tried again later. */
class NoTurn extends Error {}

export function createLlmsTxtIndex(options: LlmsTxtIndexOptions): LlmsTxtIndex {
  const now = options.now ?? Date.now;
  const origins = new Map<string, OriginEntry>();
  const timeoutMs = Math.min(options.fetchTimeoutMs, LLMS_TXT_TIMEOUT_MS);
  let closed = false;

  // Loaded without the caller's signal: the answer is shared by every read of the origin, and one caller hanging up
  // must not become "no llms.txt" for the others. The deadline above bounds it; `close()` aborts it.
  async function load(fileUrl: string, how: LoadOptions): Promise<LlmsTxt | undefined> {
    try {
      const { page } = await options.loadPage(fileUrl, { ...how, timeoutMs });
      if (new URL(page.finalUrl).origin !== new URL(fileUrl).origin) return undefined; // another site's file
      const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
      // A site that answers every path with its HTML app shell has no llms.txt, whatever the status says.
      if (kind !== 'markdown' && kind !== 'text') return undefined;
      const parsed = parseLlmsTxt(await options.decodeText(page), page.finalUrl);
      return parsed.entries.length > 0 ? parsed : undefined;
    } catch (error) {
      // Never sent (no idle turn within QUEUE_TIMEOUT) or stopped: not an answer, so not kept.
      if (how.signal?.aborted || (error instanceof TimeoutError && error.code === 'QUEUE_TIMEOUT')) throw new NoTurn();
      return undefined; // 404, refused, timed out: this origin has no llms.txt we can use, and the read goes on
    }
  }

  function entryFor(url: string, idle: boolean, userAgent: string | undefined): OriginEntry {
    const origin = new URL(url).origin;
    const known = origins.get(origin);
    if (known && known.expires > now() && (known.settled || !known.idle || idle)) return known;
    known?.controller.abort(); // an idle lookup not yet answered, now asked for: an ordinary turn replaces it
    const controller = new AbortController();
    const how: LoadOptions = { signal: controller.signal, idle, ...(userAgent !== undefined && { userAgent }) };
    const entry: OriginEntry = {
      file: load(new URL('/llms.txt', origin).href, how),
      settled: false,
      idle,
      controller,
      expires: now() + options.ttlMs,
      missing: new Set(),
    };
    void entry.file.then(
      (value) => {
        entry.value = value;
        entry.settled = true;
      },
      () => {
        if (origins.get(origin) === entry) origins.delete(origin); // no answer: the next read asks again
      },
    );
    origins.delete(origin);
    origins.set(origin, entry);
    if (origins.size > MAX_ORIGINS) origins.delete(origins.keys().next().value!);
    return entry;
  }

  return {
    // The file's promise goes on for the other callers when this one's signal aborts.
    async read(url, signal, userAgent) {
      if (closed) return undefined;
      return unlessAborted(
        entryFor(url, false, userAgent).file.catch(() => undefined),
        signal,
      );
    },
    knownTwinFor(pageUrl, userAgent) {
      if (closed) return undefined;
      const entry = entryFor(pageUrl, true, userAgent);
      const twin = entry.settled && entry.value ? findLlmsTxtTwin(entry.value, pageUrl) : undefined;
      return twin && !entry.missing.has(twin.url) ? twin : undefined;
    },
    markMissing(twinUrl) {
      const entry = origins.get(new URL(twinUrl).origin);
      if (!entry || entry.missing.size >= MAX_MISSING_TWINS) return;
      entry.missing.add(twinUrl);
    },
    close() {
      closed = true;
      for (const entry of origins.values()) entry.controller.abort();
      origins.clear();
    },
  };
}

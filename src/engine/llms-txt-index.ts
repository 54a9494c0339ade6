// Each origin's /llms.txt (src/formats/llms-txt.ts), read once per CACHE_TTL and shared by every read of a page on
// that origin (its Markdown twin) and by the `map` tool (its list of URLs). The file is fetched through the same
// loadPage as every page (guard, cache, queue); what is kept here is the parsed answer, including "there is none":
// a 404 is never cached as a page, and without this a site with no llms.txt would cost one extra request per read
// instead of one per origin per CACHE_TTL. Twins the convention guessed that turned out missing are kept the same
// way, so a guess costs one request per CACHE_TTL too.
// A lookup never fails a read: a missing, slow, refused or malformed llms.txt is "no llms.txt".
import { sniffContent } from '../formats/sniff.js';
import { findLlmsTxtTwin, parseLlmsTxt, type LlmsTxt, type LlmsTxtTwin } from '../formats/llms-txt.js';
import type { FetchedPage } from '../fetch/types.js';
import type { LoadPage } from './load-page.js';
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
  /** CACHE_TTL in ms: how long an origin's answer (a file or none) is kept. */
  readonly ttlMs: number;
  readonly fetchTimeoutMs: number;
  readonly now?: () => number;
}

export interface LlmsTxtIndex {
  /** The origin's llms.txt, or undefined when it has none that reads as text. Never throws but for `signal`. */
  read(url: string, signal?: AbortSignal): Promise<LlmsTxt | undefined>;
  /**
   * The Markdown twin llms.txt names for the page (unless a guessed one was found missing before), only from an
   * llms.txt already read: an origin not yet looked up starts its lookup and answers
   * none at once. A page read never waits for llms.txt, which on one host would queue behind the page for a whole
   * PER_DOMAIN_INTERVAL (2 s by default); the reads after it use the twin.
   */
  knownTwinFor(pageUrl: string): LlmsTxtTwin | undefined;
  /** A guessed twin that could not be read: not tried again for CACHE_TTL. */
  markMissing(twinUrl: string): void;
}

interface OriginEntry {
  readonly file: Promise<LlmsTxt | undefined>;
  /** The file once `file` has settled (undefined for none); `settled` says whether it has. */
  value?: LlmsTxt | undefined;
  settled: boolean;
  readonly expires: number;
  readonly missing: Set<string>;
}

export function createLlmsTxtIndex(options: LlmsTxtIndexOptions): LlmsTxtIndex {
  const now = options.now ?? Date.now;
  const origins = new Map<string, OriginEntry>();
  const timeoutMs = Math.min(options.fetchTimeoutMs, LLMS_TXT_TIMEOUT_MS);

  // Loaded without the caller's signal: the answer is shared by every read of the origin, and one caller hanging up
  // must not become "no llms.txt" for the others. The deadline above bounds it.
  async function load(fileUrl: string): Promise<LlmsTxt | undefined> {
    try {
      const { page } = await options.loadPage(fileUrl, { timeoutMs });
      if (new URL(page.finalUrl).origin !== new URL(fileUrl).origin) return undefined; // another site's file
      const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
      // A site that answers every path with its HTML app shell has no llms.txt, whatever the status says.
      if (kind !== 'markdown' && kind !== 'text') return undefined;
      const parsed = parseLlmsTxt(await options.decodeText(page), page.finalUrl);
      return parsed.entries.length > 0 ? parsed : undefined;
    } catch {
      return undefined; // 404, refused, timed out: this origin has no llms.txt we can use, and the read goes on
    }
  }

  function entryFor(url: string): OriginEntry {
    const origin = new URL(url).origin;
    const known = origins.get(origin);
    if (known && known.expires > now()) return known;
    const entry: OriginEntry = {
      file: load(new URL('/llms.txt', origin).href),
      settled: false,
      expires: now() + options.ttlMs,
      missing: new Set(),
    };
    void entry.file.then((value) => {
      entry.value = value;
      entry.settled = true;
    });
    origins.delete(origin);
    origins.set(origin, entry);
    if (origins.size > MAX_ORIGINS) origins.delete(origins.keys().next().value!);
    return entry;
  }

  return {
    // The file's promise goes on for the other callers when this one's signal aborts.
    read: (url, signal) => unlessAborted(entryFor(url).file, signal),
    knownTwinFor(pageUrl) {
      const entry = entryFor(pageUrl);
      const twin = entry.settled && entry.value ? findLlmsTxtTwin(entry.value, pageUrl) : undefined;
      return twin && !entry.missing.has(twin.url) ? twin : undefined;
    },
    markMissing(twinUrl) {
      const entry = origins.get(new URL(twinUrl).origin);
      if (!entry || entry.missing.size >= MAX_MISSING_TWINS) return;
      entry.missing.add(twinUrl);
    },
  };
}

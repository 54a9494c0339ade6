// An in-memory cache of fetched pages, bounded by bytes and by age (CACHE_TTL). Continuations (start_index) and
// different tools reading the same URL within the TTL share one snapshot, so one request reaches the origin and
// page two of a long document comes from the same version as page one. Errors are never cached.
// With REDIS_URL this cache sits in front of the shared one (src/shared-state/redis-page-cache.ts).
import { countCacheLookup } from '../metrics.js';
import type { FetchedPage } from './types.js';

/**
 * What the engine asks of a page cache. The in-memory one answers at once; a shared one answers over the network,
 * so callers await both. A cache that cannot answer (its store is down) misses; it never throws.
 */
export interface PageCache {
  get(key: string): FetchedPage | undefined | Promise<FetchedPage | undefined>;
  set(key: string, page: FetchedPage): void | Promise<void>;
}

/** The in-memory cache: synchronous, with its entry count for tests and diagnostics. */
export interface MemoryPageCache extends PageCache {
  get(key: string): FetchedPage | undefined;
  /** `expiresAt` (epoch ms) for a copy of a page another process cached: it expires with the original. */
  set(key: string, page: FetchedPage, expiresAt?: number): void;
  readonly size: number;
}

interface Entry {
  readonly page: FetchedPage;
  readonly expiresAt: number;
  readonly bytes: number;
}

export function createPageCache(options: {
  ttlSeconds: number;
  maxBytes: number;
  now?: () => number;
}): MemoryPageCache {
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order; re-inserting on read makes the first key the least recently used.
  const entries = new Map<string, Entry>();
  let totalBytes = 0;

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    totalBytes -= entry.bytes;
    entries.delete(key);
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry || entry.expiresAt <= now()) {
        if (entry) remove(key);
        countCacheLookup('memory', false);
        return undefined;
      }
      countCacheLookup('memory', true);
      entries.delete(key);
      entries.set(key, entry);
      return entry.page;
    },
    set(key, page, expiresAt) {
      if (options.ttlSeconds <= 0) return;
      const bytes = page.body.byteLength + 512; // headers and bookkeeping, roughly
      if (bytes > options.maxBytes) return;
      remove(key);
      entries.set(key, { page, expiresAt: expiresAt ?? now() + options.ttlSeconds * 1000, bytes });
      totalBytes += bytes;
      for (const oldest of entries.keys()) {
        if (totalBytes <= options.maxBytes) break;
        remove(oldest);
      }
    },
    get size() {
      return entries.size;
    },
  };
}

export interface SnapshotKeyOptions {
  /** A browser's DOM after the page's scripts ran (engine/render-step.ts), read once `waitFor` matched. */
  readonly rendered?: { readonly waitFor?: string };
}

/**
 * The one page-cache key, for fetched and rendered snapshots alike. The fragment: a fetched page drops it, since it
 * never reaches the server (RFC 9110 §4.2.4) and `/a#x` and `/a#y` are one response; a rendered page keeps it,
 * since scripts read it and a hash route (`/app#/settings`) is another page. A rendered key also holds `wait_for`,
 * which decides when the DOM was read. The strings are those the Redis page cache has always stored under
 * (src/shared-state/redis-page-cache.ts prefixes them), so replicas of different versions still share pages.
 */
export function snapshotKey(url: string, options: SnapshotKeyOptions = {}): string {
  const parsed = new URL(url);
  if (options.rendered) return `rendered ${options.rendered.waitFor ?? ''} ${parsed.href}`;
  parsed.hash = '';
  return parsed.href;
}

// In-flight de-duplication across processes (REDIS_URL). Within one process, load-page.ts already shares one fetch
// among the callers of a URL; across replicas, the first to miss the cache claims the URL and fetches it, and the
// others wait for its page to appear in the shared cache instead of asking the origin again. A claim lapses by itself
// (its TTL), so a replica that dies while fetching holds the others back only until then.
//
// Not handled: a fetch that fails is not shared (errors are never cached, SPEC "Caching"): its claim is released,
// and the next waiter claims the URL and tries itself, one replica at a time.
import { TimeoutError } from '../errors.js';
import type { PageCache } from './page-cache.js';
import type { FetchedPage } from './types.js';

/** The first and the longest pause between two looks at the shared cache while another process fetches. */
export const CLAIM_POLL_FIRST_MS = 20;
export const CLAIM_POLL_MAX_MS = 250;

export interface FetchClaim {
  /** Gives the claim up (after the page is in the shared cache, or the fetch failed). Never throws. */
  release(): Promise<void>;
}

export interface FetchClaims {
  /**
   * Claims `key` with a lease of `ttlMs`, renewed while this process holds it: a claim, or undefined while another
   * process holds it. A store that cannot answer grants the claim: fetching ourselves is the safe side (politeness
   * still holds, queue.ts).
   */
  claim(key: string, ttlMs: number): Promise<FetchClaim | undefined>;
  /**
   * Where a holder's page appears: the shared cache itself, not a local copy in front of it (which may hold an
   * older snapshot than a call's `max_age` accepts).
   */
  readonly pages: PageCache;
}

export interface ClaimOrWaitOptions {
  readonly claims: FetchClaims;
  /** How long the claim may be held: the holder's longest fetch, then it lapses. */
  readonly claimTtlMs: number;
  /** How long this call may wait for another process's page (its own QUEUE_TIMEOUT + FETCH_TIMEOUT). */
  readonly maxWaitMs: number;
  /** Whether a cached page answers this call (its `max_age`, or newer than the copy it came to replace). */
  readonly accepts: (page: FetchedPage) => boolean;
  readonly signal?: AbortSignal;
}

export type ClaimOrWaitResult = { readonly claim: FetchClaim } | { readonly page: FetchedPage };

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    function stop(): void {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Claims `url` (cache key) for this process to fetch, or waits for the process holding it to put the page in the
 * shared cache. Polls rather than subscribing: one GET and one SET NX per look, no second connection per process,
 * and a holder that dies needs no message. Rejects with the caller's reason when its signal aborts, and with a
 * QUEUE_TIMEOUT TimeoutError when `maxWaitMs` passes with neither.
 */
export async function claimOrWait(url: string, options: ClaimOrWaitOptions): Promise<ClaimOrWaitResult> {
  const { claims, signal } = options;
  const giveUpAt = Date.now() + options.maxWaitMs;
  let pauseMs = CLAIM_POLL_FIRST_MS;
  for (;;) {
    signal?.throwIfAborted();
    const claim = await claims.claim(url, options.claimTtlMs);
    if (claim) {
      // The caller missed the cache before it came here, but another process may have fetched the page and let its
      // claim go in between (bench:replicas saw 501 origin requests for 500 pages): one more look before fetching.
      const page = await claims.pages.get(url);
      if (page && options.accepts(page)) {
        void claim.release();
        return { page };
      }
      return { claim };
    }
    const left = giveUpAt - Date.now();
    if (left <= 0) {
      const retryAfterSeconds = Math.max(1, Math.ceil(options.claimTtlMs / 1000));
      const message =
        `busy: another replica is fetching ${url}, retry in ${retryAfterSeconds} s. A call waits at most ` +
        `${options.maxWaitMs} ms for it (QUEUE_TIMEOUT + FETCH_TIMEOUT).`;
      throw new TimeoutError(url, options.maxWaitMs, { message, retryAfterSeconds });
    }
    await pause(Math.min(pauseMs, left), signal);
    pauseMs = Math.min(pauseMs * 2, CLAIM_POLL_MAX_MS);
    const page = await claims.pages.get(url);
    if (page && options.accepts(page)) return { page };
  }
}

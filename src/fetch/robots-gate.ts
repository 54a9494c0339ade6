// The one robots.txt gate (RFC 9309), shared by every reader of robots.txt: single-page reads under
// RESPECT_ROBOTS=always (a disallowed URL is refused with ROBOTS_DENIED, status `robots_denied`, before any request
// for it is made), and the crawl and map, which take the rules themselves (Crawl-delay, Sitemap lines). Each
// origin's answer is kept for the site-file TTL (siteFileTtlMs: at least an hour, whatever CACHE_TTL says for
// pages), so robots.txt is fetched once per origin per TTL whoever asks, and a site without one (404, never cached
// as a page) costs one request per origin, not one per read or per crawl, even with CACHE_TTL=0. One fetch
// per origin at a time: callers asking while it runs wait for it. With a shared `store` (REDIS_URL), one replica's
// answer serves the others for the same time; each still keeps the parsed rules itself.
// How the file is fetched is the caller's `readText` (engine/load-page.ts): as the crawler, with no credentials.
import { PRODUCT_TOKEN } from '../config.js';
import { SecurityError } from '../errors.js';
import { log, logUrl } from '../log.js';
import { unlessAborted } from './guarded-connect.js';
import { readRobotsAnswer, robotsUrlFor, rulesFromAnswer, type RobotsAnswer, type RobotsRules } from './robots.js';

/**
 * How long an origin's robots.txt and llms.txt answers are kept (issue 23): CACHE_TTL when longer, else an hour, and
 * never past the 24 h RFC 9309 §2.4 allows. CACHE_TTL=0 (fresh pages) does not make every read, or every page of a
 * crawl, ask for the site's files again.
 */
export const SITE_FILE_TTL_SECONDS = 3600;
const SITE_FILE_MAX_TTL_SECONDS = 24 * 3600;

export function siteFileTtlMs(cacheTtlSeconds: number): number {
  return Math.min(Math.max(cacheTtlSeconds, SITE_FILE_TTL_SECONDS), SITE_FILE_MAX_TTL_SECONDS) * 1000;
}

/** Origins whose rules are kept at once; the oldest is forgotten first. */
const MAX_ORIGINS = 512;

export interface RobotsGate {
  /** The rules of the URL's origin for our product token; throws only for a refused address or `signal`. */
  rulesFor(url: string, signal?: AbortSignal): Promise<RobotsRules>;
  /** Throws SecurityError ROBOTS_DENIED when the URL's robots.txt disallows it for our product token. */
  check(url: string, signal?: AbortSignal): Promise<void>;
}

/** Robots answers shared between processes, by origin (src/shared-state/redis-robots-store.ts). Never throws. */
export interface RobotsStore {
  get(origin: string): Promise<RobotsAnswer | undefined>;
  set(origin: string, answer: RobotsAnswer, ttlMs: number): Promise<void>;
}

/** The refusal an agent reads: which file said no, and what would help. */
export function robotsDeniedError(url: string, rules: RobotsRules, productToken = PRODUCT_TOKEN): SecurityError {
  const why = rules.disallowAllReason
    ? `${rules.disallowAllReason}, which RFC 9309 reads as disallowing every URL of the site`
    : `${robotsUrlFor(url)} disallows it for ${productToken}`;
  return new SecurityError(
    'ROBOTS_DENIED',
    url,
    `Refusing to fetch ${url}: ${why}, and this server obeys robots.txt for every read (RESPECT_ROBOTS=always). ` +
      'Read another page of the site, or ask the operator to set RESPECT_ROBOTS=crawl.',
  );
}

/**
 * `readText` reads a robots.txt through the engine's guard, cache and queue; `now` is for tests; `productToken` names
 * the group obeyed (src/fetch/robots.ts productTokenOf).
 */
export function createRobotsGate(
  readText: (robotsUrl: string) => Promise<string>,
  ttlMs: number,
  now: () => number = Date.now,
  productToken = PRODUCT_TOKEN,
  store?: RobotsStore,
): RobotsGate {
  async function answerFor(url: string, origin: string): Promise<RobotsAnswer> {
    const shared = await store?.get(origin);
    if (shared) return shared;
    const answer = await readRobotsAnswer(url, readText);
    await store?.set(origin, answer, ttlMs);
    return answer;
  }

  const known = new Map<string, { rules: Promise<RobotsRules>; expires: number }>();

  function rulesFor(url: string, signal?: AbortSignal): Promise<RobotsRules> {
    signal?.throwIfAborted();
    const origin = new URL(url).origin;
    let entry = known.get(origin);
    if (!entry || entry.expires <= now()) {
      // Read without the caller's signal: the answer is every caller's, and one caller hanging up must not become
      // "unreachable" for the others (the fetch's own deadline bounds it). A failed read is not kept.
      const rules = answerFor(url, origin).then((answer) => rulesFromAnswer(url, answer, productToken));
      const fresh = { rules, expires: now() + ttlMs };
      entry = fresh;
      rules.catch(() => {
        if (known.get(origin) === fresh) known.delete(origin);
      });
      known.delete(origin);
      known.set(origin, fresh);
      if (known.size > MAX_ORIGINS) known.delete(known.keys().next().value!);
    }
    return unlessAborted(entry.rules, signal);
  }

  return {
    rulesFor,
    async check(url, signal) {
      if (url === robotsUrlFor(url)) return; // the file itself is what is being read
      const rules = await rulesFor(url, signal);
      if (!rules.isAllowed(url)) {
        log('info', `robots.txt of ${new URL(url).origin} disallows ${logUrl(url)}: refused (RESPECT_ROBOTS=always)`);
        throw robotsDeniedError(url, rules, productToken);
      }
    },
  };
}

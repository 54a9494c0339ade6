// RESPECT_ROBOTS=always (SPEC "Safety and politeness"): single-page reads obey robots.txt too, not only the crawl.
// A disallowed URL is refused with ROBOTS_DENIED (status `robots_denied`) before any request for it is made.
// Each origin's rules are kept for CACHE_TTL, so a site without a robots.txt (404, never cached as a page) costs
// one extra request per origin, not one per read. With a shared `store` (REDIS_URL), one replica's answer serves
// the others for the same time; each still keeps the parsed rules itself.
import { PRODUCT_TOKEN } from '../config.js';
import { SecurityError } from '../errors.js';
import { log, logUrl } from '../log.js';
import { readRobotsAnswer, robotsUrlFor, rulesFromAnswer, type RobotsAnswer, type RobotsRules } from './robots.js';

/** Origins whose rules are kept at once; the oldest is forgotten first. */
const MAX_ORIGINS = 512;

export interface RobotsGate {
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
  readText: (robotsUrl: string, signal?: AbortSignal) => Promise<string>,
  ttlMs: number,
  now: () => number = Date.now,
  productToken = PRODUCT_TOKEN,
  store?: RobotsStore,
): RobotsGate {
  async function answerFor(url: string, origin: string, signal?: AbortSignal): Promise<RobotsAnswer> {
    const shared = await store?.get(origin);
    if (shared) return shared;
    const answer = await readRobotsAnswer(url, (robotsUrl) => readText(robotsUrl, signal), signal);
    await store?.set(origin, answer, ttlMs);
    return answer;
  }

  const known = new Map<string, { rules: RobotsRules; expires: number }>();
  return {
    async check(url, signal) {
      if (url === robotsUrlFor(url)) return; // the file itself is what is being read
      const origin = new URL(url).origin;
      let entry = known.get(origin);
      if (!entry || entry.expires <= now()) {
        const rules = rulesFromAnswer(url, await answerFor(url, origin, signal), productToken);
        entry = { rules, expires: now() + ttlMs };
        known.delete(origin);
        known.set(origin, entry);
        if (known.size > MAX_ORIGINS) known.delete(known.keys().next().value!);
      }
      if (!entry.rules.isAllowed(url)) {
        log('info', `robots.txt of ${origin} disallows ${logUrl(url)}: refused (RESPECT_ROBOTS=always)`);
        throw robotsDeniedError(url, entry.rules, productToken);
      }
    },
  };
}

// robots.txt for the crawler and, under RESPECT_ROBOTS=always, every read (RFC 9309), parsed with robots-parser: groups by product token, longest-match
// Allow/Disallow with `*` and `$`, plus the non-standard but common `Crawl-delay` and the `Sitemap:` lines.
// We match the group for our product token `web-reader` (else `*`): the User-Agent header is browser-like by
// default, but robots.txt rules are addressed to crawlers by name (RFC 9309 §2.2.1).
// What an unavailable robots.txt means follows RFC 9309 §2.3.1.3–4: 4xx → no rules; 5xx or unreachable →
// everything disallowed. A refused address (SecurityError) is not "unreachable": the caller reports the refusal.
import robotsParserModule from 'robots-parser';
import { errorMessage, HttpStatusError, SecurityError } from '../errors.js';

// robots-parser is CommonJS whose types declare an ES default export; under NodeNext the default import is the
// function itself at run time, so the type is corrected here once.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The product token robots.txt groups are matched against. */
export const ROBOTS_PRODUCT_TOKEN = 'web-reader';

export interface RobotsRules {
  /** Whether our crawler may fetch the URL (a URL on another origin is always allowed: not these rules' business). */
  isAllowed(url: string): boolean;
  /** Crawl-delay for our group in seconds, when the file sets one. */
  readonly crawlDelaySeconds: number | undefined;
  /** Absolute sitemap URLs from `Sitemap:` lines. */
  readonly sitemaps: readonly string[];
  /** Why everything is disallowed, when the file could not be read (5xx, unreachable). */
  readonly disallowAllReason?: string;
}

/** `https://host:port/robots.txt` for any URL on that origin. */
export function robotsUrlFor(url: string): string {
  return new URL('/robots.txt', url).href;
}

export function parseRobots(robotsUrl: string, text: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(ROBOTS_PRODUCT_TOKEN);
  return {
    isAllowed: (url) => robots.isAllowed(url, ROBOTS_PRODUCT_TOKEN) !== false,
    crawlDelaySeconds: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay : undefined,
    sitemaps: robots.getSitemaps(),
  };
}

/** No robots.txt (4xx): everything may be fetched. */
export const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelaySeconds: undefined, sitemaps: [] };

/** robots.txt answered 5xx or could not be reached: RFC 9309 §2.3.1.4 says assume complete disallow. */
export function disallowAll(reason: string): RobotsRules {
  return { isAllowed: () => false, crawlDelaySeconds: undefined, sitemaps: [], disallowAllReason: reason };
}

/**
 * What a robots.txt fetch came to, in a form that can be stored and shared between processes (RobotsRules holds
 * functions): the file's text, no rules (4xx), or everything disallowed and why (5xx, unreachable).
 */
export type RobotsAnswer =
  { readonly text: string } | { readonly allowAll: true } | { readonly disallowReason: string };

/** The rules an answer stands for; `url` is any URL of the origin. */
export function rulesFromAnswer(url: string, answer: RobotsAnswer): RobotsRules {
  if ('text' in answer) return parseRobots(robotsUrlFor(url), answer.text);
  if ('allowAll' in answer) return ALLOW_ALL;
  return disallowAll(answer.disallowReason);
}

/**
 * The rules for a URL's origin, its robots.txt read by `readText` (the engine's guarded, cached, queued fetch).
 * RFC 9309 §2.3.1: 4xx → no rules, 5xx or unreachable → everything disallowed. Throws only for a refused address
 * or cancellation, which the caller reports as such.
 */
export async function readRobotsRules(
  url: string,
  readText: (robotsUrl: string) => Promise<string>,
  signal?: AbortSignal,
): Promise<RobotsRules> {
  return rulesFromAnswer(url, await readRobotsAnswer(url, readText, signal));
}

/** readRobotsRules before parsing: what the fetch came to, as a RobotsAnswer. */
export async function readRobotsAnswer(
  url: string,
  readText: (robotsUrl: string) => Promise<string>,
  signal?: AbortSignal,
): Promise<RobotsAnswer> {
  const robotsUrl = robotsUrlFor(url);
  try {
    return { text: await readText(robotsUrl) };
  } catch (error) {
    if (signal?.aborted || error instanceof SecurityError) throw error;
    if (error instanceof HttpStatusError && error.status >= 400 && error.status < 500 && error.status !== 429) {
      return { allowAll: true }; // "unavailable": no rules (§2.3.1.3)
    }
    if (error instanceof HttpStatusError) return { disallowReason: `robots.txt answered HTTP ${error.status}` };
    return { disallowReason: `robots.txt could not be read: ${errorMessage(error)}` }; // "unreachable" (§2.3.1.4)
  }
}

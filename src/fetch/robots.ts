// robots.txt for the crawler and, under RESPECT_ROBOTS=always, every read (RFC 9309), parsed with robots-parser: groups by product token, longest-match
// Allow/Disallow with `*` and `$`, plus the non-standard but common `Crawl-delay` and the `Sitemap:` lines.
// We match the group for the product token of the crawler's User-Agent (else `*`), RFC 9309 §2.2.1: `web-reader`,
// the name `crawl` and `map` send, unless USER_AGENT names another agent, whose token is then the one obeyed, so the
// group obeyed is always the one a site owner would write for what they see in their logs. Single-page tools send a
// browser-like User-Agent by default, but robots.txt rules are addressed to crawlers by name: they obey the same group.
// What an unavailable robots.txt means follows RFC 9309 §2.3.1.3–4: 4xx → no rules; 5xx or unreachable →
// everything disallowed. A refused address (SecurityError) is not "unreachable": the caller reports the refusal.
import robotsParserModule from 'robots-parser';
import { PRODUCT_TOKEN } from '../config.js';
import { errorMessage, HttpStatusError, SecurityError, WebReaderError } from '../errors.js';

// robots-parser is CommonJS whose types declare an ES default export; under NodeNext the default import is the
// function itself at run time, so the type is corrected here once.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/**
 * The product token of a User-Agent, the name robots.txt groups are matched against: its leading letters, `_` and `-`
 * (RFC 9309 §2.2.1), so `web-reader/0.1.0 (+…)` → `web-reader`, `MyBot/2.0` → `MyBot`, `Mozilla/5.0 (…)` →
 * `Mozilla` (a browser's name: in practice only the `*` group applies). Ours when the string has none.
 */
export function productTokenOf(userAgent: string): string {
  return /^[A-Za-z_-]+/.exec(userAgent.trim())?.[0] ?? PRODUCT_TOKEN;
}

export interface RobotsRules {
  /** Whether our crawler may fetch the URL (a URL on another origin is always allowed: not these rules' business). */
  isAllowed(url: string): boolean;
  /** Crawl-delay for our group in seconds, when the file sets one. */
  readonly crawlDelaySeconds: number | undefined;
  /** Absolute sitemap URLs from `Sitemap:` lines. */
  readonly sitemaps: readonly string[];
  /** Why everything is disallowed, when the file could not be read (5xx, unreachable). */
  readonly disallowAllReason?: string;
  /**
   * The network failure that kept robots.txt from being read (refused connection, DNS, timeout): RFC 9309 still
   * disallows everything, but this is the site being unreachable, which a crawl reports as the error it is rather
   * than as a robots.txt refusal. Absent when the server answered (a 5xx is the site's own answer).
   */
  readonly unreachable?: { readonly code: string; readonly message: string };
}

/** `https://host:port/robots.txt` for any URL on that origin. */
export function robotsUrlFor(url: string): string {
  return new URL('/robots.txt', url).href;
}

/** The rules of the group for `productToken` (else `*`). */
export function parseRobots(robotsUrl: string, text: string, productToken = PRODUCT_TOKEN): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(productToken);
  return {
    isAllowed: (url) => robots.isAllowed(url, productToken) !== false,
    crawlDelaySeconds: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay : undefined,
    sitemaps: robots.getSitemaps(),
  };
}

/** No robots.txt (4xx): everything may be fetched. */
export const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelaySeconds: undefined, sitemaps: [] };

/** robots.txt answered 5xx or could not be reached: RFC 9309 §2.3.1.4 says assume complete disallow. */
export function disallowAll(reason: string, unreachable?: RobotsRules['unreachable']): RobotsRules {
  return {
    isAllowed: () => false,
    crawlDelaySeconds: undefined,
    sitemaps: [],
    disallowAllReason: reason,
    ...(unreachable && { unreachable }),
  };
}

/**
/**
 * What a robots.txt fetch came to, in a form that can be stored and shared between processes (RobotsRules holds
 * functions): the file's text, no rules (4xx), or everything disallowed and why (5xx, unreachable — with the network
 * failure when there was no answer at all).
 */
export type RobotsAnswer =
  | { readonly text: string }
  | { readonly allowAll: true }
  | { readonly disallowReason: string; readonly unreachable?: RobotsRules['unreachable'] };

/** The rules an answer stands for, for the group of `productToken`; `url` is any URL of the origin. */
export function rulesFromAnswer(url: string, answer: RobotsAnswer, productToken = PRODUCT_TOKEN): RobotsRules {
  if ('text' in answer) return parseRobots(robotsUrlFor(url), answer.text, productToken);
  if ('allowAll' in answer) return ALLOW_ALL;
  return disallowAll(answer.disallowReason, answer.unreachable);
}

/**
 * The rules for a URL's origin, its robots.txt read by `readText` (the engine's guarded, cached, queued fetch), for
 * the group of `productToken`. RFC 9309 §2.3.1: 4xx → no rules, 5xx or unreachable → everything disallowed. Throws
 * only for a refused address or cancellation, which the caller reports as such.
 */
export async function readRobotsRules(
  url: string,
  readText: (robotsUrl: string) => Promise<string>,
  signal?: AbortSignal,
  productToken = PRODUCT_TOKEN,
): Promise<RobotsRules> {
  return rulesFromAnswer(url, await readRobotsAnswer(url, readText, signal), productToken);
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
    // "Unreachable" (§2.3.1.4): no answer at all — refused, no such host, timed out.
    const message = errorMessage(error);
    const code = error instanceof WebReaderError ? error.code : 'CONNECT_FAILED';
    return { disallowReason: `robots.txt could not be read: ${message}`, unreachable: { code, message } };
  }
}

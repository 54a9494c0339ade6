// robots.txt is asked before any page of its origin (RFC 9309). When that first request fails in a way that every URL
// of the origin would fail alike — the connection refused, the name unresolved, the address refused by the guard —
// the failure is the page's own and is said at the page's URL, not at robots.txt's, which the agent never asked for
// (issue 23). One home for crawl (visit.ts) and map (map-site.ts).
import { SecurityError } from '../errors.js';
import { robotsUrlFor } from '../fetch/robots.js';

/** Codes a request to robots.txt shares with every URL of its origin. */
const SAME_FOR_EVERY_URL: ReadonlySet<string> = new Set(['CONNECT_FAILED', 'PRIVATE_ADDRESS']);

export interface RobotsFailure {
  readonly code: string;
  readonly message: string;
}

/**
 * `failure`, met asking robots.txt before `pageUrl`, said at `pageUrl` with a note that robots.txt was asked first;
 * undefined when it is not one every URL of the origin shares (a time-out, an error of robots.txt's own redirect).
 */
export function asPageFailure(pageUrl: string, failure: RobotsFailure): RobotsFailure | undefined {
  const robotsUrl = robotsUrlFor(pageUrl);
  if (!SAME_FOR_EVERY_URL.has(failure.code) || !failure.message.includes(robotsUrl)) return undefined;
  const message = failure.message.replaceAll(robotsUrl, pageUrl);
  return { code: failure.code, message: `${message} (robots.txt, asked first, failed alike)` };
}

/** robots.txt's request refused outright (the guard: a private address), as the page's own error; else `error`. */
export function asPageError(pageUrl: string, error: unknown): unknown {
  const asPage = error instanceof SecurityError ? asPageFailure(pageUrl, error) : undefined;
  return asPage ? new SecurityError('PRIVATE_ADDRESS', pageUrl, asPage.message) : error;
}

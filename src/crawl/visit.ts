// One visit of the crawl: robots.txt and Crawl-delay first (politeness.ts), then the page read through CrawlIO and
// its links. A failure is a result (listed under errors), except cancellation, which ends the crawl.
import { errorMessage, WebReaderError } from '../errors.js';
import { log, logUrl } from '../log.js';
import type { CrawlFetched, CrawlIO } from './crawl-io.js';
import type { CrawlEntry } from './frontier.js';
import type { Politeness } from './politeness.js';
import { CRAWL_REASONS } from './reasons.js';
import { asPageError, asPageFailure } from './robots-first.js';

export type VisitResult =
  | { kind: 'page'; entry: CrawlEntry; page: CrawlFetched; links: string[]; canonical: string | undefined }
  | { kind: 'robots'; entry: CrawlEntry; reason: string }
  | { kind: 'error'; entry: CrawlEntry; code: string; message: string };

export interface VisitOptions {
  readonly io: Pick<CrawlIO, 'readPage' | 'extractLinks'>;
  readonly politeness: Politeness;
  readonly respectRobots: boolean;
  readonly signal: AbortSignal;
  /** Called once the page's request is queued, and again when the visit ends (so at least once). */
  readonly onRequest: () => void;
}

function failureOf(entry: CrawlEntry, error: unknown): VisitResult {
  const code = error instanceof WebReaderError ? error.code : 'INTERNAL';
  return { kind: 'error', entry, code, message: errorMessage(error) };
}

/** A URL whose site's robots.txt could not be reached: listed with that failure, and why the page was not tried. */
function unreachable(entry: CrawlEntry, failure: { code: string; message: string }): VisitResult {
  const asPage = asPageFailure(entry.url, failure);
  if (asPage) return { kind: 'error', entry, ...asPage };
  const why = CRAWL_REASONS.robotsUnreachable(new URL(entry.url).origin);
  return { kind: 'error', entry, code: failure.code, message: `${failure.message} — ${why}` };
}

/** The origin's robots.txt rules; a refusal of its request by the guard is the page's own, said at its URL. */
async function robotsOf(politeness: Politeness, url: string): ReturnType<Politeness['robotsFor']> {
  try {
    return await politeness.robotsFor(url);
  } catch (error) {
    throw asPageError(url, error);
  }
}

export function createVisit(options: VisitOptions): (entry: CrawlEntry) => Promise<VisitResult> {
  const { io, politeness, signal, onRequest } = options;
  return async (entry) => {
    try {
      signal.throwIfAborted();
      if (options.respectRobots) {
        const rules = await robotsOf(politeness, entry.url);
        if (!rules.isAllowed(entry.url)) {
          // A site that did not answer at all (refused, no such host, timed out) is an error, not a robots.txt
          // refusal, although RFC 9309 §2.3.1.4 keeps its pages unread just the same.
          if (rules.unreachable) return unreachable(entry, rules.unreachable);
          const reason = rules.disallowAllReason ?? CRAWL_REASONS.robotsDisallowed;
          log('info', `crawl: skipped ${logUrl(entry.url)}: ${reason}`);
          return { kind: 'robots', entry, reason };
        }
        if (rules.crawlDelaySeconds) await politeness.waitForTurn(entry.url, rules.crawlDelaySeconds);
      }
      const reading = io.readPage(entry.url, signal);
      onRequest(); // the page's request is queued: a sitemap's request to the same host goes behind it
      const page = await reading;
      if (page.unreadable) return { kind: 'error', entry, ...page.unreadable };
      if (!page.html) return { kind: 'page', entry, page, links: [], canonical: undefined };
      const found = page.links ?? (await io.extractLinks(page.html, page.finalUrl));
      return { kind: 'page', entry, page, links: found.urls, canonical: found.canonicalUrl };
    } catch (error) {
      if (signal.aborted) throw error;
      return failureOf(entry, error);
    } finally {
      onRequest();
    }
  };
}

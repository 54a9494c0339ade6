// What the network edge hands the rest of the product. Pure code downstream never sees a socket.
import type { Credentials } from './credentials.js';

export interface FetchedPage {
  /** The URL the caller asked for. */
  readonly url: string;
  /** The URL of the answer, after redirects. Relative links resolve against it (or <base href>). */
  readonly finalUrl: string;
  readonly status: number;
  /** Response headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The media type from Content-Type, lower-cased, without parameters; '' when absent. */
  readonly mediaType: string;
  /** The body after Content-Encoding was undone (gzip, deflate, br), never more than MAX_RESPONSE_SIZE bytes. */
  readonly body: Uint8Array;
  readonly fetchedAt: Date;
}

export interface FetchOptions {
  /** Cancels the request (client cancellation, a caller's own deadline). */
  readonly signal?: AbortSignal;
  /** Overrides FETCH_TIMEOUT for this call (web_scraper's `timeout`). */
  readonly timeoutMs?: number;
  /** Overrides the Accept header (robots.txt, sitemaps). */
  readonly accept?: string;
  /** Overrides USER_AGENT (the honest retry after a bot wall). */
  readonly userAgent?: string;
  /**
   * The caller's credentials (a cookie, an authorization), bound to their origin (credentials.ts): a hop carries
   * them only while the chain has stayed on that origin; a chain that leaves it, or starts elsewhere, never does.
   */
  readonly credentials?: Credentials;
}

export type FetchPage = (url: string, options?: FetchOptions) => Promise<FetchedPage>;

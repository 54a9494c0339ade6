// The error classes of SPEC "Errors". Each owns one or more stable codes; a code never changes once shipped,
// wording may improve except where a seed gives the text verbatim. Errors are thrown where the fact is known and
// translated once per front door (MCP isError, HTTP success:false, CLI stderr + exit code). No class is for token
// limits: MAX_OUTPUT_TOKENS and max_length cut with a notice, and a crawl's max_tokens skips pages in its report.

export type ErrorCode =
  | 'CONNECT_FAILED'
  | 'RESPONSE_TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'BAD_RESPONSE'
  | 'BROWSER_MISSING'
  | 'BROWSER_FAILED'
  | 'HTTP_STATUS'
  | 'RATE_LIMITED'
  | 'PRIVATE_ADDRESS'
  | 'UNSUPPORTED_PROTOCOL'
  | 'ROBOTS_DENIED'
  | 'TIMEOUT'
  | 'QUEUE_TIMEOUT'
  | 'EXTRACTION_FAILED'
  | 'EXTRACTION_TIMEOUT'
  | 'INVALID_ARGUMENT'
  | 'SEARCH_UNAVAILABLE';

export class WebReaderError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The network failed us: no connection, a body too large, a redirect loop, a malformed response. Rendering
 * (src/browser/) adds two: BROWSER_MISSING, no browser to render with (none installed, or CHROMIUM_PATH names
 * nothing), and BROWSER_FAILED, the browser would not start, crashed or hung and was killed. `search` adds
 * SEARCH_UNAVAILABLE: its provider (SearXNG, Brave) is down, refused the key, rate-limited us or answered nonsense;
 * `url` is then the provider's endpoint and the message names the provider.
 */
export class FetchError extends WebReaderError {
  constructor(
    code:
      | 'CONNECT_FAILED'
      | 'RESPONSE_TOO_LARGE'
      | 'TOO_MANY_REDIRECTS'
      | 'BAD_RESPONSE'
      | 'BROWSER_MISSING'
      | 'BROWSER_FAILED'
      | 'SEARCH_UNAVAILABLE',
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/**
 * What a status error keeps of the response (the fetcher's FetchedPage has these fields and more): enough to recognise
 * a bot challenge or read Retry-After. Declared here so that errors.ts imports nothing.
 */
export interface ErrorResponse {
  readonly finalUrl: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** The server answered with a status we do not turn into content (4xx/5xx, 429 with Retry-After). */
export class HttpStatusError extends WebReaderError {
  /** The (bounded) response itself, so callers can recognise a bot challenge by its headers and body. */
  page?: ErrorResponse;

  constructor(
    readonly url: string,
    readonly status: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(
      status === 429 || (status === 503 && retryAfterSeconds !== undefined) ? 'RATE_LIMITED' : 'HTTP_STATUS',
      message,
    );
  }
}

/** The request would reach somewhere it must not: a private address, a non-http(s) scheme, a robots.txt denial. */
export class SecurityError extends WebReaderError {
  constructor(
    code: 'PRIVATE_ADDRESS' | 'UNSUPPORTED_PROTOCOL' | 'ROBOTS_DENIED',
    readonly url: string,
    message: string,
  ) {
    super(code, message);
  }
}

/**
 * TIMEOUT: the network deadline (FETCH_TIMEOUT) passed. QUEUE_TIMEOUT: the call never left the request queue in
 * time (src/fetch/queue.ts); nothing was sent, `timeoutMs` is the wait limit and the message says when to retry.
 * `message` replaces the fetch wording where the deadline was another's (a render's, src/browser/).
 */
export class TimeoutError extends WebReaderError {
  /** QUEUE_TIMEOUT only: seconds after which the requests ahead are expected to have gone. */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    queued?: { readonly message: string; readonly retryAfterSeconds: number },
    message?: string,
  ) {
    super(
      queued ? 'QUEUE_TIMEOUT' : 'TIMEOUT',
      queued?.message ??
        message ??
        `Timed out after ${timeoutMs} ms fetching ${url}. Try again later or raise FETCH_TIMEOUT.`,
    );
    this.retryAfterSeconds = queued?.retryAfterSeconds;
  }
}

export class ExtractionError extends WebReaderError {
  constructor(code: 'EXTRACTION_FAILED' | 'EXTRACTION_TIMEOUT', message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** A caller's argument or a configuration value is wrong; the message names it. */
export class InvalidArgumentError extends WebReaderError {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super('INVALID_ARGUMENT', message);
  }
}

/** Anything thrown that is not ours becomes a plain message; ours keep theirs. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

// The caller's credentials (`headers`: a cookie, an authorization) as a value bound to the origin they were given
// for. Made once, where a tool reads its arguments (tools/request-arguments.ts), handed down unchanged, and looked at
// in one place: guarded-fetch.ts asks `credentialHeadersFor` on every hop, and load-page.ts / render-step.ts ask
// `carriesCredentials` to decide "not cached, not shared in flight, not rendered". No other code compares origins
// for them, so no path the engine takes (a twin, a redirect, llms.txt, robots.txt, a sitemap, a crawl or map link)
// can start a new "first origin" for them.

export interface Credentials {
  /** The origin they were given for (RFC 6454 serialisation, as URL.origin gives it). */
  readonly origin: string;
  /** Header names lower-cased; never logged, never cached. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The caller's headers bound to `url`'s origin; none when there are no headers, or when `url` is not a URL (the
 * read then fails on it, url-argument.ts, before any request could carry them).
 */
export function bindCredentials(
  url: string | URL,
  headers: Readonly<Record<string, string>> | undefined,
): Credentials | undefined {
  if (headers === undefined || Object.keys(headers).length === 0) return undefined;
  let origin: string;
  try {
    origin = new URL(String(url).trim()).origin;
  } catch {
    return undefined;
  }
  return Object.freeze({ origin, headers: Object.freeze({ ...headers }) });
}

/** The one check: the headers when `url` is on the credentials' own origin, else none. */
export function credentialHeadersFor(
  credentials: Credentials | undefined,
  url: string | URL,
): Readonly<Record<string, string>> | undefined {
  if (!credentials) return undefined;
  return new URL(url).origin === credentials.origin ? credentials.headers : undefined;
}

/**
 * Whether a request for `url` starts with the credentials: a chain that starts on another origin never carries
 * them (guarded-fetch.ts), so its page is anyone's and may be cached, shared and rendered.
 */
export function carriesCredentials(credentials: Credentials | undefined, url: string | URL): boolean {
  return credentialHeadersFor(credentials, url) !== undefined;
}

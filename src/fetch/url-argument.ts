// The `url` argument every tool and front door takes, checked before any work: length, form and scheme. Whether
// the host may be reached is judged later, at connect time (check-url.ts, guarded-connect.ts).
import { InvalidArgumentError, SecurityError } from '../errors.js';
import { quoteInput } from '../quote.js';

/**
 * The longest `url` argument accepted. Browsers and servers agree on no limit, but URLs past 8 KB fail in practice
 * (the common default limit of a request line: nginx `large_client_header_buffers` 8k, Apache `LimitRequestLine`
 * 8190), and RFC 9110 §4.1 asks for at least 8,000 octets to be supported. A longer one is refused before any work.
 */
export const MAX_URL_LENGTH = 8192;

/** The refusal of a url over MAX_URL_LENGTH: the limit, then the url quoted within bounds with its length. */
export function urlTooLongMessage(url: string, argument = 'url'): string {
  return `${argument} is too long (the limit is ${MAX_URL_LENGTH} characters): '${quoteInput(url)}'.`;
}

/** Validates a `url` argument: at most MAX_URL_LENGTH characters, absolute, parseable, http or https. */
export function parseUrlArgument(url: unknown, argument = 'url'): URL {
  if (typeof url !== 'string' || url.trim() === '') {
    throw new InvalidArgumentError(argument, `${argument} is required and must be a non-empty string.`);
  }
  if (url.length > MAX_URL_LENGTH) throw new InvalidArgumentError(argument, urlTooLongMessage(url, argument));
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new InvalidArgumentError(argument, `${argument} must be an absolute http(s) URL, got '${quoteInput(url)}'.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SecurityError(
      'UNSUPPORTED_PROTOCOL',
      url,
      `Only http and https URLs can be fetched, got '${quoteInput(parsed.protocol)}' in ${argument}.`,
    );
  }
  return parsed;
}

// The arguments of every tool that reads a page about how it is requested (issue 14): `max_age`, how old a cached
// snapshot may be, and `headers`, the caller's credentials for the page's origin: bound here, once, to the origin
// of the URL asked for (src/fetch/credentials.ts), and sent by src/fetch/guarded-fetch.ts to that origin only (the
// cache rules for both are in src/engine/load-page.ts).
import { z } from 'zod';
import type { LoadOptions } from '../engine/load-page.js';
import { bindCredentials } from '../fetch/credentials.js';

const MAX_HEADERS = 30;
const MAX_VALUE_LENGTH = 8192;
// RFC 9110 §5.1: a field name is a token.
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
// The request's framing and routing are ours: Host and Content-Length (RFC 9110 §7.2, §8.6), the hop-by-hop fields
// (RFC 9110 §7.6.1), and Accept-Encoding, because the fetcher decodes only the codings it asks for.
const REFUSED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'accept-encoding',
]);

// RFC 9110 §5.5: a field value is visible ASCII, spaces, tabs and obs-text (bytes 0x80–0xFF). Every other character
// — any C0 control, DEL, and anything past Latin-1, which has no single byte — is refused here, naming the header,
// rather than failing later inside the HTTP client as a connection error.
const NOT_FIELD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The refusal of a header value, naming the header and the character's code point, never the value. */
function badValueMessage(name: string, char: string): string {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const what = char < ' ' || char === '\x7f' ? 'a control character' : 'a character HTTP headers cannot carry';
  return (
    `headers: the value of "${name}" contains ${what} (${code}); a header value is one line of printable ` +
    'ASCII or Latin-1 characters'
  );
}

export const maxAgeArgument = z
  .number({ error: 'max_age must be a number of seconds ≥ 0' })
  .int({ error: 'max_age must be a whole number of seconds ≥ 0' })
  .min(0, { error: 'max_age must be a number of seconds ≥ 0' })
  .max(31_536_000, { error: 'max_age must be at most a year (31536000 seconds)' })
  .optional()
  .describe(
    'Use a cached copy only if it is at most this many seconds old; 0 fetches now (default: CACHE_TTL). The result says from_cache and age_seconds',
  );

// Messages name the header, never its value: a value is a credential.
export const headersArgument = z
  .record(z.string(), z.string({ error: 'headers values must be strings' }), {
    error: 'headers must be an object of header name → value',
  })
  .superRefine((headers, context) => {
    const names = Object.keys(headers);
    if (names.length > MAX_HEADERS) {
      context.addIssue({ code: 'custom', message: `headers may have at most ${MAX_HEADERS} entries` });
    }
    for (const name of names.slice(0, MAX_HEADERS + 1)) {
      const shown = name.slice(0, 100);
      if (!FIELD_NAME.test(name)) {
        context.addIssue({ code: 'custom', message: `headers: "${shown}" is not a valid header name` });
      } else if (REFUSED.has(name.toLowerCase())) {
        context.addIssue({
          code: 'custom',
          message: `headers: "${shown}" cannot be set (web-reader sets Host, Content-Length, Accept-Encoding and the connection's own headers)`,
        });
      } else if (headers[name]!.length > MAX_VALUE_LENGTH) {
        context.addIssue({
          code: 'custom',
          message: `headers: the value of "${shown}" must be at most ${MAX_VALUE_LENGTH} characters`,
        });
      } else {
        const bad = NOT_FIELD_VALUE.exec(headers[name]!)?.[0];
        if (bad !== undefined) context.addIssue({ code: 'custom', message: badValueMessage(shown, bad) });
      }
    }
  })
  .transform((headers) =>
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
  )
  .optional()
  .describe(
    'Request headers for the page\'s own origin, e.g. {"cookie": "session=…"} or {"authorization": "Bearer …"}: sent to that origin only — never to another origin, whether a redirect, a Markdown version, a crawled link or robots.txt leads there — never cached, never logged',
  );

/** `max_age` and `headers`, spread into the input schema of each tool that reads a page. */
export const requestShape = { max_age: maxAgeArgument, headers: headersArgument };

/**
 * The request arguments as the engine's load options: `headers` bound to the origin of `url` — the URL the tool was
 * asked for (a crawl's start URL; on continue_from the crawl's own) — and to no other, whatever the read leads to.
 */
export function requestOptions(
  args: { url?: string; max_age?: number; headers?: Record<string, string> },
  url: string | undefined = args.url,
): Pick<LoadOptions, 'maxAgeSeconds' | 'credentials'> {
  const credentials = url === undefined ? undefined : bindCredentials(url, args.headers);
  return {
    ...(args.max_age !== undefined && { maxAgeSeconds: args.max_age }),
    ...(credentials && { credentials }),
  };
}

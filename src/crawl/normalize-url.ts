// URL normalisation for the crawler (SPEC "Crawl budgets that hold exactly": never visit a normalised URL twice).
// Two spellings of one page get one key: the fragment is dropped, the scheme's default port too (WHATWG URL does
// that and lower-cases scheme and host), `…/index.html` becomes `…/`, tracking parameters are removed, the
// remaining query parameters are sorted by name, and percent-escapes of unreserved characters are decoded
// (RFC 3986 §6.2.2.2). The normalised URL is also the URL fetched: it names the same resource.
// Not handled: case-insensitive paths, `www.` aliases and trailing-slash variants (`/a` vs `/a/`), which are
// different resources on many servers; rel=canonical catches those after the first fetch.

// Query parameters that only tell the linking site's analytics where a click came from (Google, Meta, Microsoft,
// Mailchimp, HubSpot, Marketo, Yandex, Instagram, …). `utm_*` and `hsa_*` are prefixes.
const TRACKING_PARAMETERS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'igshid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'vero_conv',
  'spm',
]);
const TRACKING_PREFIXES = ['utm_', 'hsa_', 'pk_'];

/** Whether a query parameter only tracks the click (utm_source, gclid, fbclid, …). */
export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMETERS.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

const INDEX_FILE = /\/index\.html?$/i;
// %XX escapes of ALPHA / DIGIT / "-" / "." / "_" / "~": equivalent to the character itself (RFC 3986 §2.3).
const UNRESERVED_ESCAPE = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

function decodeUnreserved(part: string): string {
  return part.replace(UNRESERVED_ESCAPE, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
}

/** A normalised URL: the crawler's key and the parts the crawl scope judges. */
export interface NormalizedUrl {
  readonly href: string;
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
}

/**
 * The crawler's key for a URL, or undefined when it is not an http(s) URL. Relative input resolves against
 * `base` when given.
 */
export function normalizeUrl(input: string, base?: string): string | undefined {
  return normalizedUrl(input, base)?.href;
}

/**
 * normalizeUrl with the parts a caller goes on to read (no second parse). The key is written from the parsed parts
 * rather than through URL setters: each setter re-parses the whole URL, and a crawl normalises every link of every
 * page. What WHATWG URL already normalised (scheme and host case, default port, dot segments) stays as it made it.
 */
export function normalizedUrl(input: string, base?: string): NormalizedUrl | undefined {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return undefined; // not a URL any crawler could follow
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Credentials and the fragment are left out; a trailing dot of the host goes.
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  const host = url.port ? `${hostname}:${url.port}` : hostname;
  const path = url.pathname.includes('%') ? decodeUnreserved(url.pathname) : url.pathname;
  const pathname = path.replace(INDEX_FILE, '/');
  const search = url.search ? normalizedQuery(url.searchParams) : '';
  return { href: `${url.protocol}//${host}${pathname}${search}`, hostname, pathname, search };
}

/** The query without tracking parameters, sorted by name; '' when nothing is left. */
function normalizedQuery(params: URLSearchParams): string {
  const kept = [...params].filter(([name]) => !isTrackingParameter(name));
  // A stable sort: repeated names keep their relative order, which some servers give meaning to.
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return kept.length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`;
}

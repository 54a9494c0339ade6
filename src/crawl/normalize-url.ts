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

/**
 * The crawler's key for a URL, or undefined when it is not an http(s) URL. Relative input resolves against
 * `base` when given.
 */
export function normalizeUrl(input: string, base?: string): string | undefined {
  return normalizedUrl(input, base)?.href;
}

/** normalizeUrl as a URL object, for a caller that goes on to read its parts (no second parse). */
export function normalizedUrl(input: string, base?: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return undefined; // not a URL any crawler could follow
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Each URL setter re-parses the whole URL, and a crawl normalises every link of every page: set only what changes.
  // `hash` and `search` read '' for a bare `#` or `?`, which `href` still spells: ask `href`.
  if (url.href.includes('#')) url.hash = '';
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
  }
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  const path = url.pathname.includes('%') ? decodeUnreserved(url.pathname) : url.pathname;
  const normalPath = path.replace(INDEX_FILE, '/');
  if (normalPath !== url.pathname) url.pathname = normalPath;
  if (url.href.includes('?')) {
    const kept = [...url.searchParams].filter(([name]) => !isTrackingParameter(name));
    // A stable sort: repeated names keep their relative order, which some servers give meaning to.
    kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    url.search = kept.length === 0 ? '' : new URLSearchParams(kept).toString();
  }
  return url;
}

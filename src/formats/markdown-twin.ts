// SPEC "Ask for Markdown first": an HTML page that declares `<link rel="alternate" type="text/markdown" href>`
// has a Markdown twin written by its author; the engine fetches that (through the same guard) and uses it
// instead of extracting the HTML. This finds the declaration without parsing the whole document: it must sit
// in <head> (HTML §4.2.4 link is metadata content), so the scan stops at </head> or <body>.
// Not handled: the HTTP `Link:` header form of the same declaration (RFC 8288).

const LINK_TAG = /<link\b[^>]*>/gi;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const HEAD_END = /<\/head\s*>|<body\b/i;
const BASE_HREF = /<base\b[^>]*\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.slice(5).matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!found.has(name)) found.set(name, decodeAttribute(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return found;
}

function decodeAttribute(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

/** The absolute URL of the page's declared text/markdown alternate, or undefined. */
export function findMarkdownTwin(html: string, pageUrl: string): string | undefined {
  const end = html.search(HEAD_END);
  const head = end < 0 ? html.slice(0, 65536) : html.slice(0, end);
  for (const [tag] of head.matchAll(LINK_TAG)) {
    const attrs = attributes(tag);
    const rels = (attrs.get('rel') ?? '').toLowerCase().split(/\s+/);
    const type = (attrs.get('type') ?? '').toLowerCase().split(';')[0]!.trim();
    const href = attrs.get('href');
    if (!rels.includes('alternate') || (type !== 'text/markdown' && type !== 'text/x-markdown') || !href) continue;
    try {
      const base = head.match(BASE_HREF);
      const baseHref = base ? decodeAttribute(base[1] ?? base[2] ?? base[3] ?? '') : '';
      const url = new URL(href, baseHref ? new URL(baseHref, pageUrl) : pageUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      url.hash = '';
      if (url.href === new URL(pageUrl).href.replace(/#.*$/, '')) continue; // points at itself
      return url.href;
    } catch {
      continue; // an unparseable href declares nothing we can fetch
    }
  }
  return undefined;
}

/** Where a page's Markdown twin was found: its own `<link rel="alternate">`, or the site's /llms.txt (llms-txt.ts). */
export type MarkdownSource = 'link-alternate' | 'llms.txt';

/** The line that tells the reader the text came from the twin, not from extraction, and who named the twin. */
export function markdownTwinNotice(twinUrl: string, source: MarkdownSource = 'link-alternate'): string {
  if (source === 'llms.txt') {
    return `(Markdown version of this page, from ${twinUrl}, which the site's /llms.txt lists for it.)`;
  }
  return `(Markdown version of this page, from ${twinUrl}, which the page declares as its text/markdown alternate.)`;
}

// RSS and Atom feeds → entries → a Markdown list a model can read (SPEC "Content": "XML, RSS and Atom: readable
// Markdown listing of entries"). Parsed with htmlparser2's XML mode, the HTML parser we already depend on.
// Formats: RSS 2.0 (rssboard.org/rss-specification), RSS 1.0 / RDF (items beside the channel, dc:date) and Atom
// (RFC 4287). Element names are matched by their local part, so a prefixed Atom (`<a:feed>`) reads the same.
// Not handled: xml:base (links resolve against the feed's own URL), enclosures, and Atom `type="xhtml"` markup
// beyond its text.
import { DomUtils } from 'htmlparser2';
import { parseMarkup } from '../extract/parse.js';
import { resolveLinkTarget } from '../link-target.js';

// domhandler's Element, named through htmlparser2 (domhandler is its dependency, not ours).
type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

export interface FeedEntry {
  readonly title: string;
  /** Absolute when the feed URL was given; '' when the entry has no link. */
  readonly link: string;
  /** ISO 8601 (UTC), or undefined when the entry has no parseable date. */
  readonly date: string | undefined;
  /** Plain text, tags removed, at most SUMMARY_MAX_CHARS. */
  readonly summary: string;
}

export interface Feed {
  readonly title: string;
  readonly entries: readonly FeedEntry[];
}

const SUMMARY_MAX_CHARS = 400;

function localName(element: Element): string {
  return element.name.slice(element.name.indexOf(':') + 1).toLowerCase();
}

function childrenNamed(parent: Element, name: string): Element[] {
  return parent.children.filter((child): child is Element => DomUtils.isTag(child) && localName(child) === name);
}

function attribute(element: Element, name: string): string | undefined {
  return DomUtils.getAttributeValue(element, name);
}

function childText(parent: Element, ...names: string[]): string {
  for (const name of names) {
    const child = childrenNamed(parent, name)[0];
    const text = child ? DomUtils.textContent(child).trim() : '';
    if (text) return text;
  }
  return '';
}

/** Parses a feed; undefined when the document is not RSS or Atom (the caller shows it as XML). */
export function parseFeed(xml: string, baseUrl?: string): Feed | undefined {
  // htmlparser2 is forgiving: a truncated or sloppy feed still yields the entries it has.
  const root = parseMarkup(xml, { xmlMode: true }).children.find(DomUtils.isTag);
  if (!root) return undefined;
  const kind = localName(root);
  if (kind === 'feed') return atomFeed(root, baseUrl);
  if (kind === 'rss' || kind === 'rdf') {
    const channel = childrenNamed(root, 'channel')[0];
    // RSS 2.0 puts items inside the channel, RSS 1.0 (RDF) beside it.
    const items = [...(channel ? childrenNamed(channel, 'item') : []), ...childrenNamed(root, 'item')];
    return {
      title: plainText(channel ? childText(channel, 'title') : ''),
      entries: newestFirst(items.map((item) => rssEntry(item, baseUrl))),
    };
  }
  return undefined;
}

/** The entries of an RSS or Atom feed, newest first; [] for anything else. For `links` / `extract_links`. */
export function feedEntries(xml: string, baseUrl?: string): FeedEntry[] {
  return [...(parseFeed(xml, baseUrl)?.entries ?? [])];
}

function atomFeed(root: Element, baseUrl: string | undefined): Feed {
  const entries = childrenNamed(root, 'entry').map((entry) => ({
    title: plainText(childText(entry, 'title')),
    link: resolve(atomLink(entry), baseUrl),
    date: isoDate(childText(entry, 'published', 'updated')),
    summary: summarize(childText(entry, 'summary', 'content')),
  }));
  return { title: plainText(childText(root, 'title')), entries: newestFirst(entries) };
}

// RFC 4287 §4.2.7.2: a link without rel is rel="alternate", the entry's own page.
function atomLink(entry: Element): string {
  const links = childrenNamed(entry, 'link');
  const alternate = links.find((link) => (attribute(link, 'rel') ?? 'alternate') === 'alternate') ?? links[0];
  return (alternate && attribute(alternate, 'href')?.trim()) ?? '';
}

function rssEntry(item: Element, baseUrl: string | undefined): FeedEntry {
  const guid = childrenNamed(item, 'guid')[0];
  // A guid is the item's URL unless isPermaLink="false" (RSS 2.0 "<guid> sub-element of <item>").
  const permalink = guid && attribute(guid, 'isPermaLink') !== 'false' ? DomUtils.textContent(guid).trim() : '';
  return {
    title: plainText(childText(item, 'title')),
    link: resolve(childText(item, 'link') || permalink, baseUrl),
    date: isoDate(childText(item, 'pubdate', 'date', 'published', 'updated')),
    summary: summarize(childText(item, 'description', 'summary', 'encoded')),
  };
}

/** Newest first; entries without a date keep their feed order, after the dated ones. */
function newestFirst<T extends { date: string | undefined }>(entries: T[]): T[] {
  return entries
    .map((entry, index) => ({ entry, index, time: entry.date ? Date.parse(entry.date) : Number.NaN }))
    .sort((a, b) => {
      if (Number.isNaN(a.time) || Number.isNaN(b.time)) {
        return Number(Number.isNaN(a.time)) - Number(Number.isNaN(b.time)) || a.index - b.index;
      }
      return b.time - a.time || a.index - b.index;
    })
    .map(({ entry }) => entry);
}

// RSS dates are RFC 822 ("Tue, 10 Jun 2003 04:00:00 GMT"), Atom's RFC 3339; Date.parse reads both.
function isoDate(text: string): string | undefined {
  if (text === '') return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().replace('.000Z', 'Z');
}

// Only http, https and mailto targets become links (src/link-target.ts): a feed's `javascript:` or `data:` link,
// or a relative one with no base to resolve against, leaves the entry with its title and no link.
function resolve(link: string, baseUrl: string | undefined): string {
  return link === '' ? '' : (resolveLinkTarget(link, baseUrl) ?? '');
}

// Titles and summaries are often escaped HTML (RSS description, Atom type="html"): keep the words only.
function plainText(text: string): string {
  return decodeEntities(text.replace(/<!\[CDATA\[|\]\]>/g, '').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return ENTITIES[name.toLowerCase()] ?? match;
  });
}

function summarize(text: string): string {
  const plain = plainText(text);
  if (plain.length <= SUMMARY_MAX_CHARS) return plain;
  const cut = plain.slice(0, SUMMARY_MAX_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

// Brackets are escaped in every feed text, not only in link titles: a summary reading `[win](javascript:…)` must
// stay words, not become a link in a client that renders the Markdown.
function markdownLinkText(text: string): string {
  return text.replace(/([\\[\]])/g, '\\$1');
}

/** `# Feed title`, then one list item per entry: linked title, date, and the summary indented beneath. */
export function renderFeed(feed: Feed): string {
  const lines = [`# ${markdownLinkText(feed.title) || 'Feed'}`, ''];
  if (feed.entries.length === 0) lines.push('_(no entries)_');
  for (const entry of feed.entries) {
    const title = markdownLinkText(entry.title || entry.link || 'Untitled');
    const heading = entry.link ? `[${title}](${entry.link.replace(/\(/g, '%28').replace(/\)/g, '%29')})` : title;
    const date = entry.date ? ` — ${entry.date.replace('T', ' ').replace(/:\d\dZ$/, ' UTC')}` : '';
    lines.push(`- ${heading}${date}`);
    if (entry.summary) lines.push(`  ${markdownLinkText(entry.summary)}`);
  }
  return lines.join('\n');
}

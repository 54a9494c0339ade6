// sitemap.xml → the URLs it lists (sitemaps.org protocol 0.9): a `<urlset>` of `<url><loc>`, or a
// `<sitemapindex>` of `<sitemap><loc>` naming further sitemaps. The crawler fetches, this reads; gzipped files
// (`.xml.gz` served as bytes, without Content-Encoding, which the fetcher already undoes) are unpacked here.
// Not handled: text-file sitemaps (one URL a line).
//
// The file is the site's, up to MAX_RESPONSE_SIZE, so it is read in one forward pass: each `<` is looked at once,
// every search (indexOf) starts where the last one ended, and nothing is searched for twice. An element left open
// ends where the next one of its kind opens, or at the end of the file: 8 MB of unclosed `<url>` tags used to be
// rescanned to the end at each tag by a regular expression (48 s on the main thread, issue 23). Pure; the worker
// pool runs it (src/workers/read-body.ts readSitemapBody).
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { tooLarge } from '../fetch/read-body.js';

export interface ParsedSitemap {
  /** Page URLs of a `<urlset>`, in document order. */
  readonly urls: string[];
  /** Child sitemaps of a `<sitemapindex>`. */
  readonly sitemaps: string[];
  /** Titles a sitemap gives some URLs (Google News `<news:title>`), by URL as listed; absent when none. */
  readonly titles?: ReadonlyMap<string, string>;
}

/** URLs one sitemap file may list (sitemaps.org: "no more than 50,000 URLs"); more are not read. */
export const MAX_URLS_PER_SITEMAP = 50_000;

const GZIP_MAGIC = [0x1f, 0x8b];

/** Whether the bytes are a gzip stream (RFC 1952 §2.3.1: ID1 ID2), whatever the URL or Content-Type says. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

const gunzipAsync = promisify(gunzip);

/**
 * A gzipped sitemap's bytes unpacked, at most `maxBytes` (MAX_RESPONSE_SIZE, which counts decoded bytes: a small
 * .gz must not unpack into gigabytes). Past it, RESPONSE_TOO_LARGE naming the sitemap; a corrupt stream throws
 * zlib's error. The protocol requires UTF-8: decode the result as such.
 */
export async function gunzipSitemap(bytes: Uint8Array, maxBytes: number, url: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await gunzipAsync(bytes, { maxOutputLength: maxBytes }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
    throw tooLarge(url, maxBytes, ' once unpacked (a gzipped sitemap)');
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntity(_all: string, name: string): string {
  if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? '';
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** An element's text: CDATA sections unwrapped, the XML entities decoded, trimmed. */
function decodeXmlText(text: string): string {
  let plain = '';
  for (let at = 0; at < text.length;) {
    const open = text.indexOf('<![CDATA[', at);
    if (open < 0) {
      plain += text.slice(at);
      break;
    }
    const close = text.indexOf(']]>', open + 9);
    plain += text.slice(at, open) + text.slice(open + 9, close < 0 ? text.length : close);
    at = close < 0 ? text.length : close + 3;
  }
  // Each alternative is a fixed word or one run of digits: no backtracking.
  return plain.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);/gi, decodeEntity).trim();
}

const isHttpUrl = (text: string) => /^https?:\/\//i.test(text);

/** Characters the scanner examined (a test of its linearity counts them). */
export interface ScanWork {
  chars: number;
}

// Whitespace, `/` and `>` end a tag's name.
const endsName = (code: number) => code === 0x3e || code === 0x20 || code === 0x2f || (code >= 0x09 && code <= 0x0d);
// The lengths of the local names read: url, loc, title, urlset, sitemapindex.
const NAME_LENGTHS = new Set([3, 5, 6, 12]);

interface Tag {
  /** Lower-case local name, without its prefix. */
  readonly name: string;
  /** Lower-case prefix (`image` of `<image:loc>`), '' without one. */
  readonly prefix: string;
  readonly closing: boolean;
  /** `<x/>`: opened and closed at once. */
  readonly empty: boolean;
  /** Where the tag starts (its `<`) and where its content starts (after its `>`). */
  readonly start: number;
  readonly end: number;
}

/**
 * The tags of `xml` in document order, each `<` looked at once: comments, processing instructions, declarations
 * and CDATA sections are stepped over whole (CDATA is text, left in the content around it).
 */
function* tags(xml: string, work: ScanWork): Generator<Tag> {
  let gt = -1; // the next `>` at or after `at`, found once and reused until passed (-1: not searched yet)
  const find = (needle: string, from: number): number => {
    if (from >= xml.length) return xml.length;
    const found = xml.indexOf(needle, from);
    work.chars += (found < 0 ? xml.length : found + needle.length) - from;
    return found < 0 ? xml.length : found;
  };
  for (let at = find('<', 0); at < xml.length; at = find('<', at)) {
    if (xml.startsWith('<![CDATA[', at)) at = find(']]>', at + 9) + 3;
    else if (xml.startsWith('<!--', at)) at = find('-->', at + 4) + 3;
    else {
      if (gt < at) gt = find('>', at);
      const tagEnd = Math.min(gt + 1, xml.length);
      const kind = xml[at + 1];
      if (kind !== '?' && kind !== '!') {
        const closing = kind === '/';
        const nameStart = at + (closing ? 2 : 1);
        let nameEnd = nameStart;
        let localStart = nameStart; // after the prefix's colon
        for (let code; nameEnd < gt && !endsName((code = xml.charCodeAt(nameEnd))); nameEnd++) {
          if (code === 0x3a) localStart = nameEnd + 1;
        }
        work.chars += nameEnd - at;
        // Only the names this reader looks for are read (most tags are lastmod, priority, image:image and such).
        if (NAME_LENGTHS.has(nameEnd - localStart)) {
          yield {
            name: xml.slice(localStart, nameEnd).toLowerCase(),
            prefix: localStart > nameStart ? xml.slice(nameStart, localStart - 1).toLowerCase() : '',
            closing,
            empty: xml[gt - 1] === '/',
            start: at,
            end: tagEnd,
          };
        }
      }
      at = tagEnd;
    }
  }
}

/**
 * Reads `<loc>` entries, at most `maxUrls`; anything that is not a sitemap gives two empty lists. In a urlset, each
 * `<url>`'s first page `<loc>` (not an `<image:loc>` or `<video:loc>` inside it) and its Google News title; in an
 * index, every `<loc>`. A `<url>` left open ends at the next `<url>`; a `<loc>` left open gives nothing.
 */
export function parseSitemap(
  xml: string,
  maxUrls = MAX_URLS_PER_SITEMAP,
  work: ScanWork = { chars: 0 },
): ParsedSitemap {
  let isIndex = false;
  let isUrlSet = false;
  const locs: string[] = []; // every <loc>, for an index
  const urls: string[] = [];
  const titles = new Map<string, string>();
  // The <url> being read: its first page loc ('' when that one is not an http URL: the entry gives nothing).
  let entry: { loc?: string; title?: string } | undefined;
  // The element whose text is being read: from where, and the tag that ends it.
  let text: { readonly of: 'loc' | 'page-loc' | 'news-title'; readonly from: number } | undefined;
  const endEntry = () => {
    if (entry?.loc && urls.length < maxUrls) {
      urls.push(entry.loc);
      if (entry.title !== undefined) titles.set(entry.loc, entry.title);
    }
    entry = undefined;
  };
  for (const tag of tags(xml, work)) {
    if (locs.length >= maxUrls && urls.length >= maxUrls) break;
    const { name, prefix } = tag;
    if (!tag.closing && name === 'sitemapindex') isIndex = true;
    else if (!tag.closing && name === 'urlset') isUrlSet = true;
    else if (name === 'url') {
      endEntry(); // a </url> closes its entry, and a <url> ends one left open
      if (!tag.closing && !tag.empty) entry = {};
      text = undefined;
    } else if (name === 'loc' && !tag.closing) {
      const page = prefix !== 'image' && prefix !== 'video';
      text = tag.empty ? undefined : { of: page ? 'page-loc' : 'loc', from: tag.end };
    } else if (name === 'title' && prefix === 'news' && !tag.closing && entry) {
      text = tag.empty ? undefined : { of: 'news-title', from: tag.end };
    } else if (tag.closing && text && name === (text.of === 'news-title' ? 'title' : 'loc')) {
      if (text.of !== 'news-title' || prefix === 'news') {
        work.chars += tag.start - text.from;
        const value = decodeXmlText(xml.slice(text.from, tag.start));
        if (text.of === 'news-title') {
          if (entry && entry.title === undefined) entry.title = value;
        } else {
          const url = isHttpUrl(value) ? value : '';
          if (url && locs.length < maxUrls) locs.push(url);
          if (text.of === 'page-loc' && entry && entry.loc === undefined) entry.loc = url;
        }
        text = undefined;
      }
    }
  }
  endEntry();
  if (isIndex) return { urls: [], sitemaps: locs };
  if (!isUrlSet) return { urls: [], sitemaps: [] };
  return titles.size > 0 ? { urls, sitemaps: [], titles } : { urls, sitemaps: [] };
}

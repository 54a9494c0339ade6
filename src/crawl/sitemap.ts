// sitemap.xml → the URLs it lists (sitemaps.org protocol 0.9): a `<urlset>` of `<url><loc>`, or a
// `<sitemapindex>` of `<sitemap><loc>` naming further sitemaps. The crawler fetches, this reads; gzipped files
// (`.xml.gz` served as bytes, without Content-Encoding, which the fetcher already undoes) are unpacked here.
// Not handled: text-file sitemaps (one URL a line).
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

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
 * A sitemap's bytes as text: gunzipped when they are gzip, at most `maxBytes` unpacked (MAX_RESPONSE_SIZE, which
 * counts decoded bytes: a small .gz must not unpack into gigabytes), then UTF-8, the encoding the protocol requires.
 * Throws when the unpacked file passes `maxBytes` or the stream is corrupt.
 */
export async function gunzipSitemap(bytes: Uint8Array, maxBytes: number): Promise<string> {
  const unpacked = await gunzipAsync(bytes, { maxOutputLength: maxBytes });
  return new TextDecoder().decode(unpacked);
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);/gi, (_all, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? '';
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return String.fromCodePoint(code);
    })
    .trim();
}

// A urlset's `<url>` entry (not `<urlset>`), its page `<loc>` (not an `<image:loc>` or `<video:loc>` inside it) and a
// Google News title.
const URL_ENTRY = /<(?:[\w-]+:)?url[\s>]([\s\S]*?)<\/(?:[\w-]+:)?url>/gi;
const PAGE_LOC = /<(?:(?!image:|video:)[\w-]+:)?loc>([\s\S]*?)<\/(?:[\w-]+:)?loc>/i;
const NEWS_TITLE = /<news:title>([\s\S]*?)<\/news:title>/i;

/** Reads `<loc>` entries, at most `maxUrls`; anything that is not a sitemap gives two empty lists. */
export function parseSitemap(xml: string, maxUrls = MAX_URLS_PER_SITEMAP): ParsedSitemap {
  const isIndex = /<(?:[\w-]+:)?sitemapindex[\s>]/i.test(xml);
  const isUrlSet = /<(?:[\w-]+:)?urlset[\s>]/i.test(xml);
  if (!isIndex && !isUrlSet) return { urls: [], sitemaps: [] };
  const locs: string[] = [];
  if (isIndex) {
    for (const match of xml.matchAll(/<(?:[\w-]+:)?loc>([\s\S]*?)<\/(?:[\w-]+:)?loc>/gi)) {
      if (locs.length >= maxUrls) break;
      const loc = decodeXmlText(match[1]!);
      if (/^https?:\/\//i.test(loc)) locs.push(loc);
    }
    return { urls: [], sitemaps: locs };
  }
  const titles = new Map<string, string>();
  for (const [, entry] of xml.matchAll(URL_ENTRY)) {
    if (locs.length >= maxUrls) break;
    const found = PAGE_LOC.exec(entry!);
    const loc = found && decodeXmlText(found[1]!);
    if (!loc || !/^https?:\/\//i.test(loc)) continue;
    locs.push(loc);
    const title = NEWS_TITLE.exec(entry!);
    if (title) titles.set(loc, decodeXmlText(title[1]!));
  }
  return titles.size > 0 ? { urls: locs, sitemaps: [], titles } : { urls: locs, sitemaps: [] };
}

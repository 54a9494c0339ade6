// sitemap.xml → the URLs it lists (sitemaps.org protocol 0.9): a `<urlset>` of `<url><loc>`, or a
// `<sitemapindex>` of `<sitemap><loc>` naming further sitemaps. Pure: the crawler fetches, this reads.
// Not handled: gzipped sitemap files (`.xml.gz` served without Content-Encoding) and text-file sitemaps.

export interface ParsedSitemap {
  /** Page URLs of a `<urlset>`, in document order. */
  readonly urls: string[];
  /** Child sitemaps of a `<sitemapindex>`. */
  readonly sitemaps: string[];
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

/** Reads `<loc>` entries; anything that is not a sitemap gives two empty lists. */
export function parseSitemap(xml: string): ParsedSitemap {
  const isIndex = /<(?:[\w-]+:)?sitemapindex[\s>]/i.test(xml);
  const isUrlSet = /<(?:[\w-]+:)?urlset[\s>]/i.test(xml);
  if (!isIndex && !isUrlSet) return { urls: [], sitemaps: [] };
  const locs: string[] = [];
  for (const match of xml.matchAll(/<(?:[\w-]+:)?loc>([\s\S]*?)<\/(?:[\w-]+:)?loc>/gi)) {
    const loc = decodeXmlText(match[1]!);
    if (/^https?:\/\//i.test(loc)) locs.push(loc);
  }
  return isIndex ? { urls: [], sitemaps: locs } : { urls: locs, sitemaps: [] };
}

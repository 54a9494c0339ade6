import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { gunzipSitemap, isGzip, parseSitemap } from './sitemap.js';

describe('parseSitemap', () => {
  it('lists the page URLs of a urlset, entities decoded', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/</loc><lastmod>2025-01-01</lastmod></url>
  <url><loc> https://example.com/a?x=1&amp;y=2 </loc></url>
  <url><loc><![CDATA[https://example.com/b]]></loc></url>
  <url><loc>ftp://example.com/c</loc></url>
</urlset>`;
    expect(parseSitemap(xml)).toEqual({
      urls: ['https://example.com/', 'https://example.com/a?x=1&y=2', 'https://example.com/b'],
      sitemaps: [],
    });
  });

  it('lists the child sitemaps of a sitemap index', () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/s1.xml</loc></sitemap><sitemap><loc>https://example.com/s2.xml</loc></sitemap>
</sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({
      urls: [],
      sitemaps: ['https://example.com/s1.xml', 'https://example.com/s2.xml'],
    });
  });

  it('reads prefixed elements', () => {
    const xml =
      '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://e.com/x</sm:loc></sm:url></sm:urlset>';
    expect(parseSitemap(xml).urls).toEqual(['https://e.com/x']);
  });

  it('gives nothing for a page that is not a sitemap', () => {
    expect(parseSitemap('<html><body><loc>https://e.com/x</loc></body></html>')).toEqual({ urls: [], sitemaps: [] });
  });
});

describe('parseSitemap: entries', () => {
  it("takes each <url>'s page loc (not its image:loc) and a news:title", () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://e.com/a</loc><image:image><image:loc>https://e.com/a.png</image:loc></image:image></url>
<url><loc>https://e.com/b</loc><news:news><news:title>B &amp; C</news:title></news:news></url>
</urlset>`;
    const parsed = parseSitemap(xml);
    expect(parsed.urls).toEqual(['https://e.com/a', 'https://e.com/b']);
    expect(parsed.titles).toEqual(new Map([['https://e.com/b', 'B & C']]));
  });

  it('reads at most maxUrls entries', () => {
    const xml = `<urlset>${'<url><loc>https://e.com/x</loc></url>'.repeat(10)}</urlset>`;
    expect(parseSitemap(xml, 3).urls).toHaveLength(3);
  });
});

describe('gunzipSitemap', () => {
  it('unpacks gzip bytes, and refuses to unpack past the byte limit', async () => {
    const xml = `<urlset><url><loc>https://e.com/z</loc></url></urlset>`;
    const bytes = new Uint8Array(gzipSync(xml));
    expect(isGzip(bytes)).toBe(true);
    expect(isGzip(new TextEncoder().encode(xml))).toBe(false);
    expect(parseSitemap(await gunzipSitemap(bytes, 1000)).urls).toEqual(['https://e.com/z']);
    await expect(gunzipSitemap(new Uint8Array(gzipSync('x'.repeat(100_000))), 1000)).rejects.toThrow();
  });
});

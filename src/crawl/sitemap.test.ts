import { describe, expect, it } from 'vitest';
import { parseSitemap } from './sitemap.js';

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

import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { FetchError } from '../errors.js';
import { gunzipSitemap, isGzip, parseSitemap, type ScanWork } from './sitemap.js';

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

describe('parseSitemap: hostile files, one forward pass', () => {
  const UNCLOSED = (i: number) => `<url><loc>https://e.com/p/${i}</loc><lastmod>2025-01-01</lastmod>\n`;

  it('reads 20,000 unclosed <url> entries, each ending where the next one opens', () => {
    const xml = `<urlset>${Array.from({ length: 20_000 }, (_, i) => UNCLOSED(i)).join('')}`;
    const parsed = parseSitemap(xml);
    expect(parsed.urls).toHaveLength(20_000);
    expect(parsed.urls[0]).toBe('https://e.com/p/0');
    expect(parsed.urls[19_999]).toBe('https://e.com/p/19999');
  });

  // Work is counted in characters examined, not timed: the old regular expressions rescanned to the end of the
  // file at every unclosed tag (quadratic); each of these files is examined about once.
  it.each([
    ['unclosed <url> tags', (n: number) => `<urlset>${'<url><loc>https://e.com/x</loc>'.repeat(n)}`],
    ['unclosed <loc> tags', (n: number) => `<urlset><url>${'<loc>https://e.com/x '.repeat(n)}`],
    ['unclosed tags without >', (n: number) => `<urlset>${'<url <loc '.repeat(n)}`],
    ['unclosed CDATA and comments', (n: number) => `<urlset><url><loc>${'<![CDATA[x <!-- y '.repeat(n)}`],
    ['an index of unclosed <loc>', (n: number) => `<sitemapindex>${'<sitemap><loc>https://e.com/s.xml'.repeat(n)}`],
  ])('examines each character of %s a bounded number of times', (_name, make) => {
    for (const n of [10_000, 40_000]) {
      const xml = make(n);
      const work: ScanWork = { chars: 0 };
      parseSitemap(xml, undefined, work);
      expect(work.chars).toBeGreaterThanOrEqual(xml.length / 2);
      expect(work.chars).toBeLessThanOrEqual(3 * xml.length);
    }
  });

  it('gives nothing for an entity past the last code point, and reads the rest', () => {
    const xml = '<urlset><url><loc>https://e.com/a&#99999999;b</loc></url></urlset>';
    expect(parseSitemap(xml).urls).toEqual(['https://e.com/ab']);
  });
});

describe('gunzipSitemap', () => {
  it('unpacks gzip bytes, and refuses to unpack past the byte limit naming the sitemap and MAX_RESPONSE_SIZE', async () => {
    const xml = `<urlset><url><loc>https://e.com/z</loc></url></urlset>`;
    const bytes = new Uint8Array(gzipSync(xml));
    expect(isGzip(bytes)).toBe(true);
    expect(isGzip(new TextEncoder().encode(xml))).toBe(false);
    const unpacked = await gunzipSitemap(bytes, 1000, 'https://e.com/sitemap.xml.gz');
    expect(parseSitemap(new TextDecoder().decode(unpacked)).urls).toEqual(['https://e.com/z']);
    const bomb = gunzipSitemap(new Uint8Array(gzipSync('x'.repeat(100_000))), 1000, 'https://e.com/s.xml.gz');
    await expect(bomb).rejects.toThrow(FetchError);
    await expect(bomb).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      message: expect.stringMatching(
        /^Response from https:\/\/e\.com\/s\.xml\.gz exceeds MAX_RESPONSE_SIZE \(1000 bytes\)/,
      ),
    });
  });
});

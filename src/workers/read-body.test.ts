import { describe, expect, it } from 'vitest';
import { makePdf } from '../../test/fixtures/content/make-pdf.mjs';
import { readHtmlBody, readHtmlWork, readPdfBody, readTextBody, readTwinBody } from './read-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const base = { contentType: 'text/plain; charset=utf-8', mediaType: 'text/plain', finalUrl: 'https://site.test/a' };

describe('readTextBody', () => {
  it('renders a feed as Markdown with its title, both clean, and keeps the decoded XML clean as raw', () => {
    const xml =
      '<?xml version="1.0"?><rss version="2.0"><channel><title>News\u200b</title>' +
      '<item><title>First\u202e post</title><link>https://site.test/1</link></item></channel></rss>';
    const body = readTextBody({ ...base, bytes: bytes(xml), kind: 'feed', mediaType: 'application/rss+xml' });
    expect(body.title).toBe('News');
    expect(body.content).toContain('First post');
    expect(body.content).not.toContain('<item>');
    expect(body.raw).toBe(xml.replace(/[\u200b\u202e]/g, ''));
    expect(body.empty).toBe(false);
  });

  it('pretty-prints JSON, and leaves content out when it is the raw text itself', () => {
    const json = readTextBody({ ...base, bytes: bytes('{"a":[1,2]}'), kind: 'json', mediaType: 'application/json' });
    expect(json.content).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    const text = readTextBody({ ...base, bytes: bytes('Plain\u0007 words.'), kind: 'text' });
    expect(text).toEqual({ raw: 'Plain words.', empty: false });
  });

  it('disarms links of authored Markdown but keeps the raw text as sent (clean)', () => {
    const markdown = '[click](javascript:alert(1)) and [ok](https://site.test/)';
    const body = readTextBody({ ...base, bytes: bytes(markdown), kind: 'markdown', mediaType: 'text/markdown' });
    expect(body.raw).toBe(markdown);
    expect(body.content).toBeDefined();
    expect(body.content).not.toContain('](javascript:');
    expect(body.content).toContain('[ok](https://site.test/)');
  });

  it('decodes by the charset of the Content-Type header and says when the body is blank', () => {
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9]);
    const body = readTextBody({ ...base, bytes: latin1, contentType: 'text/plain; charset=iso-8859-1', kind: 'text' });
    expect(body.raw).toBe('café');
    expect(readTextBody({ ...base, bytes: bytes(' \n '), kind: 'text' }).empty).toBe(true);
  });
});

describe('readHtmlBody', () => {
  it('returns the HTML clean, its title and its Markdown twin', () => {
    const html =
      '<html><head><title>A &amp; B\u200b</title><link rel="alternate" type="text/markdown" href="/a.md"></head>' +
      '<body><p>Hi\u200b</p></body></html>';
    const body = readHtmlBody({ bytes: bytes(html), contentType: 'text/html', finalUrl: 'https://site.test/a' });
    expect(body.raw).toBe(html.replace(/\u200b/g, ''));
    expect(body.title).toBe('A & B');
    expect(body.twinUrl).toBe('https://site.test/a.md');
  });

  it('leaves out a title and a twin the page does not have', () => {
    const html = '<html><body><p>Hi</p></body></html>';
    expect(readHtmlBody({ bytes: bytes(html), contentType: 'text/html', finalUrl: 'https://site.test/' })).toEqual({
      raw: html,
      rawLength: html.length,
    });
  });
});

describe('readTwinBody', () => {
  it('puts the notice above the trimmed Markdown, clean and disarmed; an empty twin is undefined', () => {
    const content = readTwinBody({
      bytes: bytes('\n# Doc\u200b\n\n[x](javascript:void(0))\n'),
      contentType: 'text/markdown',
      twinUrl: 'https://site.test/a.md',
    });
    expect(content).toContain('https://site.test/a.md');
    expect(content).toMatch(/\n\n# Doc\n\n/);
    expect(content).not.toContain('](javascript:');
    expect(readTwinBody({ bytes: bytes(' \n'), contentType: 'text/markdown', twinUrl: 'https://site.test/a.md' })).toBe(
      undefined,
    );
  });
});

const articleOf = (html: string) =>
  readHtmlWork({ bytes: bytes(html), contentType: 'text/html', baseUrl: 'https://site.test/', article: {} }).article!;

describe('readHtmlWork', () => {
  const words = 'The article has enough ordinary words in it to count as something a reader wants. '.repeat(5);

  it('returns the main content under its title heading, clean', () => {
    const html = `<html><head><title>Title\u200b</title></head><body><article><p>${words}\u202e</p></article></body></html>`;
    const article = articleOf(html);
    expect(article.title).toBe('Title');
    expect(article.content).toMatch(/^# Title\n\nThe article has enough/);
    expect(article.content).not.toMatch(/[\u200b\u202e]/);
    expect(article.emptyOutcome).toBeUndefined();
  });

  it('says needs_js for an app shell, with no content', () => {
    const html = '<html><head><title>App</title></head><body><div id="root"></div><script>1</script></body></html>';
    const article = articleOf(html);
    expect(article.emptyOutcome).toBe('needs_js');
    expect(article.content).toBeUndefined();
  });

  it('a page of links only is ok to its links, from the visible text of the whole page, in one call', () => {
    const menu = Array.from({ length: 12 }, (_, i) => `<li><a href="/p${i}">Section ${i}</a></li>`).join('');
    const html = `<html><body><nav><ul>${menu}</ul></nav></body></html>`;
    const input = { bytes: bytes(html), contentType: 'text/html', baseUrl: 'https://site.test/' };
    const links = readHtmlWork({ ...input, linkList: true });
    expect(links.emptyOutcome).toBeUndefined();
    expect(links.linkList?.links).toHaveLength(12);
    const scraped = readHtmlWork({ ...input, scrape: {} });
    expect(scraped.emptyOutcome).toBeUndefined();
  });

  it('sends the HTML back only to a caller that reads it, and its length always', () => {
    const html = `<html><body><p>${words}\u200b</p></body></html>`;
    const input = { bytes: bytes(html), contentType: 'text/html', baseUrl: 'https://site.test/' };
    const links = readHtmlWork({ ...input, linkList: true, withoutRaw: true });
    expect(links).toMatchObject({ raw: '', rawLength: html.length });
    expect(links.linkList?.links).toEqual([]);
    expect(readHtmlWork({ ...input, scrape: {} })).toMatchObject({
      raw: html.replace('\u200b', ''),
      rawLength: html.length,
    });
  });

  it('decides the outcome of a long page and of a nearly empty one the same with the bounded count', () => {
    const input = { contentType: 'text/html', baseUrl: 'https://site.test/', linkList: true, withoutRaw: true };
    const scripts = '<script>1</script>'.repeat(3);
    const short = `<html><body><p>Hi</p>${scripts}</body></html>`;
    expect(readHtmlWork({ ...input, bytes: bytes(short) }).emptyOutcome).toBe('needs_js');
    // Words spread over many text nodes, past every threshold the outcome rules compare: read, not a script shell.
    const spread = Array.from({ length: 400 }, (_, i) => `<span>w${i} </span>`).join('');
    const long = `<html><body>${spread}${'<script>x</script>'.repeat(9)}</body></html>`;
    expect(readHtmlWork({ ...input, bytes: bytes(long) })).toMatchObject({ scriptBuilt: false });
    expect(readHtmlWork({ ...input, bytes: bytes(long) }).emptyOutcome).toBeUndefined();
  });
});

describe('readTextBody with linkList', () => {
  it("lists a feed's entry links with their titles, skipping an entry without a link", () => {
    const xml =
      '<rss version="2.0"><channel><title>News</title><item><title>One</title><link>/1</link></item>' +
      '<item><title>No link</title></item></channel></rss>';
    const feed = readTextBody({
      bytes: bytes(xml),
      contentType: 'application/rss+xml',
      kind: 'feed',
      mediaType: 'application/rss+xml',
      finalUrl: 'https://site.test/feed',
      linkList: true,
    });
    expect(feed.linkList).toEqual({ links: [{ url: 'https://site.test/1', text: 'One' }], hiddenBlocksDropped: 0 });
  });
});

describe('readPdfBody', () => {
  it('renders the pages as Markdown sections with the title and page count, clean', async () => {
    const pdf = await readPdfBody({
      bytes: makePdf({ title: 'Annual\u0007 Report', pages: ['Revenue\u0007 grew', 'Costs'] }),
    });
    expect(pdf).toMatchObject({ title: 'Annual Report', pageCount: 2, outcome: 'ok' });
    expect(pdf.content).toBe('## Page 1\n\nRevenue grew\n\n## Page 2\n\nCosts');
  });
});

// Issue 6 through a real MCP client over stdio: PDF, feeds, JSON, Markdown and text, Markdown twins, XHTML,
// other XML and binary types, each as the `fetch` tool returns it.
import { describe, expect, it } from 'vitest';
import { addContentRoutes, LLMS_TXT, longPdfLine, REPORT_PAGES } from '../fixtures/content/routes.js';
import { TEST_TESSERACT_PATH } from '../ocr-available.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({ tools: 'fetch', setup: addContentRoutes, env: { FETCH_TIMEOUT: '5000' } });

const fetchUrl = (path: string, args: Record<string, unknown> = {}) =>
  session.call('fetch', { url: server.url(path), ...args });

describe('PDF', () => {
  it('returns the text page by page under ## Page N, with title and page count in the metadata', async () => {
    const result = await fetchUrl('/report.pdf');
    expect(result.isError).toBeFalsy();
    expect(result.text).toBe(
      `Contents of ${server.url('/report.pdf')}:\n\n` +
        REPORT_PAGES.map((text, i) => `## Page ${i + 1}\n\n${text}`).join('\n\n'),
    );
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      content_kind: 'pdf',
      content_type: 'application/pdf',
      title: 'Annual Report',
      page_count: 3,
    });
  });

  it.each([
    ['application/octet-stream', '/report-octet'],
    ['text/html', '/report-as-html'],
  ])('reads a PDF served as %s by its magic bytes', async (_type, path) => {
    const result = await fetchUrl(path);
    expect(result.text).toContain('## Page 2\n\nPage two: flows rose by twelve percent.');
    expect(result.text).not.toContain('%PDF');
    expect(result.structuredContent).toMatchObject({ status: 'ok', content_kind: 'pdf', page_count: 3 });
  });

  it('applies max_length and start_index to PDF text exactly as to HTML', async () => {
    const first = await fetchUrl('/long.pdf', { max_length: 500 });
    expect(first.text).toContain('## Page 1\n\n' + longPdfLine(1));
    expect(first.text).toContain('<error>Content truncated. The output has been limited to 500 characters');
    expect(first.structuredContent).toMatchObject({
      status: 'ok',
      truncated: true,
      next_start_index: 500,
      page_count: 40,
    });
    const whole = await fetchUrl('/long.pdf');
    const total = (whole.structuredContent as { total_length: number }).total_length;
    const last = await fetchUrl('/long.pdf', { start_index: total - 100 });
    expect(last.text).toContain(longPdfLine(40));
    expect(last.structuredContent).toMatchObject({ from_cache: true, next_start_index: null });
    expect(server.hits('/long.pdf')).toBe(1);
  });

  it('says an encrypted PDF needs a password instead of returning empty text', async () => {
    const result = await fetchUrl('/encrypted.pdf');
    expect(result.isError).toBeFalsy();
    expect(result.text).toMatch(/^Status: empty — \S+ is an encrypted PDF \([\d.]+ (bytes|KB)\) that needs a password/);
    expect(result.structuredContent).toMatchObject({ status: 'empty', content_kind: 'pdf' });
  });

  it('says an image-only PDF whose pages hold no image OCR can read has no text (needs_ocr without tesseract)', async () => {
    const result = await fetchUrl('/scanned.pdf');
    if (TEST_TESSERACT_PATH) {
      expect(result.text).toMatch(/^Status: empty — \S+ is a PDF of 3 pages .*no text layer, and OCR found no text/);
      expect(result.structuredContent).toMatchObject({ status: 'empty', page_count: 3 });
    } else {
      expect(result.text).toMatch(/^Status: needs_ocr — \S+ holds its text only in pictures/);
      expect(result.structuredContent).toMatchObject({ status: 'needs_ocr', page_count: 3 });
    }
  });
});

describe('PDF that cannot be parsed', () => {
  it('says so with the parser’s words, and the server keeps serving', async () => {
    const result = await fetchUrl('/broken.pdf');
    expect(result.isError).toBeFalsy();
    expect(result.text).toMatch(/^Status: empty — \S+ is a PDF \([\d.]+ bytes\) that could not be parsed: .+/);
    const after = await fetchUrl('/report.pdf?after-broken');
    expect(after.structuredContent).toMatchObject({ status: 'ok', page_count: 3 });
  });
});

describe('feeds', () => {
  it('lists RSS items newest first as Markdown: linked title, date and summary', async () => {
    const result = await fetchUrl('/feed.rss');
    expect(result.text).toContain('# River Notes & News');
    const items = result.text.split('\n').filter((line) => line.startsWith('- ['));
    expect(items).toEqual([
      '- [Summer drought warning](https://rivers.example/posts/drought) — 2026-04-14 10:00 UTC',
      `- [Spring floods arrive](${server.url('/posts/spring-floods')}) — 2026-03-02 09:30 UTC`,
      '- [Winter ice report](https://rivers.example/posts/winter-ice) — 2026-01-10 08:00 UTC',
    ]);
    expect(result.text).toContain('  The delta is under water again & the fishermen wait.');
    expect(result.structuredContent).toMatchObject({ status: 'ok', content_kind: 'feed', title: 'River Notes & News' });
  });

  it('lists Atom entries newest first', async () => {
    const result = await fetchUrl('/atom.xml');
    expect(result.text).toMatch(/- \[Newer entry\]\(https:\/\/delta\.example\/newer\)[^\n]*\n[^]*- \[Older entry\]/);
  });

  it('recognises a feed served as text/plain by its root element', async () => {
    const result = await fetchUrl('/feed-as-text');
    expect(result.text).toContain('- [Summer drought warning]');
    expect(result.structuredContent).toMatchObject({ content_kind: 'feed' });
  });
});

describe('Markdown, text and JSON', () => {
  it('returns llms.txt as is', async () => {
    const result = await fetchUrl('/llms.txt');
    expect(result.text).toBe(`Contents of ${server.url('/llms.txt')}:\n\n${LLMS_TXT}`);
    expect(result.structuredContent).toMatchObject({ status: 'ok', content_kind: 'markdown' });
  });

  it('returns text/markdown as is', async () => {
    const result = await fetchUrl('/notes');
    expect(result.text).toContain('# Notes\n\n*as is*, not re-rendered');
  });

  it('pretty-prints JSON', async () => {
    const result = await fetchUrl('/data');
    expect(result.text).toContain('{\n  "river": "Delta",\n  "flows": [\n    1,');
    expect(result.structuredContent).toMatchObject({ content_kind: 'json', content_type: 'application/json' });
  });
});

describe('Markdown twin', () => {
  it('uses the declared text/markdown alternate, fetched through the same guard, and says so', async () => {
    const result = await fetchUrl('/guide');
    const twin = server.url('/guide.md');
    expect(result.text).toContain(`from ${twin}, which the page declares as its text/markdown alternate`);
    expect(result.text).toContain('# Guide (from the twin)\n\nThis text was written in Markdown by the author.');
    expect(result.text).not.toContain('Guide (HTML)');
    expect(result.structuredContent).toMatchObject({ status: 'ok', markdown_twin: twin, title: 'Guide' });
    expect(server.hits('/guide.md')).toBe(1);
  });

  it('falls back to extracting the HTML when the twin cannot be fetched', async () => {
    const result = await fetchUrl('/guide-broken-twin');
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('Guide (HTML)');
    expect(result.structuredContent).not.toHaveProperty('markdown_twin');
  });
});

describe('XML', () => {
  it('reads XHTML served as application/xml as a web page', async () => {
    const result = await fetchUrl('/xhtml');
    expect(result.text).toContain('An XHTML article');
    expect(result.text).not.toContain('<p>');
    expect(result.structuredContent).toMatchObject({ content_kind: 'html', title: 'XHTML page' });
  });

  it('fences other XML, and truncates it by the usual limits', async () => {
    const result = await fetchUrl('/config.xml');
    expect(result.text).toContain('```xml\n<?xml version="1.0"?>\n<config>');
    const short = await fetchUrl('/config.xml', { max_length: 20 });
    expect(short.structuredContent).toMatchObject({ status: 'ok', truncated: true, next_start_index: 20 });
  });
});

describe('binary', () => {
  it.each([
    ['octet-stream with NUL bytes', '/nul-octet', /^Binary content \(application\/octet-stream, 7 bytes\)/m],
    ['a 1 MB binary', '/big.bin', /^Binary content \(application\/octet-stream, 1\.0 MB\) was not returned/m],
  ])('%s: one line naming type and size, never bytes', async (_name, path, line) => {
    const result = await fetchUrl(path);
    expect(result.isError).toBeFalsy();
    expect(result.text).toMatch(line);
    expect(result.text.split('\n')).toHaveLength(3); // heading, blank line, the status line
    expect(result.structuredContent).toMatchObject({ status: 'not_html', content_kind: 'binary' });
  });

  it('a PNG served as text/html is an image by its bytes: OCR finds nothing in its one pixel (needs_ocr without it)', async () => {
    const result = await fetchUrl('/png-as-html');
    const status = TEST_TESSERACT_PATH ? 'empty' : 'needs_ocr';
    expect(result.text).toMatch(new RegExp(`^Status: ${status} — \\S+ .*\\(HTTP 200, text/html, 70 bytes\\)\\.$`));
    expect(result.structuredContent).toMatchObject({ status, content_kind: 'image' });
  });

  it('never returns the bytes, even with raw: true', async () => {
    const result = await fetchUrl('/png-as-html', { raw: true });
    expect(result.text).not.toContain('PNG');
  });
});

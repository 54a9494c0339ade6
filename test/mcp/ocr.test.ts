// Issue 27 item 2 through a real MCP client over stdio: pictures and scanned PDFs on a loopback server read by OCR
// in every reading tool (fetch, read_url, web, read_many, crawl), with the character error rate on the test set
// (test/fixtures/ocr/) under 5 %; a 500-page scan cut at the OCR deadline with the cut said; a decompression-bomb PNG
// refused by its header; and, without tesseract, the needs_ocr outcome and its one-line hint.
import { expect, it } from 'vitest';
import { characterErrorRate, groundTruth, PAGE_NAMES } from '../fixtures/ocr/ocr-set.mjs';
import { addOcrRoutes, LONG_SCAN_PAGES } from '../fixtures/ocr/routes.js';
import { describeWithOcr } from '../ocr-available.js';
import { useMcpSession } from './session.js';

const CER_BAR = 0.05;
const mcp = useMcpSession({
  tools: 'fetch,read_url,web,read_many,crawl',
  setup: addOcrRoutes,
  // Deadlines far above one page's OCR on a loaded machine: these tests are about what is read, not how fast.
  env: { FETCH_TIMEOUT: '30000', OCR_TIMEOUT: '55000' },
});

/** The text after the tool's "Contents of …:" heading, page headings and notes taken out. */
const pageTexts = (text: string) =>
  text
    .replace(/^Contents of \S+:\n\n/, '')
    .split(/^## Page \d+\n\n/m)
    .filter((part) => part.trim() !== '');

const { server, session } = mcp;

describeWithOcr('OCR through every reading tool', () => {
  it.each(PAGE_NAMES)(
    'fetch reads %s.png by OCR under the CER bar, and says so in the structured result',
    async (name) => {
      const result = await session.call('fetch', { url: server.url(`/ocr/${name}.png`) });
      expect(result.isError).toBeFalsy();
      expect(characterErrorRate(groundTruth(name), pageTexts(result.text).join('\n\n'))).toBeLessThan(CER_BAR);
      expect(result.structuredContent).toMatchObject({
        status: 'ok',
        content_kind: 'image',
        content_type: 'image/png',
        reader: 'ocr',
        ocr_languages: 'eng',
      });
    },
  );

  it('fetch reads the scanned PDF page by page, every page under the CER bar', async () => {
    const result = await session.call('fetch', { url: server.url('/ocr/scanned.pdf') });
    const pages = pageTexts(result.text);
    expect(pages).toHaveLength(PAGE_NAMES.length);
    PAGE_NAMES.forEach((name, index) =>
      expect(characterErrorRate(groundTruth(name), pages[index]!)).toBeLessThan(CER_BAR),
    );
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      content_kind: 'pdf',
      page_count: 3,
      reader: 'ocr',
      ocr_pages: 3,
    });
  });

  it('a PDF with a text layer on one page keeps it and reads only the scanned page by OCR', async () => {
    const result = await session.call('fetch', { url: server.url('/ocr/mixed.pdf') });
    const pages = pageTexts(result.text);
    expect(pages[0]!.trim()).toBe(groundTruth('page-1').split('\n\n')[0]!.slice(0, 80));
    expect(characterErrorRate(groundTruth('page-2'), pages[1]!)).toBeLessThan(CER_BAR);
    expect(result.structuredContent).toMatchObject({ status: 'ok', page_count: 2, ocr_pages: 1 });
  });

  it('read_url and web read a JPEG served as application/octet-stream by its bytes', async () => {
    const url = server.url('/ocr/page-3.jpg');
    for (const tool of ['read_url', 'web']) {
      const result = await session.call(tool, { url });
      expect(result.isError, tool).toBeFalsy();
      const text = result.text.slice(result.text.indexOf('Instructions for the water pump'));
      expect(characterErrorRate(groundTruth('page-3'), text.split(/\n\n(?:Tokens|---)/)[0]!), tool).toBeLessThan(
        CER_BAR,
      );
      expect(result.structuredContent, tool).toMatchObject({ content_kind: 'image', reader: 'ocr' });
    }
  });

  it('read_many reads a picture and a scanned PDF beside each other', async () => {
    const result = await session.call('read_many', {
      urls: [server.url('/ocr/page-1.png'), server.url('/ocr/scanned.pdf')],
    });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('The harbour master opened the ledger');
    expect(result.text).toContain('Minutes of the library committee');
    expect(result.text).toContain('Instructions for the water pump');
  });

  it('crawl reads the picture and the scanned PDF a page links to', async () => {
    const result = await session.call('crawl', { url: server.url('/ocr/'), max_pages: 3 });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('The harbour master opened the ledger');
    expect(result.text).toContain('Minutes of the library committee');
  });

  it('a 500-page scan is cut at the OCR deadline: the pages read are there and the cut is said', async () => {
    const cutSession = await mcp.connect({ OCR_TIMEOUT: '4000' });
    const result = await cutSession.call('fetch', { url: server.url('/ocr/long-scan.pdf') });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('## Page 1\n\nContents: scanned minutes follow.');
    expect(result.text).toMatch(
      new RegExp(
        `_OCR stopped at its time limit \\(4 s, OCR_TIMEOUT\\): pages \\d+–${LONG_SCAN_PAGES} of ${LONG_SCAN_PAGES} were not read\\._`,
      ),
    );
    const structured = result.structuredContent as { pages_not_read: number; page_count: number };
    expect(structured.page_count).toBe(LONG_SCAN_PAGES);
    expect(structured.pages_not_read).toBeGreaterThan(0);
    expect(structured.pages_not_read).toBeLessThan(LONG_SCAN_PAGES);
  });

  it('a decompression-bomb PNG is refused by its header, never decoded', async () => {
    const result = await session.call('fetch', { url: server.url('/ocr/bomb.png') });
    expect(result.isError).toBeFalsy();
    expect(result.text).toMatch(
      /Image \(image\/png, [\d.]+ KB\) was not read: it is 100000 × 100000 pixels, more than OCR_MAX_PIXELS \(50000000\)\./,
    );
    expect(result.structuredContent).toMatchObject({ status: 'too_large', content_kind: 'image' });
  });
});

it('without tesseract a picture and a scanned PDF are needs_ocr, with the one line that installs it', async () => {
  // No tesseract on PATH and no TESSERACT_PATH: the server finds none.
  const bare = await mcp.connect({ PATH: '/nonexistent', TESSERACT_PATH: '' });
  for (const path of ['/ocr/page-1.png', '/ocr/scanned.pdf']) {
    const result = await bare.call('fetch', { url: server.url(path) });
    expect(result.isError, path).toBeFalsy();
    expect(result.text, path).toMatch(
      /^Status: needs_ocr — \S+ holds its text only in pictures \(an image, or a scanned PDF\) and OCR is not installed here: install it with `apt-get install tesseract-ocr` \(or set TESSERACT_PATH\)/,
    );
    expect(result.structuredContent, path).toMatchObject({ status: 'needs_ocr' });
  }
});

it('a TESSERACT_PATH that names no executable is named, not answered with the install line', async () => {
  const misdirected = await mcp.connect({ TESSERACT_PATH: '/nonexistent/tesseract' });
  for (const path of ['/ocr/page-1.png', '/ocr/scanned.pdf']) {
    const result = await misdirected.call('fetch', { url: server.url(path) });
    expect(result.text, path).toMatch(
      /^Status: needs_ocr — \S+ holds its text only in pictures \(an image, or a scanned PDF\) and TESSERACT_PATH \(\/nonexistent\/tesseract\) is not an executable file: point it at tesseract, or unset it to use the one on PATH/,
    );
    expect(result.text, path).not.toContain('apt-get');
    expect(result.structuredContent, path).toMatchObject({ status: 'needs_ocr' });
  }
});

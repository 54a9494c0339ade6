import { describe, expect, it } from 'vitest';
import { makePdf } from '../../test/fixtures/content/make-pdf.mjs';
import { deflateSync } from 'node:zlib';
import { inflatedTextStreamBytes, joinTextItems, readPdfText, renderPdf } from './pdf.js';

describe('readPdfText', () => {
  it('reads every page in order, the title from the Info dictionary, and the page count', async () => {
    const pdf = await readPdfText(
      makePdf({ title: 'Annual Report', pages: ['Revenue grew (a lot)\nsecond line', 'Costs fell', 'Outlook'] }),
    );
    expect(pdf).toMatchObject({ pageCount: 3, title: 'Annual Report', problem: undefined });
    expect(pdf.pages).toEqual(['Revenue grew (a lot)\nsecond line', 'Costs fell', 'Outlook']);
  });

  it('says encrypted for a PDF that needs a password', async () => {
    const pdf = await readPdfText(makePdf({ pages: ['secret'], encrypted: true }));
    expect(pdf).toMatchObject({ problem: 'encrypted', pageCount: 0, pages: [] });
  });

  it('says no_text for pages with marks but no text operators', async () => {
    const pdf = await readPdfText(makePdf({ pages: ['', ''], imageOnly: true }));
    expect(pdf).toMatchObject({ problem: 'no_text', pageCount: 2, pages: ['', ''] });
  });

  it('says unreadable, with PDF.js words, for bytes that only start like a PDF', async () => {
    const pdf = await readPdfText(new TextEncoder().encode('%PDF-1.7\nnot really a pdf at all'));
    expect(pdf.problem).toBe('unreadable');
    expect(pdf.detail).toBeTruthy();
  });
});

describe('decompression bombs', () => {
  const long = Array.from({ length: 40 }, (_, i) => `Line ${i} of a long compressed page`).join('\n');

  it('reads FlateDecode content streams', async () => {
    const pdf = await readPdfText(makePdf({ pages: [long, 'Second page'], compress: true }));
    expect(pdf.problem).toBeUndefined();
    expect(pdf.pages[0]).toContain('Line 39 of a long compressed page');
  });

  it('refuses a PDF whose streams inflate past the budget, before PDF.js holds them in memory', async () => {
    const bytes = makePdf({ pages: [long], compress: true });
    const pdf = await readPdfText(bytes, 1024);
    expect(pdf).toMatchObject({ problem: 'too_large', pageCount: 0, detail: expect.stringContaining('1.0 KB') });
  });

  it('counts only what text extraction decodes: not image XObjects, not the end of "endstream"', () => {
    const zeros = deflateSync(Buffer.alloc(10000));
    const stream = (dict: string) =>
      Buffer.concat([
        Buffer.from(`1 0 obj\n<< ${dict} /Length ${zeros.length} >>\nstream\n`),
        zeros,
        Buffer.from('\nendstream\nendobj\n'),
      ]);
    const image = stream('/Type /XObject /Subtype /Image /Filter /FlateDecode');
    const content = stream('/DecodeParms << /Columns 4 >> /Filter /FlateDecode');
    expect(inflatedTextStreamBytes(new Uint8Array(image), 1e6)).toBe(0);
    expect(inflatedTextStreamBytes(new Uint8Array(content), 1e6)).toBe(10000);
    expect(inflatedTextStreamBytes(new Uint8Array(Buffer.concat([content, content])), 15000)).toBeGreaterThan(15000);
  });
});

describe('joinTextItems', () => {
  it('ends lines where PDF.js says, skips marked-content markers and trims trailing blanks', () => {
    const items = [{ str: 'Hello', hasEOL: false }, { str: ' ' }, { str: 'world  ', hasEOL: true }, {}, { str: 'x' }];
    expect(joinTextItems(items)).toBe('Hello world\nx');
  });

  it('drops control characters left by broken font encodings', () => {
    expect(joinTextItems([{ str: 'a\u0000b\u0007c' }])).toBe('abc');
  });
});

describe('renderPdf', () => {
  it('a PDF over the inflate budget is too_large, with one line saying so as its content', () => {
    const detail = 'its compressed streams expand to more than 128.0 MB';
    const rendered = renderPdf({ title: undefined, problem: 'too_large', pageCount: 0, pages: [], detail }, 4096);
    expect(rendered).toMatchObject({ outcome: 'too_large', content: `PDF document (4.0 KB) was not read: ${detail}.` });
  });

  const base = { title: undefined, detail: undefined, problem: undefined };

  it('gives one ## Page N section per page, and marks a page without text', () => {
    const rendered = renderPdf({ ...base, pageCount: 3, pages: ['One', '', 'Three'] }, 2048);
    expect(rendered).toEqual({
      content: '## Page 1\n\nOne\n\n## Page 2\n\n_(no text on this page)_\n\n## Page 3\n\nThree',
      outcome: 'ok',
      statusDetail: undefined,
    });
  });

  it.each([
    ['encrypted', { problem: 'encrypted' as const, pageCount: 0, pages: [] }, /encrypted PDF \(1\.0 KB\).*password/],
    [
      'image-only',
      { problem: 'no_text' as const, pageCount: 2, pages: ['', ''] },
      /PDF of 2 pages.*no text layer.*OCR/,
    ],
    ['unparseable', { problem: 'unreadable' as const, pageCount: 0, pages: [], detail: 'Invalid PDF' }, /Invalid PDF/],
  ])('an %s PDF is empty with a reason, never empty text', (_name, pdf, detail) => {
    const rendered = renderPdf({ ...base, ...pdf }, 1024);
    expect(rendered.outcome).toBe('empty');
    expect(rendered.content).toBe('');
    expect(rendered.statusDetail).toMatch(detail);
  });
});

// Issue 27 items 1 and 3: each format read into its golden Markdown with its metadata, sniffed by its bytes whatever
// it is labelled, and every hostile package refused or cut under the caps.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AUTHOR,
  CREATED,
  makeEntityBomb,
  makeHugeXlsx,
  makeManyEntries,
  makeZipBomb,
  MODIFIED,
  TITLE,
  zip,
} from '../../test/fixtures/documents/make-documents.mjs';
import { readDocument, renderDocument, type DocumentFormat } from './document.js';
import { sniffContent } from './sniff.js';
import { MAX_SHEET_ROWS } from './sheets.js';

const FIXTURES = new URL('../../test/fixtures/documents/', import.meta.url);
const file = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const golden = (format: string) => readFileSync(new URL(`report.${format}.md`, FIXTURES), 'utf8').trimEnd();
const BASE = 'https://docs.example/files/report';
const FORMATS: DocumentFormat[] = ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'rtf'];

describe('each format into its golden Markdown', () => {
  it.each(FORMATS)('%s', (format) => {
    const document = readDocument(file(`report.${format}`), BASE);
    expect(document.problem).toBeUndefined();
    expect(document.format).toBe(format);
    expect(document.markdown).toBe(golden(format));
    expect(document.metadata).toMatchObject({ title: TITLE, author: AUTHOR });
  });

  it('keeps the dates each format declares', () => {
    expect(readDocument(file('report.docx'), BASE).metadata).toEqual({
      title: TITLE,
      author: AUTHOR,
      created: CREATED,
      modified: MODIFIED,
    });
    expect(readDocument(file('report.epub'), BASE).metadata).toMatchObject({ created: CREATED, modified: MODIFIED });
    expect(readDocument(file('report.odt'), BASE).metadata).toMatchObject({ created: '2026-03-01T09:00:00' });
    expect(readDocument(file('report.rtf'), BASE).metadata).toMatchObject({ created: '2026-03-01T09:00:00' });
  });

  it('reads slides in the presentation’s order and chapters in the spine’s, not the parts’ names', () => {
    const slides = readDocument(file('report.pptx'), BASE).markdown;
    expect(slides.indexOf('## Slide 1: Harbour Report')).toBeLessThan(slides.indexOf('## Slide 2: Arrivals'));
    const book = readDocument(file('report.epub'), BASE).markdown;
    expect(book.indexOf('# Harbour Report')).toBeLessThan(book.indexOf('## Berths'));
  });
});

describe('sniffed by bytes', () => {
  it.each(FORMATS)('%s, whatever it is labelled or named', (format) => {
    for (const type of ['application/octet-stream', 'text/html', 'text/plain', 'application/zip', '']) {
      expect(sniffContent(type, file(`report.${format}`), 'https://x.test/download?id=7')).toBe('document');
    }
  });

  it('leaves a ZIP without a manifest, or with another mimetype, binary', () => {
    const plain = zip({ 'readme.txt': 'hello', 'data.xml': '<a/>' });
    expect(sniffContent('application/zip', plain, 'https://x.test/report.docx')).toBe('binary');
    const other = zip({ mimetype: ['application/x-other', { level: 0 }], 'content.xml': '<a/>' });
    expect(sniffContent('application/zip', other, 'https://x.test/report.odt')).toBe('binary');
  });

  it('leaves text that merely mentions RTF as text', () => {
    const text = new TextEncoder().encode('This is about {\\rtf1 files');
    expect(sniffContent('text/plain', text, 'https://x.test/notes.rtf')).toBe('text');
  });
});

describe('bounded', () => {
  it('refuses a ZIP bomb by its declared size, before inflating it', () => {
    const bomb = makeZipBomb(100);
    const document = readDocument(bomb, BASE);
    expect(document).toMatchObject({ format: 'docx', problem: 'too_large' });
    expect(document.detail).toBe('its parts expand to more than 64 MB (at word/document.xml)');
    expect(renderDocument(document, bomb.byteLength)).toMatchObject({ outcome: 'too_large' });
  });

  it('stops a ZIP bomb whose directory lies about its size when inflating reaches the cap', () => {
    const document = readDocument(makeZipBomb(100, true), BASE);
    expect(document).toMatchObject({ format: 'docx', problem: 'too_large' });
    expect(document.detail).toContain('expand to more than 64 MB');
  });

  it('refuses an archive of too many entries before inflating any', () => {
    const document = readDocument(makeManyEntries(20_000), BASE);
    expect(document).toMatchObject({ format: 'epub', problem: 'too_large' });
    expect(document.detail).toBe('it has 20001 entries, more than 10000');
  });

  it('never expands an XML entity bomb: the reference stays as written', () => {
    const document = readDocument(makeEntityBomb(), BASE);
    expect(document.problem).toBeUndefined();
    expect(document.markdown).toBe('Laugh: &lol9;');
  });

  it('cuts a sheet of a million rows by rows, and says so under its table', () => {
    const document = readDocument(makeHugeXlsx(1_000_000), BASE);
    expect(document.problem).toBeUndefined();
    expect(document.cuts).toEqual([
      { sheet: 'Big', shownRows: MAX_SHEET_ROWS, totalRows: 1_000_001, columnsCut: false },
    ]);
    const lines = document.markdown.split('\n');
    expect(lines.filter((line) => line === '| 7 | 1.25 |')).toHaveLength(MAX_SHEET_ROWS - 1);
    expect(lines.at(-1)).toBe('_(Sheet "Big" cut: its first 1,000 rows of 1,000,001 are shown.)_');
  });

  it('does not lay out an OpenDocument sheet’s million repeated empty rows', () => {
    const document = readDocument(file('report.ods'), BASE);
    expect(document.cuts).toEqual([]);
    expect(document.markdown.split('\n').length).toBeLessThan(20);
  });

  it('says a damaged package could not be read', () => {
    const bytes = file('report.docx').slice(0, 1500);
    expect(readDocument(bytes, BASE)).toMatchObject({ problem: 'unreadable' });
  });

  it('knows a package cut short (no central directory) by its first entry, the manifest: a document, not bytes', () => {
    const cut = file('report.docx').slice(0, 1500);
    expect(sniffContent('application/octet-stream', cut, 'https://example.test/report.docx')).toBe('document');
    const rendered = renderDocument(readDocument(cut, BASE), cut.byteLength);
    expect(rendered).toMatchObject({ outcome: 'empty' });
    expect(rendered.statusDetail).toMatch(/that could not be read/);
  });
});

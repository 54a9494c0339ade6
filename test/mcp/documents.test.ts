// Issue 27 item 4 through a real MCP client over stdio: each Office and e-book format read into its golden Markdown
// by fetch, with its format, reader and metadata in the structured result; a .docx labelled octet-stream or text/html
// read all the same; read_url, web, web_scraper (references from the document's links), read_many and crawl (a
// document linked from a crawled page) reading the same documents.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUTHOR, LINK, TITLE } from '../fixtures/documents/make-documents.mjs';
import type { FixtureServer } from '../fixture-server.js';
import { useMcpSession } from './session.js';

const FIXTURES = new URL('../fixtures/documents/', import.meta.url);
const bytes = (name: string) => readFileSync(new URL(name, FIXTURES));
const golden = (format: string) => readFileSync(new URL(`report.${format}.md`, FIXTURES), 'utf8').trimEnd();

const FORMATS = [
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'ooxml-word'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'ooxml-sheets'],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'ooxml-slides'],
  ['odt', 'application/vnd.oasis.opendocument.text', 'odf-text'],
  ['ods', 'application/vnd.oasis.opendocument.spreadsheet', 'odf-sheets'],
  ['odp', 'application/vnd.oasis.opendocument.presentation', 'odf-slides'],
  ['epub', 'application/epub+zip', 'epub-spine'],
  ['rtf', 'application/rtf', 'rtf'],
] as const;

function addDocumentRoutes(server: FixtureServer): void {
  const send = (path: string, type: string, body: Uint8Array | string) =>
    server.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    });
  for (const [format, type] of FORMATS) send(`/docs/report.${format}`, type, bytes(`report.${format}`));
  send('/download/octet', 'application/octet-stream', bytes('report.docx'));
  send('/download/as-html', 'text/html; charset=utf-8', bytes('report.docx'));
  send(
    '/site/',
    'text/html; charset=utf-8',
    `<!doctype html><html><head><title>Library</title></head><body><main><h1>Library</h1>
    <p>${'The harbour office publishes its reports as Office files, read here like any page. '.repeat(3)}</p>
    <p>Read the <a href="/docs/report.docx">report</a> and the <a href="/docs/report.xlsx">figures</a>.</p>
    </main></body></html>`,
  );
}

const { server, session } = useMcpSession({
  tools: 'fetch,read_url,web,web_scraper,read_many,crawl',
  setup: addDocumentRoutes,
  env: { FETCH_TIMEOUT: '20000', EXTRACT_TIMEOUT: '20000' },
});

const structured = (result: { structuredContent?: unknown }) => result.structuredContent as Record<string, unknown>;

describe('fetch', () => {
  it.each(FORMATS)(
    'reads .%s into its golden Markdown, with its format, reader and metadata',
    async (format, type, reader) => {
      const url = server.url(`/docs/report.${format}`);
      const result = await session.call('fetch', { url });
      expect(result.isError).toBeFalsy();
      expect(result.text).toBe(`Contents of ${url}:\n\n${golden(format)}`);
      expect(structured(result)).toMatchObject({
        status: 'ok',
        content_kind: 'document',
        content_type: type,
        title: TITLE,
        reader,
        document: { format, media_type: type, author: AUTHOR },
      });
    },
  );

  it.each([
    ['application/octet-stream', '/download/octet'],
    ['text/html', '/download/as-html'],
  ])('reads a .docx served as %s by its bytes', async (served, path) => {
    const url = server.url(path);
    const result = await session.call('fetch', { url });
    expect(result.text).toBe(`Contents of ${url}:\n\n${golden('docx')}`);
    expect(structured(result)).toMatchObject({
      content_kind: 'document',
      content_type: served,
      document: { format: 'docx', media_type: FORMATS[0][1] },
    });
  });
});

describe('the other tools', () => {
  it('read_url gives the document and its links', async () => {
    const result = await session.call('read_url', { url: server.url('/docs/report.odt'), include_links: true });
    expect(result.text).toContain(golden('odt'));
    expect(result.text).toContain(`## Links\n\n- [tide tables](${LINK})`);
    expect(structured(result)).toMatchObject({ status: 'ok', content_kind: 'document', document: { format: 'odt' } });
  });

  it('web reads it as Markdown; links mode, of the same site only, says the document has none', async () => {
    const markdown = await session.call('web', { url: server.url('/docs/report.pptx') });
    expect(markdown.text).toContain(golden('pptx'));
    const url = server.url('/docs/report.docx');
    const links = await session.call('web', { url, mode: 'links' });
    expect(links.text).toBe(
      `No links found on ${url}: the document was read, and none of its links leads to another page of its site.`,
    );
  });

  it('web_scraper gives the text with [n] markers, references from the document’s links, and its outline', async () => {
    const result = await session.call('web_scraper', { url: server.url('/docs/report.docx') });
    const data = JSON.parse(result.text) as {
      text: string;
      references: { id: number; url: string; text: string; external: boolean }[];
      outline: { level: number; text: string }[];
      metadata: { title: string | null; author: string | null };
    };
    expect(data.text).toContain('See the tide tables [1].');
    expect(data.references).toEqual([
      expect.objectContaining({ id: 1, url: LINK, text: 'tide tables', external: true }),
    ]);
    expect(data.outline).toEqual([
      { level: 1, text: TITLE },
      { level: 2, text: 'Arrivals' },
      { level: 3, text: 'Berths' },
    ]);
    expect(data.metadata).toMatchObject({ title: TITLE, author: AUTHOR });
  });

  it('read_many reads several documents in one call', async () => {
    const urls = ['epub', 'rtf', 'ods'].map((format) => server.url(`/docs/report.${format}`));
    const result = await session.call('read_many', { urls });
    expect(result.isError).toBeFalsy();
    for (const format of ['epub', 'rtf', 'ods']) expect(result.text).toContain(golden(format));
    const pages = structured(result).pages as { status: string }[];
    expect(pages.map((page) => page.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('crawl reads the documents a crawled page links to', async () => {
    const result = await session.call('crawl', { url: server.url('/site/'), max_depth: 1, max_pages: 5 });
    expect(result.isError).toBeFalsy();
    const pages = structured(result).pages as { url: string; content: string }[];
    const docx = pages.find((page) => page.url.endsWith('/docs/report.docx'));
    const xlsx = pages.find((page) => page.url.endsWith('/docs/report.xlsx'));
    expect(docx?.content).toContain('| Aurora | 1200 |');
    expect(docx?.content).toContain(`[tide tables](${LINK})`);
    expect(xlsx?.content).toContain('| Ship | Tons | Berth |');
  });
});

// The web_scraper tool (seeds/web-scraper-plan.md, all five milestones) through a real MCP client over stdio.
import { describe, expect, it } from 'vitest';
import { addSitePages, html } from './site-pages.js';
import { useMcpSession } from './session.js';

interface Reference {
  id: number;
  url: string;
  text: string;
  context: string;
  external: boolean;
  type: string;
}

const WORDY = `<!doctype html><html><head>
<meta property="og:title" content="OG only title"><meta property="og:description" content="From OpenGraph">
</head><body><main>${Array.from(
  { length: 30 },
  (_, i) => `<p>Part ${i} has ten words of text in it <a href="/p${i % 4}">link${i}</a></p>`,
).join('\n')}</main></body></html>`;

const ACCENTS = `<html><body><main><p>${'Café — naïve €5, 日本語 and more words. '.repeat(8)}</p></main></body></html>`;

const { server, session } = useMcpSession({
  tools: 'web_scraper',
  setup(server) {
    addSitePages(server);
    server.route('/wordy', html(WORDY));
    server.route('/accents', html(ACCENTS));
    server.route(
      '/shell',
      html(
        '<html><head><title>App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>',
      ),
    );
  },
  env: { FETCH_TIMEOUT: '3000' },
});

describe('web_scraper', () => {
  it('declares its seed arguments and an outputSchema', async () => {
    const { tools } = await session.client.listTools();
    const [tool] = tools;
    expect(tool!.name).toBe('web_scraper');
    expect(tool!.inputSchema.properties).toMatchObject({
      include_html: { type: 'boolean', default: false },
      include_chunks: { type: 'boolean', default: false },
      chunk_size: { type: 'integer', default: 1000, minimum: 100, maximum: 10000 },
      timeout: { type: 'integer', minimum: 5, maximum: 60 },
    });
    // What a result requires; a failure (status and error) is admitted beside it (src/server.ts outputJsonSchema).
    expect((tool!.outputSchema as { else?: { required?: string[] } }).else?.required).toEqual(
      expect.arrayContaining(['url', 'final_url', 'status', 'outcome', 'metadata', 'text', 'references', 'quality']),
    );
  });

  it('returns text with [n] markers whose ids match the references, as structuredContent and JSON text', async () => {
    const url = server.url('/site');
    const result = await session.call('web_scraper', { url });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown> & { text: string; references: Reference[] };
    expect(JSON.parse(result.text)).toEqual(data);
    expect(data).toMatchObject({
      url,
      final_url: url,
      status: 200,
      outcome: 'ok',
      from_cache: false,
      hidden_blocks_dropped: 0,
      metadata: {
        title: 'Example Site',
        description: 'A small site for tests',
        language: 'en',
        content_type: 'text/html; charset=utf-8',
      },
      outline: [
        { level: 1, text: 'Welcome' },
        { level: 2, text: 'More' },
      ],
    });
    expect(data.fetched_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // nav and footer are left out, fragment-only and javascript: links get no number, the same URL keeps its own.
    expect(data.text).toBe(
      'Welcome\n\nSee our products [1] and a partner [2] for more.\n\nAbout [3] Top JS Blog [4]\n\nMore\n\nProducts again [1]',
    );
    const markers = [...new Set([...data.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();
    expect(data.references.map((r) => r.id)).toEqual(markers);
    expect(data.references[0]).toEqual({
      id: 1,
      url: server.url('/products'),
      text: 'our products',
      context: 'See our products and a partner for more.',
      external: false,
      type: 'a',
    });
    expect(data.references[1]).toMatchObject({ url: 'https://partner.example/', external: true });
    expect(data.quality).toEqual({
      text_length: data.text.length,
      word_count: data.text.split(/\s+/).length,
      link_count: 4,
      likely_article: false,
    });
    expect(data).not.toHaveProperty('chunks');
    expect(data).not.toHaveProperty('raw_html');
  });

  it('falls back to OpenGraph for title and description', async () => {
    const result = await session.call('web_scraper', { url: server.url('/wordy') });
    expect(result.structuredContent).toMatchObject({
      metadata: { title: 'OG only title', description: 'From OpenGraph', language: null },
    });
  });

  it('chunks by chunk_size words, each listing the reference ids it contains', async () => {
    const result = await session.call('web_scraper', {
      url: server.url('/wordy'),
      include_chunks: true,
      chunk_size: 100,
    });
    const data = result.structuredContent as { text: string; chunks: Array<Record<string, unknown>> };
    const words = data.text.split(/\s+/);
    expect(words).toHaveLength(330); // 30 × (9 words + link text + marker)
    expect(data.chunks.map((c) => [c.id, c.start_word, c.end_word])).toEqual([
      ['chunk-0', 0, 100],
      ['chunk-1', 100, 200],
      ['chunk-2', 200, 300],
      ['chunk-3', 300, 330],
    ]);
    for (const chunk of data.chunks) {
      const text = chunk.text as string;
      expect(text.split(' ')).toHaveLength((chunk.end_word as number) - (chunk.start_word as number));
      const ids = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();
      expect(chunk.references).toEqual(ids);
    }
    expect(data.chunks[3]!.references).toEqual([1, 2, 4]); // parts 27–29 link to /p3, /p0, /p1
  });

  it("content_length is the decoded page's length in characters (the seed's len(response.text)), with or without its HTML", async () => {
    type Scraped = { metadata: { content_length: number }; raw_html?: string };
    const plain = (await session.call('web_scraper', { url: server.url('/accents') })).structuredContent as Scraped;
    const withHtml = (await session.call('web_scraper', { url: server.url('/accents'), include_html: true }))
      .structuredContent as Scraped;
    expect(plain.metadata.content_length).toBe(ACCENTS.length);
    expect(Buffer.byteLength(ACCENTS)).not.toBe(ACCENTS.length);
    expect(withHtml.metadata.content_length).toBe(ACCENTS.length);
    expect(withHtml.raw_html).toBe(ACCENTS);
    expect(plain).not.toHaveProperty('raw_html');
  });

  it('include_html adds raw_html', async () => {
    const result = await session.call('web_scraper', { url: server.url('/site'), include_html: true });
    expect((result.structuredContent as { raw_html: string }).raw_html).toContain('<nav><a href="/">Home</a>');
  });

  it('reports readable non-HTML content as ok (as every tool does) with the seed notice and the readable text', async () => {
    const result = await session.call('web_scraper', { url: server.url('/json') });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      outcome: 'ok',
      notice: expect.stringMatching(/^Non-HTML content type: application\/json/),
      references: [],
    });
  });

  it('reports a script shell as needs_js, as fetch does, and a cached read as ok with from_cache', async () => {
    const shell = await session.call('web_scraper', { url: server.url('/shell'), render: 'never' });
    expect(shell.isError).toBeFalsy();
    expect(shell.structuredContent).toMatchObject({ outcome: 'needs_js', truncated: false });
    const first = await session.call('web_scraper', { url: server.url('/wordy?cache-check') });
    const again = await session.call('web_scraper', { url: server.url('/wordy?cache-check') });
    expect(first.structuredContent).toMatchObject({ outcome: 'ok', from_cache: false });
    expect(again.structuredContent).toMatchObject({ outcome: 'ok', from_cache: true });
  });

  it('uses the seed messages for rate limiting and HTTP errors', async () => {
    const limited = await session.call('web_scraper', { url: server.url('/retry-after/120') });
    expect(limited.isError).toBe(true);
    expect(limited.text).toBe('Rate limited. Retry after: 120');
    const missing = await session.call('web_scraper', { url: server.url('/status/404') });
    expect(missing.text).toBe(`HTTP error 404 for ${server.url('/status/404')}`);
  });

  it.each([
    ['chunk_size 50', { chunk_size: 50 }, 'chunk_size'],
    ['timeout 0', { timeout: 0 }, 'timeout'],
  ])('%s is an error naming the argument', async (_name, args, named) => {
    const result = await session.call('web_scraper', { url: server.url('/site'), ...args });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(named);
  });
});

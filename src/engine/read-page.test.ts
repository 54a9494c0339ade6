// Reading through the engine's injected I/O: a network that answers from a table, the real worker pool. Each kind
// goes to its own reader; the fields every page has are the same whatever the kind.
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import type { FetchedPage } from '../fetch/types.js';
import { createEngine } from './engine.js';

const ARTICLE = `<html><head><title>Tide tables</title>
<link rel="alternate" type="text/markdown" href="/twin.md"></head><body><nav><a href="/">Home</a></nav>
<article><h1>Tide tables</h1><p>${'High water comes twice a day along this coast, a little later each day. '.repeat(8)}</p></article>
</body></html>`;

const PAGES: Record<string, { type: string; body: Uint8Array | string }> = {
  'https://example.test/page': { type: 'text/html; charset=utf-8', body: ARTICLE.replace(/<link[^>]+>/, '') },
  'https://example.test/with-twin': { type: 'text/html', body: ARTICLE },
  'https://example.test/twin.md': { type: 'text/markdown', body: '# Tide tables\n\nFrom the twin.' },
  'https://example.test/data.json': { type: 'application/json', body: '{"tide":"high","at":"06:12"}' },
  'https://example.test/logo.png': {
    type: 'image/png',
    body: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  },
};

const fetched: string[] = [];
const engine = createEngine(resolveConfig({ PER_DOMAIN_INTERVAL: '0' }), {
  fetchPage: async (url): Promise<FetchedPage> => {
    fetched.push(url);
    const page = PAGES[url];
    if (!page) throw new Error(`no fixture for ${url}`);
    const body = typeof page.body === 'string' ? new TextEncoder().encode(page.body) : page.body;
    const mediaType = page.type.split(';')[0]!;
    const headers = { 'content-type': page.type };
    return { url, finalUrl: url, status: 200, headers, mediaType, body, fetchedAt: new Date() };
  },
});
afterAll(() => engine.close());

describe('readPage: one reader per kind, the common fields in one place', () => {
  it.each([
    ['https://example.test/page', 'html', 'text/html'],
    ['https://example.test/data.json', 'json', 'application/json'],
    ['https://example.test/logo.png', 'image', 'image/png'],
  ])('%s is read as %s with the fields every page has', async (url, kind, mediaType) => {
    const page = await engine.readPage(url);
    expect(page).toMatchObject({ url, finalUrl: url, httpStatus: 200, mediaType, kind, fromCache: false });
    expect(page.byteLength).toBe(PAGES[url]!.body.length);
    expect(page.fetchedAt).toBeInstanceOf(Date);
    expect(page.extractionFailed).toBe(false);
    expect(typeof page.hiddenBlocksDropped).toBe('number');
    expect((await engine.readPage(url)).fromCache).toBe(true);
  });

  it('HTML is extracted: the article without the navigation, the title above it', async () => {
    const page = await engine.readPage('https://example.test/page');
    expect(page.outcome).toBe('ok');
    expect(page.title).toBe('Tide tables');
    expect(page.content).toMatch(/^# Tide tables\n\nHigh water comes twice a day/);
    expect(page.content).not.toContain('Home');
    expect(page.raw).toContain('<nav>');
  });

  it('HTML that declares a Markdown twin is read from the twin, fetched through the same loader', async () => {
    const page = await engine.readPage('https://example.test/with-twin');
    expect(page.markdownTwinUrl).toBe('https://example.test/twin.md');
    expect(page.content).toContain('From the twin.');
    expect(fetched).toContain('https://example.test/twin.md');
  });

  it('JSON is pretty-printed with the body kept as raw; binary content is one line and no raw body', async () => {
    const json = await engine.readPage('https://example.test/data.json');
    expect(json.content).toBe('{\n  "tide": "high",\n  "at": "06:12"\n}');
    expect(json.raw).toBe('{"tide":"high","at":"06:12"}');
    const png = await engine.readPage('https://example.test/logo.png');
    expect(png.outcome).toBe('not_html');
    expect(png.raw).toBe('');
    expect(png.content).toMatch(/^Binary content \(image\/png, 12 bytes\) was not returned/);
  });
});

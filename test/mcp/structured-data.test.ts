// structured_data (issue 28 item 3, "Done means": a page with JSON-LD Product, OpenGraph and a microdata Event
// returning all three, and a table as rows) through a real MCP client over stdio, against loopback pages.
import { describe, expect, it } from 'vitest';
import { useMcpSession } from './session.js';

const SHOP = `<!doctype html><html lang="en"><head><title>Kettle — Shop</title>
<meta property="og:title" content="Steel kettle"><meta property="og:type" content="product">
<meta property="og:image" content="https://shop.example/kettle.jpg"><meta name="twitter:card" content="summary">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
  {"@type":"Product","name":"Steel kettle","sku":"K-1","offers":{"@type":"Offer","price":"29.90","priceCurrency":"EUR"}},
  {"@type":"BreadcrumbList","itemListElement":[]}]}</script>
<script type="application/ld+json">{"@type":"Organization", "name": oops}</script>
</head><body><main><article><h1>Steel kettle</h1>
<p>A kettle of brushed steel that boils a litre in three minutes and keeps its handle cool while it does.</p>
<table><caption>Prices by size</caption><thead><tr><th>Size</th><th>Price</th></tr></thead>
<tbody><tr><td>1 l</td><td>29.90</td></tr><tr><td>1.7 l</td><td>34.90</td></tr></tbody></table>
<div itemscope itemtype="https://schema.org/Event"><h2 itemprop="name">Kettle demo day</h2>
<p>On <time itemprop="startDate" datetime="2026-12-05T10:00">5 December</time> at
<span itemprop="location" itemscope itemtype="https://schema.org/Place"><span itemprop="name">the Blue Room</span></span>.</p>
</div>
<p>${'Every kettle is tested before it leaves the workshop, and comes with a five-year guarantee. '.repeat(3)}</p>
</article></main></body></html>`;

const HUGE = `<!doctype html><html><head><title>Huge</title>
<script type="application/ld+json">{"@type":"Thing","text":"${'x'.repeat(300 * 1024)}"}</script>
<script type="application/ld+json">{"@type":"WebPage","name":"Kept"}</script>
<script type="application/ld+json">{not json}</script>
</head><body><main><article><h1>Huge</h1><p>${'Words of an article that is long enough to read. '.repeat(6)}</p>
</article></main></body></html>`;

// Big data (32 KB of JSON-LD, under its cap) on a short page: more than a small MAX_OUTPUT_TOKENS holds.
const BIG = `<!doctype html><html><head><title>Big</title>
<script type="application/ld+json">{"@type":"Dataset","description":"${'many words here '.repeat(2000)}"}</script>
</head><body><main><article><h1>Big</h1><p>${'A short article that is long enough to be read as one. '.repeat(6)}</p>
</article></main></body></html>`;

const { server, session, connect } = useMcpSession({
  tools: 'fetch,read_url,web_scraper,read_many',
  setup(server) {
    for (const [path, html] of [
      ['/shop', SHOP],
      ['/huge', HUGE],
      ['/big', BIG],
    ] as const) {
      server.route(path, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      });
    }
  },
});

interface Data {
  json_ld?: Record<string, unknown>[];
  open_graph?: Record<string, unknown>;
  twitter?: Record<string, unknown>;
  microdata?: unknown[];
  tables?: unknown[];
  left_out?: Record<string, number>;
  note?: string;
}
const dataOf = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { structured_data?: Data }).structured_data;

const EVENT = {
  type: 'https://schema.org/Event',
  properties: {
    name: ['Kettle demo day'],
    startDate: ['2026-12-05T10:00'],
    location: [{ type: 'https://schema.org/Place', properties: { name: ['the Blue Room'] } }],
  },
};

describe('structured_data', () => {
  it('fetch returns the JSON-LD Product from @graph, OpenGraph, the microdata Event and the table as rows', async () => {
    const result = await session.call('fetch', { url: server.url('/shop'), structured_data: true });
    expect(result.isError, result.text).toBeFalsy();
    const data = dataOf(result)!;
    expect(data.json_ld?.[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      offers: { price: '29.90', priceCurrency: 'EUR' },
    });
    expect(data.json_ld?.map((item) => item['@type'])).toEqual(['Product', 'BreadcrumbList']);
    expect(data.open_graph).toEqual({
      'og:title': 'Steel kettle',
      'og:type': 'product',
      'og:image': 'https://shop.example/kettle.jpg',
    });
    expect(data.twitter).toEqual({ 'twitter:card': 'summary' });
    expect(data.microdata).toEqual([EVENT]);
    expect(data.tables).toEqual([
      {
        caption: 'Prices by size',
        headers: ['Size', 'Price'],
        rows: [
          ['1 l', '29.90'],
          ['1.7 l', '34.90'],
        ],
      },
    ]);
    expect(data.left_out).toEqual({ json_ld_invalid: 1 });
    expect(data.note).toBe('Left out: 1 JSON-LD block not valid JSON, skipped.');
    // The text says the data is there, and carries none of it.
    expect(result.text).toContain(
      "Structured data: 2 JSON-LD items, OpenGraph, Twitter card, 1 microdata item, 1 table, in the structured result's structured_data.",
    );
    expect(result.text).not.toContain('BreadcrumbList');
  });

  it('is not read unless asked for: the text and the structured result are as before', async () => {
    const result = await session.call('fetch', { url: server.url('/shop') });
    expect(dataOf(result)).toBeUndefined();
    expect(result.text).not.toContain('Structured data');
  });

  it('gives each table as CSV with tables: "csv"', async () => {
    const result = await session.call('read_url', { url: server.url('/shop'), tables: 'csv' });
    expect(dataOf(result)?.tables).toEqual([{ caption: 'Prices by size', csv: 'Size,Price\n1 l,29.90\n1.7 l,34.90' }]);
    expect(result.text).toMatch(/^Structured data: 2 JSON-LD items, .* 1 table, /m);
  });

  it('web_scraper and read_many carry it too (web_scraper in its JSON text)', async () => {
    const scraped = await session.call('web_scraper', { url: server.url('/shop'), structured_data: true });
    expect(dataOf(scraped)?.microdata).toEqual([EVENT]);
    expect(JSON.parse(scraped.text).structured_data.json_ld[0]['@type']).toBe('Product');
    const many = await session.call('read_many', { urls: [server.url('/shop')], structured_data: true });
    const [page] = (many.structuredContent as { pages: { structured_data?: Data }[] }).pages;
    expect(page?.structured_data?.open_graph?.['og:title']).toBe('Steel kettle');
    expect(many.text).not.toContain('og:title');
    // The page's header says what is there, as fetch's text does: right under its title.
    expect(many.text).toMatch(/^Title: .*\nStructured data: 2 JSON-LD items, .* 1 table, /m);
  });

  it('bounds JSON-LD: a block past 256 KB is left out and counted, a broken one skipped, the rest read', async () => {
    const result = await session.call('fetch', { url: server.url('/huge'), structured_data: true, render: 'never' });
    const data = dataOf(result)!;
    expect(data.json_ld).toEqual([{ '@type': 'WebPage', name: 'Kept' }]);
    expect(data.left_out).toEqual({ json_ld_blocks_left_out: 1, json_ld_invalid: 1 });
    expect(data.note).toBe(
      'Left out: 1 JSON-LD block not valid JSON, skipped; 1 JSON-LD block past the 256 KB read of a page.',
    );
  });

  it('web_scraper leaves structured_data out, with a notice, when it alone would pass MAX_OUTPUT_TOKENS', async () => {
    const small = await connect({ MAX_OUTPUT_TOKENS: '3000' });
    const result = await small.call('web_scraper', { url: server.url('/big'), structured_data: true, render: 'never' });
    const json = JSON.parse(result.text) as {
      structured_data?: unknown;
      notice?: string;
      truncated: boolean;
      text: string;
    };
    expect(json.structured_data).toBeUndefined();
    expect(json.notice).toContain('structured_data was left out to stay within MAX_OUTPUT_TOKENS');
    expect([json.truncated, json.text]).toEqual([true, expect.stringContaining('A short article')]);
    // With room for it, the same call has it.
    const roomy = await session.call('web_scraper', {
      url: server.url('/big'),
      structured_data: true,
      render: 'never',
    });
    expect(dataOf(roomy)?.json_ld?.[0]?.['@type']).toBe('Dataset');
  });
});

import { describe, expect, it } from 'vitest';
import { tableCsv } from './data-tables.js';
import { MAX_DATA_ITEMS, MAX_DATA_VALUES, MAX_JSON_LD_CHARS } from './data-limits.js';
import { extractStructuredData, readJsonLd } from './structured-data.js';
import { cutNeverRendered, type ScriptSource } from './html-source.js';

const URL = 'https://shop.example/p/1';
const page = (head: string, body = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('JSON-LD', () => {
  it('reads every block, flattens @graph (its @context given to each node) and counts the broken ones', () => {
    const html = page(
      `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
         {"@type":"Product","name":"Kettle","offers":{"@type":"Offer","price":"29.90"}},
         {"@type":"BreadcrumbList"}, 3]}</script>
       <script type="application/ld+json">{"@type": "Organization", broken</script>
       <script type='application/ld+json'>[{"@type":"WebSite"}]</script>
       <script>var notData = {"@type":"Nope"};</script>`,
    );
    const data = extractStructuredData(html, URL);
    expect(data.jsonLd).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Kettle',
        offers: { '@type': 'Offer', price: '29.90' },
      },
      { '@context': 'https://schema.org', '@type': 'BreadcrumbList' },
      { '@type': 'WebSite' },
    ]);
    expect(data.cuts).toEqual({ jsonLdInvalid: 1 });
  });

  it('parses at most MAX_JSON_LD_CHARS of blocks and keeps MAX_DATA_ITEMS items, counting the rest', () => {
    const huge = JSON.stringify({ '@type': 'Thing', text: 'x'.repeat(MAX_JSON_LD_CHARS) });
    const many = JSON.stringify(Array.from({ length: MAX_DATA_ITEMS + 5 }, (_, i) => ({ '@type': 'Thing', i })));
    const read = readJsonLd([huge, many, '{"@type":"Last"}']);
    expect(read.items).toHaveLength(MAX_DATA_ITEMS);
    expect(read.items[0]).toEqual({ '@type': 'Thing', i: 0 });
    expect([read.blocksLeftOut, read.itemsLeftOut, read.invalid]).toEqual([1, 6, 0]);
  });

  it('drops __proto__ keys rather than giving an object a prototype from the page', () => {
    const read = readJsonLd(['{"@type":"Thing","__proto__":{"polluted":true},"name":"n"}']);
    expect(read.items).toEqual([{ '@type': 'Thing', name: 'n' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('unwraps a block written inside an HTML comment', () => {
    expect(readJsonLd(['<!-- {"@type":"Thing"} -->']).items).toEqual([{ '@type': 'Thing' }]);
  });
});

describe('the pre-pass lists the scripts it cuts', () => {
  it('gives each script its attributes and text, an unclosed one running to the end', () => {
    const html = '<p>a</p><script type="application/ld+json">{"a":1}</script ><script>let x = "</p>"';
    const scripts: ScriptSource[] = [];
    cutNeverRendered(html, undefined, scripts);
    expect(scripts.map((s) => [s.attributes, html.slice(s.start, s.end)])).toEqual([
      [' type="application/ld+json"', '{"a":1}'],
      ['', 'let x = "</p>"'],
    ]);
  });
});

describe('OpenGraph and Twitter cards', () => {
  it('keys each tag as written, a repeated one a list, empty ones left out', () => {
    const html = page(
      `<meta property="og:title" content="Kettle"><meta property="og:image" content="https://shop.example/1.jpg">
       <meta property="og:image" content="https://shop.example/2.jpg"><meta property="product:price:amount" content="29.90">
       <meta name="twitter:card" content="summary"><meta name="twitter:site" content=""><meta name="description" content="d">`,
    );
    const data = extractStructuredData(html, URL);
    expect(data.openGraph).toEqual({
      'og:title': 'Kettle',
      'og:image': ['https://shop.example/1.jpg', 'https://shop.example/2.jpg'],
      'product:price:amount': '29.90',
    });
    expect(data.twitter).toEqual({ 'twitter:card': 'summary' });
  });

  it('gives nothing for a page with no structured data', () => {
    expect(extractStructuredData(page('<title>t</title>', '<p>Just text.</p>'), URL)).toEqual({});
  });
});

describe('microdata', () => {
  it('reads an item with its type, values by element and nested items, and itemref', () => {
    const html = page(
      '',
      `<div itemscope itemtype="https://schema.org/Event" itemref="venue-ref" itemid="urn:event:1">
         <h2 itemprop="name">Jazz   night</h2>
         <time itemprop="startDate" datetime="2026-12-01T20:00">1 December</time>
         <a itemprop="url" href="/events/jazz">More</a>
         <meta itemprop="eventStatus" content="https://schema.org/EventScheduled">
         <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
           <data itemprop="price" value="12">twelve</data><span itemprop="priceCurrency">EUR</span>
         </div>
       </div>
       <p id="venue-ref" itemprop="location">The Blue Room</p>
       <div itemscope itemtype="https://schema.org/Person"><span itemprop="name givenName">Ann</span></div>`,
    );
    const data = extractStructuredData(html, URL);
    expect(data.microdata).toEqual([
      {
        type: 'https://schema.org/Event',
        id: 'urn:event:1',
        properties: {
          name: ['Jazz night'],
          startDate: ['2026-12-01T20:00'],
          url: ['https://shop.example/events/jazz'],
          eventStatus: ['https://schema.org/EventScheduled'],
          offers: [{ type: 'https://schema.org/Offer', properties: { price: ['12'], priceCurrency: ['EUR'] } }],
          location: ['The Blue Room'],
        },
      },
      { type: 'https://schema.org/Person', properties: { name: ['Ann'], givenName: ['Ann'] } },
    ]);
  });

  it('follows an itemref that points back at its own item once', () => {
    const html = page(
      '',
      '<div id="a" itemscope itemref="a b"><span itemprop="x">1</span></div><i id="b" itemprop="y">2</i>',
    );
    expect(extractStructuredData(html, URL).microdata).toEqual([{ properties: { x: ['1'], y: ['2'] } }]);
  });

  it('keeps MAX_DATA_ITEMS items and MAX_DATA_VALUES values, counting the rest', () => {
    const items = Array.from({ length: MAX_DATA_ITEMS + 3 }, () => '<div itemscope><b itemprop="n">v</b></div>');
    const values = '<b itemprop="v">x</b>'.repeat(MAX_DATA_VALUES);
    const data = extractStructuredData(page('', `<div itemscope>${values}</div>${items.join('')}`), URL);
    expect(data.microdata).toHaveLength(MAX_DATA_ITEMS);
    expect(data.cuts).toMatchObject({ microdataItemsLeftOut: 4, valuesLeftOut: MAX_DATA_ITEMS - 1 });
  });
});

describe('RDFa Lite', () => {
  it('reads typeof items with their vocab, nested items as property values, and skips OpenGraph-style properties', () => {
    const html = page(
      '<meta property="og:title" content="T">',
      `<div vocab="https://schema.org/" typeof="Product" resource="#kettle">
         <span property="name">Kettle</span><img property="image" src="k.jpg" alt="">
         <div property="offers" typeof="Offer"><meta property="price" content="29.90"></div>
       </div>`,
    );
    expect(extractStructuredData(html, URL).rdfa).toEqual([
      {
        type: 'https://schema.org/Product',
        id: '#kettle',
        properties: {
          name: ['Kettle'],
          image: ['https://shop.example/p/k.jpg'],
          offers: [{ type: 'https://schema.org/Offer', properties: { price: ['29.90'] } }],
        },
      },
    ]);
  });
});

describe('tables', () => {
  const table = `<table><caption>Prices</caption><thead><tr><th>Item</th><th>Price</th></tr></thead>
    <tbody><tr><td>Kettle</td><td>29,90 "EUR"</td></tr><tr><td colspan="2">Sold out</td></tr><tr><td></td><td></td></tr></tbody></table>`;

  it('reads a data table as caption, headers and rows; layout and hidden tables are left out', () => {
    const layout = '<table><tr><td><table><tr><td>a</td><td>b</td></tr></table></td></tr></table>';
    const hidden = '<table style="display:none"><tr><th>H</th><th>I</th></tr><tr><td>1</td><td>2</td></tr></table>';
    const data = extractStructuredData(
      page('', `${table}${layout}${hidden}<table><tr><td>one column</td></tr></table>`),
      URL,
    );
    expect(data.tables).toEqual([
      {
        caption: 'Prices',
        headers: ['Item', 'Price'],
        rows: [
          ['Kettle', '29,90 "EUR"'],
          ['Sold out', ''],
        ],
      },
      // The data table laid out inside a page table is read; its first row is not all <th>: no headers.
      { headers: [], rows: [['a', 'b']] },
    ]);
  });

  it('puts a <tfoot> last, as it renders, and leaves out one that repeats the header row', () => {
    const head = '<thead><tr><th>Pos</th><th>Player</th></tr></thead>';
    const repeat = '<tfoot><tr><th>Pos</th><th>Player</th></tr></tfoot>';
    const total = '<tfoot><tr><td>All</td><td>2</td></tr></tfoot>';
    const body = '<tbody><tr><td>DL</td><td>Ann</td></tr><tr><td>LB</td><td>Bo</td></tr></tbody>';
    const data = extractStructuredData(
      page('', `<table>${head}${repeat}${body}</table><table>${head}${total}${body}</table>`),
      URL,
    );
    expect(data.tables).toEqual([
      {
        headers: ['Pos', 'Player'],
        rows: [
          ['DL', 'Ann'],
          ['LB', 'Bo'],
        ],
      },
      {
        headers: ['Pos', 'Player'],
        rows: [
          ['DL', 'Ann'],
          ['LB', 'Bo'],
          ['All', '2'],
        ],
      },
    ]);
  });

  it('gives CSV text per table with tables: "csv"', () => {
    const data = extractStructuredData(page('', table), URL, { tables: 'csv' });
    expect(data.tables).toEqual([{ caption: 'Prices', csv: 'Item,Price\nKettle,"29,90 ""EUR"""\nSold out,' }]);
    expect(tableCsv({ headers: [], rows: [['a\nb', 'c']] })).toBe('"a\nb",c');
  });

  it('cuts a long table at its rows and says how many it had', () => {
    const rows = Array.from({ length: 1005 }, (_, i) => `<tr><td>${i}</td><td>x</td></tr>`).join('');
    const data = extractStructuredData(page('', `<table><tr><th>n</th><th>x</th></tr>${rows}</table>`), URL);
    const [first] = data.tables as { rows: string[][]; totalRows?: number }[];
    expect([first!.rows.length, first!.totalRows]).toEqual([1000, 1005]);
    expect(data.cuts).toEqual({ tablesCut: 1 });
  });
});

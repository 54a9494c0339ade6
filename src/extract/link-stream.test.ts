// The links read from the parser's events (link-stream.ts) are the tree path's, exactly, on every page the stream
// reads; a page whose hiding needs its tree is left to the tree path (issue 23 item 8).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractLinks, extractLinksFromTree } from './links.js';
import { streamLinks } from './link-stream.js';
import { cutPage } from './parse-page.js';

const PAGE = 'https://example.com/docs/page';
const PAGES = join(import.meta.dirname, '../../test/fixtures/pages');

/** Pages that every rule of the stream meets; each is read by the stream, not the tree. */
const CASES: Record<string, string> = {
  nested: `<body><a href="/outer">out <b>bold</b><a href="/inner">in</a> after</a><p>text</p></body>`,
  fallbacks: `<body><a href="/img"><img alt="  "><span><img alt="Logo  two"></span></a>
    <a href="/label" aria-label="  The   label "></a><a href="/title" title="A title"><img src="x.png"></a>
    <a href="/empty"></a><a>no href</a><a href=" /spaced ">spaced</a></body>`,
  hidden: `<body><div hidden><a href="/h1">x</a><p hidden>inner</p></div><p aria-hidden="true"><a href="/h2">y</a></p>
    <span style="display:none"><a href="/h3">z</a></span><div hidden="until-found"><a href="/found">found</a></div>
    <a href="/partly">shown <span style="visibility:hidden">hidden words</span> shown</a>
    <noscript><a href="/ns">ns</a></noscript><select><option>o</option></select><button><a href="/b">b</a></button>
    <template><a href="/t">t</a></template><a href="/ok">ok</a></body>`,
  base: `<html><head><link rel="alternate canonical" href="canon"><link rel="canonical" href="/second"></head>
    <body><a href="rel">rel</a><a href="javascript:x()">js</a><a href="#top">top</a><a href="mailto:a@b.c">mail</a>
    <base href="https://docs.example.org/v2/"><base href="/ignored/"></body></html>`,
  text: `<!doctype html><html><head><title>T</title>
    </head><body>one<!-- c -->two &amp; three<?pi x?><p>${'words and more words '.repeat(30)}</p>
    <script>var a = "<a href='/s'>s</a>";</script><style>.x{}</style>four</body></html>`,
  outside: `<p>before html</p><html><body><a href="/b">b</a></body></html><a href="/after">after</a> tail`,
  rendered: `<html><head></head><body><svg><a href="/svg">svg</a></svg><rt>r</rt><iframe><a href="/if">if</a></iframe>
    <table><tr><td><a href="/cell">cell</a></td></tr></table><ul><li><a href="/li1">1</a><li><a href="/li2">2</a></ul>`,
};

describe('streamLinks', () => {
  it.each(Object.entries(CASES))('reads %s as the tree path does', (_name, html) => {
    expect(streamLinks(cutPage(html), PAGE)).toBeDefined();
    expect(extractLinks(html, PAGE)).toEqual(extractLinksFromTree(html, PAGE));
  });

  it('reads the fixture pages as the tree path does, each through whichever path it takes', () => {
    const files = readdirSync(PAGES).filter((name) => name.endsWith('.html'));
    let streamed = 0;
    for (const name of files) {
      const html = readFileSync(join(PAGES, name), 'utf8');
      if (streamLinks(cutPage(html), PAGE)) streamed++;
      expect({ name, ...extractLinks(html, PAGE) }).toEqual({ name, ...extractLinksFromTree(html, PAGE) });
    }
    expect(streamed).toBeGreaterThan(files.length / 2);
  });

  it('leaves to the tree a page whose sheet hides by rule, or whose <head> holds body content', () => {
    const sheet = `<html><head><style>.gone{display:none}</style></head><body><p class="gone"><a href="/x">x</a></p>
      <a href="/y">y</a></body></html>`;
    const inHead = `<html><head><title>T</title><a href="/early">early</a></head><body><a href="/y">y</a></body></html>`;
    const textInHead = `<html><head><title>T</title>Loose words</head><body><a href="/y">y</a></body></html>`;
    for (const html of [sheet, inHead, textInHead]) {
      expect(streamLinks(cutPage(html), PAGE)).toBeUndefined();
      expect(extractLinks(html, PAGE)).toEqual(extractLinksFromTree(html, PAGE));
    }
    expect(extractLinks(sheet, PAGE).links.map((link) => link.url)).toEqual(['https://example.com/y']);
    expect(extractLinks(inHead, PAGE).links.map((link) => link.url)).toEqual([
      'https://example.com/early',
      'https://example.com/y',
    ]);
  });
});

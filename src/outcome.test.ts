import { describe, expect, it } from 'vitest';
import { outcomeOfHtml, looksScriptBuilt } from './outcome.js';

it.each([
  ['a React shell', '<html><body><div id="root"></div><script src="/app.js"></script></body></html>', 0, 'needs_js'],
  [
    'a noscript notice',
    '<body><noscript>You need to enable JavaScript to run this app.</noscript></body>',
    0,
    'needs_js',
  ],
  ['an empty body', '<html><body></body></html>', 0, 'empty'],
  // Nothing to read beside one small script that runs: the script writes the page (session-36 cold trial).
  [
    'one inline script and nothing to read',
    '<body><main id="m"></main><script>m.textContent = "Hi"</script></body>',
    0,
    'needs_js',
  ],
  [
    'one module script and nothing to read',
    '<body><main></main><script type="module" src="/a.js"></script></body>',
    0,
    'needs_js',
  ],
  ['JSON-LD only and nothing to read', '<body><script type="application/ld+json">{}</script></body>', 0, 'empty'],
  [
    'a template only and nothing to read',
    "<body><script type='text/x-template'><p>{{ a }}</p></script></body>",
    0,
    'empty',
  ],
  ['a short real page', '<html><body><p>Hi there.</p></body></html>', 9, undefined],
  ['an article', '<html><body><div id="root"><p>' + 'text '.repeat(50) + '</p></div></body></html>', 250, undefined],
])('%s', (_name, html, chars, expected) => {
  expect(outcomeOfHtml(html, chars)).toBe(expected);
});

describe('looksScriptBuilt', () => {
  const bundle = `<SCRIPT type="module">${'x'.repeat(60_000)}</SCRIPT>`;
  it.each([
    ['a large inline bundle beside little text', `<div id="app">Loading…</div>${bundle}`, 12, true],
    ['the same bundle beside a real article', `<p>${'words '.repeat(100)}</p>${bundle}`, 600, false],
    ['eight script elements', '<script src="/a.js"></script>'.repeat(8), 0, true],
    ['a small analytics snippet', '<p>Hi</p><script>track()</script>', 2, false],
    ['an unclosed script tag', `<p>Hi</p><script>${'x'.repeat(10)}`, 2, false],
  ])('%s', (_name, html, readable, expected) => {
    expect(looksScriptBuilt(html, readable)).toBe(expected);
  });

  it('a short main block in a page whose HTML holds its text is not script-built (the whole page decides)', () => {
    const html = `<nav>${'Menu '.repeat(100)}</nav><main><p>A short product blurb.</p></main>${bundle}`;
    expect(looksScriptBuilt(html, 22, () => 540)).toBe(false);
    expect(looksScriptBuilt(html, 22, () => 120)).toBe(true);
  });

  it('a short main block beside the empty mount point a framework writes into is script-built', () => {
    const nav = `<nav>${'Menu '.repeat(100)}</nav>`;
    expect(looksScriptBuilt(`${nav}<div id="root"></div>${bundle}`, 22, () => 540)).toBe(true);
    expect(looksScriptBuilt(`${nav}<div id="root-portal"></div>${bundle}`, 22, () => 540)).toBe(false);
    expect(looksScriptBuilt(`${nav}<div id="root"><p>Served.</p></div>${bundle}`, 22, () => 540)).toBe(false);
  });

  it('is linear on a page of unclosed tags with heavy scripts', () => {
    const hostile = `${'<div class=x id=root '.repeat(100_000)}${bundle}`;
    expect(looksScriptBuilt(hostile, 0, () => 1000)).toBe(false);
  });

  it('asks for the whole page only of a page with heavy scripts and a short main block', () => {
    let asked = 0;
    const page = () => ++asked && 10;
    expect(looksScriptBuilt('<p>Hi</p><script>track()</script>', 2, page)).toBe(false);
    expect(looksScriptBuilt(`<p>${'words '.repeat(100)}</p>${bundle}`, 600, page)).toBe(false);
    expect(asked).toBe(0);
  });

  it('is linear on a page of unclosed <script tags', () => {
    // 200,000 openings with no '>' anywhere: a scan per opening would be quadratic; the first one ends it.
    expect(looksScriptBuilt('<script '.repeat(200_000), 0)).toBe(false);
  });
});

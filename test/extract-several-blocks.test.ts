// Issue 24's extraction mechanisms, one small page each: pages whose content is several blocks, layout words that
// are not boilerplate, and the per-page choice between two extractions. Each test fails without its mechanism.
import { describe, expect, it } from 'vitest';
import { articlePage as page, PAGE_URL as URL, PROSE } from './fixtures/article-page.js';
import { extractArticle } from '../src/extract/extract-article.js';

const LEAD =
  'The council’s report, published on Friday after two years of hearings, finds that the harbour works cost twice the estimate and ran a year late, and it names the three decisions that made them so. ';
const COMMENT =
  'I was at the hearing on Tuesday, and I must say the committee did not listen to a single resident, which is what always happens in this town when the harbour is on the agenda. ';

describe('layout words in a class', () => {
  it('keep a block that reads as prose (a lead in a header), while function words still remove one', () => {
    const html = page(`<article><div class="post-header"><p>${LEAD}</p></div>
      <div class="post-body"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></div>
      <div class="comment-box"><p>${COMMENT}</p></div></article>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('The council’s report, published on Friday');
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).not.toContain('I was at the hearing');
    const reasons = explain!.filter((entry) => entry.phase === 'boilerplate').map((entry) => entry.reason);
    expect(reasons).toEqual([
      'boilerplate tag <nav>',
      'kept: "header" is a layout word and the block reads as prose',
      'unlikely class or id: "comment"',
      'boilerplate tag <footer>',
    ]);
  });

  it('keep a section heading whose class holds one (`h2.header-anchor-post`): a heading is a title, not prose', () => {
    const html = page(`<article><div class="body markup"><p>${PROSE.repeat(3)}</p>
      <h2 class="header-anchor-post">Start with a clear plan<a class="anchor" href="#plan"></a></h2>
      <p>${PROSE.repeat(2)}</p><h3 class="header-anchor-post"><a href="/elsewhere">A link in a heading</a></h3>
      <p>${PROSE.repeat(2)}</p></div></article>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('## Start with a clear plan');
    expect(markdown).not.toContain('A link in a heading'); // all link: a teaser's, still dropped
    const kept = explain!.filter((entry) => entry.reason?.startsWith('kept: "header"')).map((entry) => entry.reason);
    expect(kept).toEqual(['kept: "header" is a layout word and the block is a section heading']);
  });

  it('do not save a call to action (`cta`): the function word decides over the layout word `widget`', () => {
    const appeal =
      'We do this work every day at no cost to you, but it is far from free to produce, and we cannot afford to slow down, so we ask for your support. ';
    const html = page(`<article><div class="post-body"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p>
      <div class="zone-widget zone-widget-cta-letter"><h5>A word to our readers</h5><p>${appeal}</p></div></div></article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).not.toContain('A word to our readers');
    expect(markdown).not.toContain('we ask for your support');
  });

  it('keep a short strip of links in a header out', () => {
    const html =
      page(`<div class="site-header"><a href="/a">Politics</a> <a href="/b">Sport</a> <a href="/c">Culture</a>
      <a href="/d">Weather</a></div><article><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).not.toContain('Politics');
  });
});

describe('a page of several blocks', () => {
  it('joins every block that scores at least half the best and reads as prose, in page order', () => {
    const html =
      page(`<div class="band"><section class="what"><h2>What we do</h2><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></section></div>
      <div class="strip"><a href="/try">Try it</a></div>
      <div class="band-2"><div class="inner"><section class="how"><h2>How it works</h2><p>${LEAD.repeat(2)}</p><p>${LEAD}</p></section></div></div>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('## What we do');
    expect(markdown).toContain('## How it works');
    expect(markdown.indexOf('What we do')).toBeLessThan(markdown.indexOf('How it works'));
    expect(markdown).not.toContain('Try it');
  });

  it('does not join a strong block whose class says boilerplate, a layout word included (a text widget)', () => {
    const blurb =
      'It is a lovely book, clear and light, easy to read and to dip in and out of, and it offers information without fluff. ';
    const html = page(`<div class="left"><div class="story"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p>
      <p>${PROSE.repeat(2)}</p></div></div><div class="right"><div class="textwidget"><p>${blurb.repeat(2)}</p></div></div>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).not.toContain('It is a lovely book');
    const notJoined = explain!.filter((entry) => entry.reason.endsWith('says boilerplate: not joined'));
    expect(notJoined.map((entry) => entry.element)).toEqual([
      'div.textwidget "It is a lovely book, clear and light, easy to read and to d…"',
    ]);
  });
});

describe('a sign-up box inside the content', () => {
  it('goes whatever else its class says, and --explain names the word', () => {
    const html = page(`<article><div class="post-body"><p>${PROSE.repeat(3)}</p>
      <div class="newsletter-form__wrapper--inbodyContent"><p>Sign up to get the best stories of the week, every Friday, in your inbox, free of charge and of ads.</p></div>
      <p>${PROSE.repeat(2)}</p></div></article>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).not.toContain('Sign up to get the best stories');
    expect(explain!.map((entry) => entry.reason)).toContain('sign-up box: class or id "newsletter"');
  });
});

describe('the choice between our extraction and the inclusive one', () => {
  const replies = ['Ann', 'Bob', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal']
    .map((name) => `<div class="r-${name}"><span>${name}</span><p>${COMMENT}</p></div>`)
    .join('');
  const thread = `<div class="page"><div class="col"><div class="op"><div class="op-body"><p>${PROSE.repeat(3)}</p>
    <p>${PROSE.repeat(2)}</p></div></div></div><div class="below"><div class="x"><div class="reply-list">${replies}</div></div></div></div>`;

  it('takes the inclusive one when it holds over twice our text and is not links, and --explain says so', () => {
    const { markdown, explain } = extractArticle(page(thread), { baseUrl: URL, explain: true });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown.split('I was at the hearing').length - 1).toBe(8);
    const notes = explain!.filter((entry) => entry.reason.startsWith('compared with the inclusive extraction'));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.reason).toMatch(
      /ours 569 chars, the inclusive one 1998 \(3\.5×, link density 0\.00\).*it is used/,
    );
  });

  it('says on every page whether it compared, also when the page holds too little else to compare', () => {
    const html = page(`<div class="story"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></div>`);
    const { explain } = extractArticle(html, { baseUrl: URL, explain: true });
    const notes = explain!.filter((entry) => entry.reason.includes('the inclusive extraction'));
    expect(notes.map((entry) => entry.reason)).toEqual([
      'not compared with the inclusive extraction: the page holds under 2× our text outside links, ours stands',
    ]);
  });

  it('keeps ours on a page that declares itself an article', () => {
    const html = page(`<meta property="og:type" content="article">${thread}`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain('The committee met on Tuesday');
    expect(markdown).not.toContain('I was at the hearing');
    expect(explain!.map((entry) => entry.reason)).toContain(
      'not compared with the inclusive extraction: the page declares itself an article (og:type), ours stands',
    );
  });
});

describe('a <details> panel', () => {
  it('is a section of the content, its summary a heading one level below the heading it sits under', () => {
    const html = page(`<article><p>${PROSE.repeat(3)}</p><h2>Questions</h2>
      <details><summary>Does the report say who pays?</summary><p>Yes: the council pays two thirds, the port the rest.</p></details>
      <details><summary>When does the work start?</summary><p>In the spring, once the ferry season is over.</p></details></article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain(
      '## Questions\n\n### Does the report say who pays?\n\nYes: the council pays two thirds, the port the rest.\n\n### When does the work start?',
    );
  });
});

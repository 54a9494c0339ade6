import { describe, expect, it } from 'vitest';
import { articlePage as page, PAGE_URL as URL, PROSE } from '../../test/fixtures/article-page.js';
import { extractArticle } from './extract-article.js';

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('blocks that give the reader nothing new', () => {
  it('drops a caption that repeats its picture’s alt text; the picture keeps it', () => {
    const alt = 'The council chamber on Tuesday evening';
    const html = page(`<article><p>${PROSE.repeat(3)}</p>
      <div class="photo"><a href="/big.jpg"><img src="/chamber.jpg" alt="${alt}"></a><div>${alt}</div></div>
      <p>${PROSE.repeat(2)}</p></article>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain(`![${alt}](https://example.com/chamber.jpg)`);
    expect(count(markdown, alt)).toBe(1);
    const removed = explain?.find((entry) => entry.reason.includes('repeats its picture'));
    expect(removed?.phase).toBe('cleaning');
    expect(removed?.element).toBe(`div "${alt}"`);
  });

  it('drops a caption that starts with the alt text and adds a credit, as a whole element', () => {
    const alt = 'Snow on the pavement outside the town hall';
    const html = page(`<article><p>${PROSE.repeat(3)}</p>
      <div><div><a href="/g/1"><img src="/snow.jpg" alt="${alt}" title="${alt}"><span class="zoom"></span></a></div>
      <small><span>${alt}</span><span>© A. Photographer</span></small></div>
      <p>${PROSE.repeat(2)}</p></article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(count(markdown, alt)).toBe(1);
    expect(markdown).not.toContain('A. Photographer');
  });

  it('drops a caption after a line break that repeats the picture’s file name, leaving the picture', () => {
    const html = page(`<article><div class="lead-picture"><a href="/uploads/Bird-Station-in-Dortmund.jpg"><img
      src="/uploads/Bird-Station-in-Dortmund-300x225.jpg"></a><br/>Bird Station in Dortmund</div>
      <p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('](https://example.com/uploads/Bird-Station-in-Dortmund-300x225.jpg)');
    expect(markdown).not.toContain('Bird Station in Dortmund');
  });

  it('keeps text after a picture that does not repeat it, or that goes on well past it', () => {
    const alt = 'The council chamber';
    const longer = `${alt} was rebuilt in 1952 after the fire, and the committee has met there every week since then, without fail.`;
    const html = page(`<article><p>${PROSE.repeat(3)}</p>
      <p><img src="/a.jpg" alt="${alt}"></p><p>${longer}</p>
      <p><img src="/b.jpg" alt="A view of the river"></p><p>Members of the committee before the vote.</p>
      <p>${PROSE.repeat(2)}</p></article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain(longer);
    expect(markdown).toContain('Members of the committee before the vote.');
  });

  it('keeps a card’s title after its picture: a linked title in a table row, a label beside an SVG icon', () => {
    const books = [
      'The Hunger Games (The Hunger Games, #1)',
      'Pride and Prejudice',
      'To Kill a Mockingbird',
      'The Picture of Dorian Gray',
      'Crime and Punishment',
      'One Hundred Years of Solitude',
    ];
    const rows = books
      .map(
        (title, n) => `<tr><td><a href="/book/${n}"><img src="/covers/${n}.jpg" alt="${title}"></a></td>
        <td><a class="bookTitle" href="/book/${n}"><span>${title}</span></a><br><span>by</span>
        <div><span>4.3 avg rating, ${n + 1},000 ratings</span></div></td></tr>`,
      )
      .join('');
    const list = page(`<article><h2>Best books ever</h2><p>${PROSE}</p><table>${rows}</table></article>`);
    const listed = extractArticle(list, { baseUrl: URL }).markdown;
    for (const title of books) expect(count(listed, title)).toBe(2);
    const features = ['Flat-Folding Collapsible Design', 'Rapid Charge in Ten Minutes'];
    const grid = features
      .map(
        (name) => `<div class="feature"><div class="icon"><img src="/icons/${name.replaceAll(' ', '_')}.svg?v=2"
        alt="icon"></div><div class="label">${name}</div></div>`,
      )
      .join('');
    const product = page(`<article><p>${PROSE.repeat(3)}</p>${grid}<p>${PROSE.repeat(2)}</p></article>`);
    const described = extractArticle(product, { baseUrl: URL }).markdown;
    for (const name of features) expect(described).toContain(name);
  });

  it('trims a trailing heading past what renders nothing: placeholder pictures, no-break spaces', () => {
    const tiles = [1, 2]
      .map(
        (n) => `<div class="tile-${n}"><a href="javascript:;"><img src="data:image/png;base64,iVBORw0KGgo="></a></div>`,
      )
      .join('');
    const html = page(`<article><div class="body"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}The end.</p>
      <h2>You may also like</h2><div class="row">${tiles}</div><p>&nbsp;</p></div></article>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown.trimEnd().endsWith('The end.')).toBe(true);
    expect(markdown).not.toContain('You may also like');
    const removed = explain?.find((entry) => entry.phase === 'trailing' && entry.element?.startsWith('h2'));
    expect(removed?.reason).toBe('heading with nothing after it');
    const passed = explain?.find((entry) => entry.phase === 'trailing' && entry.element?.startsWith('div.row'));
    expect(passed?.reason).toMatch(/^renders nothing in the Markdown/);
  });

  it('keeps a trailing heading over a picture that shows, or a placeholder with alt text', () => {
    const shown = page(`<article><div class="body"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p>
      <h2>The chamber today</h2><p><img src="/today.jpg" alt=""></p></div></article>`);
    expect(extractArticle(shown, { baseUrl: URL }).markdown).toContain('The chamber today');
    const alt = page(`<article><div class="body"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p>
      <h2>The chamber today</h2><p><img src="data:image/png;base64,iVBORw0KGgo=" alt="A chart of the votes"></p></div></article>`);
    expect(extractArticle(alt, { baseUrl: URL }).markdown).toContain('The chamber today');
  });
});

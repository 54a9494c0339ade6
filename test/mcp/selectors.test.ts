// Issue 14 items 3 and 4 through a real MCP client over stdio: `selector` and `exclude_selectors` on fetch, read_url,
// web, web_scraper and crawl; `section` on fetch and read_url, numbered as web_scraper's outline.
import { describe, expect, it } from 'vitest';
import { addSelectorPages, BIRDS, EDITION_NOTE, INTRO, MENU_LINK, OWLS, TIDES, TREES } from '../selector-pages.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({ tools: 'all', setup: addSelectorPages, env: { FETCH_TIMEOUT: '3000' } });

const errorCode = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;

describe('selector', () => {
  it('reads only what the selector matches, skipping main-content detection (a sidebar it would drop)', async () => {
    const url = server.url('/sel/guide');
    const plain = await session.call('fetch', { url });
    expect(plain.text).toContain(INTRO);
    expect(plain.text).not.toContain(TIDES); // detection drops the sidebar…
    const selected = await session.call('fetch', { url, selector: '#sidebar' });
    expect(selected.isError).toBeFalsy();
    expect(selected.text).toContain('### Tide table'); // …the selector reads it
    expect(selected.text).toContain(TIDES);
    expect(selected.text).not.toContain(INTRO);
    expect(selected.structuredContent).toMatchObject({ selector_matched: 1, title: 'Field Guide' });
  });

  it('joins several matches in document order, whatever the order in the selector', async () => {
    const result = await session.call('fetch', { url: server.url('/sel/guide'), selector: '#sidebar, nav' });
    expect(result.structuredContent).toMatchObject({ selector_matched: 2 });
    const menu = result.text.indexOf(MENU_LINK);
    expect(menu).toBeGreaterThan(0);
    expect(result.text.indexOf(TIDES)).toBeGreaterThan(menu);
  });

  it('exclude_selectors removes a part main-content extraction keeps', async () => {
    const url = server.url('/sel/guide');
    const plain = await session.call('read_url', { url });
    expect(plain.text).toContain(EDITION_NOTE);
    const result = await session.call('read_url', { url, exclude_selectors: ['.edition-note', 'h3'] });
    expect(result.text).not.toContain(EDITION_NOTE);
    expect(result.text).not.toContain('### Owls');
    expect(result.text).toContain(INTRO);
    expect(result.text).toContain(OWLS);
  });

  it('an excluded element is never selected', async () => {
    const result = await session.call('web', {
      url: server.url('/sel/guide'),
      selector: 'article p',
      exclude_selectors: ['.edition-note'],
    });
    expect(result.text).toContain(INTRO);
    expect(result.text).toContain(TREES);
    expect(result.text).not.toContain(EDITION_NOTE);
    expect(result.text).not.toContain('## Birds'); // only the paragraphs
  });

  it('a selector that matches nothing says so, with selector_matched: 0', async () => {
    const url = server.url('/sel/guide');
    for (const tool of ['fetch', 'read_url', 'web']) {
      const result = await session.call(tool, { url, selector: '.no-such-thing' });
      expect(result.isError, tool).toBeFalsy();
      // It names the selector (issue 23): an agent trying several sees which one found nothing.
      expect(result.text, tool).toContain(`selector ".no-such-thing" matched nothing on ${url}`);
      expect(result.structuredContent, tool).toMatchObject({ status: 'ok', selector_matched: 0 });
    }
  });

  it('a bad selector is INVALID_ARGUMENT naming it, and nothing is fetched', async () => {
    const url = server.url('/sel/bad');
    const bad = await session.call('fetch', { url, selector: 'div[' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('selector "div[" is not valid CSS');
    expect(errorCode(bad)).toBe('INVALID_ARGUMENT');
    const badExclude = await session.call('web_scraper', { url, exclude_selectors: ['p', 'a:hover'] });
    expect(badExclude.isError).toBe(true);
    expect(badExclude.text).toContain('exclude_selectors "a:hover" is not valid CSS');
    const tooMany = await session.call('crawl', { url, exclude_selectors: Array.from({ length: 21 }, () => 'p') });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toContain('exclude_selectors takes at most 20 selectors');
    // Complexity bounded up front (issue 23): a 99-step chain is refused, naming the argument, before any fetch.
    const chain = Array.from({ length: 99 }, () => 'div').join(' ');
    for (const [tool, args, argument] of [
      ['fetch', { selector: chain }, 'selector'],
      ['read_url', { exclude_selectors: ['nav', chain] }, 'exclude_selectors'],
    ] as const) {
      const complex = await session.call(tool, { url, ...args });
      expect(complex.isError, tool).toBe(true);
      expect(errorCode(complex), tool).toBe('INVALID_ARGUMENT');
      expect(complex.text, tool).toMatch(
        new RegExp(`${argument} "div div div.*" is too complex to run: it chains 99 compound selectors; at most 16`),
      );
    }
    expect(server.hits('/sel/bad')).toBe(0);
  });

  it('web_scraper reads the matched elements: text and outline', async () => {
    const result = await session.call('web_scraper', { url: server.url('/sel/guide'), selector: '#sidebar' });
    const data = JSON.parse(result.text) as { text: string; outline: unknown[]; selector_matched: number };
    expect(data.text).toContain(TIDES);
    expect(data.text).not.toContain(INTRO);
    expect(data.outline).toEqual([{ level: 3, text: 'Tide table' }]);
    expect(data.selector_matched).toBe(1);
    const none = await session.call('web_scraper', { url: server.url('/sel/guide'), selector: 'table' });
    const empty = JSON.parse(none.text) as { text: string; notice: string; outcome: string };
    expect(empty).toMatchObject({ text: '', outcome: 'ok' });
    expect(empty.notice).toContain('selector "table" matched nothing');
  });

  it('crawl applies the selectors to every page and still follows the links outside them', async () => {
    const result = await session.call('crawl', {
      url: server.url('/sel/guide'),
      patterns: ['/sel/**'],
      selector: 'article',
      exclude_selectors: ['.edition-note'],
    });
    const pages = (result.structuredContent as { pages: { url: string; content: string }[] }).pages;
    expect(pages.map((page) => new URL(page.url).pathname)).toEqual(['/sel/guide', '/sel/other']);
    for (const page of pages) {
      expect(page.content).toContain(INTRO);
      expect(page.content).not.toContain(EDITION_NOTE);
      expect(page.content).not.toContain(MENU_LINK); // the nav's link was followed, its text not read
    }
  });
});

describe('section', () => {
  it('#n is the n-th entry of web_scraper outline, and returns that heading up to the next of its level', async () => {
    const url = server.url('/sel/guide');
    const scraped = JSON.parse((await session.call('web_scraper', { url })).text) as { outline: { text: string }[] };
    const n = scraped.outline.findIndex((entry) => entry.text === 'Birds') + 1;
    expect(n).toBeGreaterThan(0);
    const result = await session.call('fetch', { url, section: `#${n}` });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('## Birds');
    expect(result.text).toContain(BIRDS);
    expect(result.text).toContain(OWLS); // a lower heading stays inside
    expect(result.text).not.toContain(TREES); // the next h2 ends it
    expect(result.text).not.toContain(INTRO);
    expect(result.structuredContent).toMatchObject({ section: { number: n, text: 'Birds' } });
  });

  it('by text, case-insensitive and whitespace-normalised; max_length applies to the section', async () => {
    const url = server.url('/sel/guide');
    const result = await session.call('read_url', { url, section: '  tide   TABLE ' });
    expect(result.text).toContain('Section: #6 Tide table');
    expect(result.text).toContain(TIDES);
    expect(result.text).not.toContain('Copyright'); // not into the footer
    const cut = await session.call('fetch', { url, section: 'Owls', max_length: 20 });
    expect(cut.structuredContent).toMatchObject({ truncated: true, next_start_index: 20 });
    expect(cut.text).toContain('### Owls');
    expect(cut.text).not.toContain(BIRDS);
  });

  it('not found: INVALID_ARGUMENT naming section, listing the headings as #n text', async () => {
    const result = await session.call('fetch', { url: server.url('/sel/guide'), section: 'Fish' });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('INVALID_ARGUMENT');
    expect(result.text).toContain('section "Fish" was not found');
    expect(result.text).toContain('#1 Site menu\n#2 Field Guide\n#3 Birds\n#4 Owls\n#5 Trees\n#6 Tide table');
    const past = await session.call('read_url', { url: server.url('/sel/guide'), section: '#7' });
    expect(past.isError).toBe(true);
    expect(past.text).toContain('#6 Tide table');
  });

  it('with a selector, #n counts the matched elements’ headings, as web_scraper with that selector does', async () => {
    const url = server.url('/sel/guide');
    const scraped = await session.call('web_scraper', { url, selector: 'article' });
    const outline = (JSON.parse(scraped.text) as { outline: { text: string }[] }).outline;
    expect(outline[1]?.text).toBe('Birds');
    const result = await session.call('fetch', { url, selector: 'article', section: '#2' });
    expect(result.text).toContain(BIRDS);
    expect(result.text).not.toContain(TREES);
  });
});

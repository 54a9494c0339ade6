// Memory proportional to what is kept (issue 23 item 8), guarded by what the reader returns, not by RSS (the figures
// are bench/memory.mjs's): a page's HTML is not carried back from the extraction worker to a reader that never reads
// it, and a huge single-line page and a page of 200,000 links come back whole in their counts and capped in text.
// Through the library and the real worker pool, against the loopback fixture server.
import { afterAll, describe, expect, it } from 'vitest';
import { createWebReader, type WebReader } from '../src/index.js';
import { respondWith } from './fixture-server.js';
import { useFixtureServer } from './use-fixture-server.js';

const PROSE = 'The committee met on Tuesday, and after a long debate it agreed to publish the report in full. ';
const ARTICLE = `<html><head><title>The report</title></head><body><nav><a href="/">Home</a></nav>
  <article><h1>The report</h1><p>${PROSE.repeat(6)}</p></article></body></html>`;

/** About 3 MB of posts on one line, each with a link: the shape of issue 23's 9 MB page, smaller. */
function longLinePage(posts: number): string {
  const parts = ['<!doctype html><html><head><title>One line</title></head><body><main>'];
  for (let n = 0; n < posts; n++) {
    parts.push(
      `<div class="post"><h2>Entry ${n}</h2><p>Paragraph ${n}, ${PROSE}<a href="/e/${n}">entry ${n}</a>.</p></div>`,
    );
  }
  return `${parts.join('')}</main></body></html>`;
}

const LINKS = 200_000;
const anchors = () =>
  `<html><body><ul>${Array.from({ length: LINKS }, (_, n) => `<li><a href="/a/${n}">Anchor ${n}</a></li>`).join('')}</ul></body></html>`;

/** Every URL of /a/0 … /a/99,999 twice, then /top three times and one link off the site: ranked, then cut. */
const rankedAnchors = () => {
  const half = LINKS / 2;
  const items = Array.from({ length: LINKS }, (_, n) => `<li><a href="/a/${n % half}">Anchor ${n}</a></li>`);
  const tail = '<a href="/top">Top</a><a href="/top">Top again</a><a href="https://elsewhere.example/x">x</a>';
  return `<html><body><ul>${items.join('')}</ul>${tail}<a href="/top"></a></body></html>`;
};

const server = useFixtureServer((server) => {
  server.route('/article', respondWith('text/html; charset=utf-8', ARTICLE));
  server.route('/long-line', respondWith('text/html; charset=utf-8', longLinePage(16_000)));
  server.route('/anchors', respondWith('text/html; charset=utf-8', anchors()));
  server.route('/ranked-anchors', respondWith('text/html; charset=utf-8', rankedAnchors()));
});

let opened: WebReader | undefined;
/** One reader for the file; the time limits are the loaded machine's, not what is tested. */
function reader(): WebReader {
  opened ??= createWebReader({
    env: {
      ALLOW_PRIVATE_HOSTS: server.hostPort,
      PER_DOMAIN_INTERVAL: '0',
      RENDER_JS: 'never',
      EXTRACT_TIMEOUT: '60000',
    },
  });
  return opened;
}
afterAll(() => opened?.close());

describe('a page read keeps what the reader returns, not the page it read', () => {
  it('carries no raw HTML back to a reader that never reads it, and carries it to one that does', async () => {
    const url = server.url('/article');
    const lean = await reader().engine.readPage(url, { withoutRaw: true });
    expect(lean.content).toContain('The committee met on Tuesday');
    expect(lean.raw).toBe('');
    const whole = await reader().engine.readPage(url);
    expect(whole.raw).toContain('<nav><a href="/">Home</a></nav>');
    expect(whole.content).toBe(lean.content);
    // The tools that read raw still get it.
    const raw = await reader().fetch({ url, raw: true });
    expect(raw.text).toContain('<nav><a href="/">Home</a></nav>');
  });

  it('fetch of a 3 MB single-line page: every entry in total_length, the text capped, continued where it stops', async () => {
    const url = server.url('/long-line');
    const first = await reader().fetch({ url });
    const structured = first.structured as unknown as {
      truncated: boolean;
      next_start_index: number;
      total_length: number;
    };
    expect(structured.truncated).toBe(true);
    expect(structured.total_length).toBeGreaterThan(2_500_000);
    expect(first.text).toContain('## Entry 0');
    expect(first.text.length).toBeLessThan(200_000); // MAX_OUTPUT_TOKENS (20,000 tokens) holds
    const last = await reader().fetch({ url, start_index: structured.total_length - 300 });
    expect(last.text).toContain('entry 15999');
  });

  it(`links of ${LINKS.toLocaleString('en')} anchors: every one counted, the first 100 listed`, async () => {
    const result = await reader().call('links', { url: server.url('/anchors') });
    const structured = result.structured as unknown as { total_links: number; links: { url: string }[] };
    expect(structured.total_links).toBe(LINKS);
    expect(structured.links).toHaveLength(100);
    expect(structured.links[0]!.url).toBe(server.url('/a/0'));
    expect(structured.links[99]!.url).toBe(server.url('/a/99'));
  });

  it(`links of ${LINKS.toLocaleString('en')} anchors: ranked, de-duplicated and cut where they are read`, async () => {
    const url = server.url('/ranked-anchors');
    const result = await reader().call('links', { url, max_links: 50 });
    const structured = result.structured as unknown as {
      total_links: number;
      links: { url: string; text: string; count: number }[];
    };
    expect(structured.total_links).toBe(LINKS / 2 + 1);
    expect(structured.links).toHaveLength(50);
    expect(structured.links[0]).toEqual({ url: server.url('/top'), text: 'Top', count: 3 });
    expect(structured.links[1]).toEqual({ url: server.url('/a/0'), text: 'Anchor 0', count: 2 });
    expect(structured.links[49]).toEqual({ url: server.url('/a/48'), text: 'Anchor 48', count: 2 });
    expect(result.text).toContain(`50 of ${LINKS / 2 + 1} links found on`);
    // Only the kept links cross back from the extraction worker: 50, not 200,003 to be ranked on the event loop.
    const page = await reader().engine.readPage(url, { want: 'links', siteLinksLimit: 50, withoutRaw: true });
    expect(page.linkList?.links).toEqual([]);
    expect(page.linkList?.site?.ranked).toEqual(structured.links);
    expect(page.linkList?.site?.total).toBe(LINKS / 2 + 1);
  });
});

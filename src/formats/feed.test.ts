import { describe, expect, it } from 'vitest';
import { ATOM_FEED, RSS_FEED } from '../../test/fixtures/content/feeds.js';
import { feedEntries, parseFeed, renderFeed } from './feed.js';

describe('feedEntries', () => {
  it('reads RSS 2.0 items newest first, with absolute links, ISO dates and plain-text summaries', () => {
    expect(feedEntries(RSS_FEED, 'https://rivers.example/feed.xml')).toEqual([
      {
        title: 'Summer drought warning',
        link: 'https://rivers.example/posts/drought',
        date: '2026-04-14T10:00:00Z',
        summary: 'Water levels are the lowest in ten years.',
      },
      {
        title: 'Spring floods arrive',
        link: 'https://rivers.example/posts/spring-floods',
        date: '2026-03-02T09:30:00Z',
        summary: 'The delta is under water again & the fishermen wait.',
      },
      {
        title: 'Winter ice report',
        link: 'https://rivers.example/posts/winter-ice',
        date: '2026-01-10T08:00:00Z',
        summary: 'Ice covers the upper reaches.',
      },
    ]);
  });

  it('reads Atom entries newest first, taking the alternate link and the summary or content', () => {
    expect(feedEntries(ATOM_FEED)).toEqual([
      {
        title: 'Newer entry',
        link: 'https://delta.example/newer',
        date: '2026-05-01T10:00:00Z',
        summary: 'The second survey found new channels.',
      },
      {
        title: 'Older entry',
        link: 'https://delta.example/older',
        date: '2026-04-01T10:00:00Z',
        summary: 'The first survey of the delta.',
      },
    ]);
  });

  it('reads RSS 1.0 (RDF) items that sit beside the channel, with dc:date', () => {
    const rdf = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
      xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel><title>RDF feed</title></channel>
      <item><title>Old</title><link>https://r.example/1</link><dc:date>2025-01-01T00:00:00Z</dc:date></item>
      <item><title>New</title><link>https://r.example/2</link><dc:date>2025-06-01T00:00:00Z</dc:date></item>
    </rdf:RDF>`;
    expect(feedEntries(rdf).map((entry) => entry.title)).toEqual(['New', 'Old']);
  });

  it('puts undated entries last, in feed order', () => {
    const rss = `<rss><channel><item><title>A</title></item><item><title>B</title>
      <pubDate>Mon, 02 Mar 2026 09:30:00 GMT</pubDate></item><item><title>C</title></item></channel></rss>`;
    expect(feedEntries(rss).map((entry) => [entry.title, entry.date])).toEqual([
      ['B', '2026-03-02T09:30:00Z'],
      ['A', undefined],
      ['C', undefined],
    ]);
  });

  it('still lists the entries of a feed cut off mid-item', () => {
    const cut = RSS_FEED.slice(0, RSS_FEED.indexOf('<description><![CDATA[<p>Ice'));
    expect(feedEntries(cut).map((entry) => entry.title)).toEqual(['Spring floods arrive', 'Winter ice report']);
  });

  it('cuts a long summary at a word, with an ellipsis', () => {
    const long = 'word '.repeat(200);
    const [entry] = feedEntries(
      `<rss><channel><item><title>T</title><description>${long}</description></item></channel></rss>`,
    );
    expect(entry!.summary.length).toBeLessThanOrEqual(401);
    expect(entry!.summary).toMatch(/word…$/);
  });

  it.each([
    ['other XML', '<?xml version="1.0"?><config><item>x</item></config>'],
    ['plain text', 'not xml at all'],
    ['empty', ''],
  ])('gives no entries for %s', (_name, xml) => {
    expect(feedEntries(xml)).toEqual([]);
  });
});

describe('renderFeed', () => {
  it('is a Markdown list: linked title, date, then the summary indented beneath', () => {
    const markdown = renderFeed(parseFeed(RSS_FEED, 'https://rivers.example/feed.xml')!);
    expect(markdown).toBe(
      [
        '# River Notes & News',
        '',
        '- [Summer drought warning](https://rivers.example/posts/drought) — 2026-04-14 10:00 UTC',
        '  Water levels are the lowest in ten years.',
        '- [Spring floods arrive](https://rivers.example/posts/spring-floods) — 2026-03-02 09:30 UTC',
        '  The delta is under water again & the fishermen wait.',
        '- [Winter ice report](https://rivers.example/posts/winter-ice) — 2026-01-10 08:00 UTC',
        '  Ice covers the upper reaches.',
      ].join('\n'),
    );
  });

  it('escapes brackets in titles and says when a feed has no entries', () => {
    expect(
      renderFeed({
        title: 'T',
        entries: [{ title: 'a [b]', link: 'https://x.example/(1)', date: undefined, summary: '' }],
      }),
    ).toBe('# T\n\n- [a \\[b\\]](https://x.example/%281%29)');
    expect(renderFeed({ title: '', entries: [] })).toBe('# Feed\n\n_(no entries)_');
  });

  it('gives an entry with a script, data or relative-without-base link its title and no link', () => {
    const rss = (link: string) =>
      `<rss><channel><title>T</title><item><title>Entry</title><link>${link}</link>` +
      `<description>[win](javascript:alert(1))</description></item></channel></rss>`;
    for (const link of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
      const feed = parseFeed(rss(link), 'https://x.example/feed.xml')!;
      expect(feed.entries[0]!.link, link).toBe('');
      expect(renderFeed(feed), link).toBe('# T\n\n- Entry\n  \\[win\\](javascript:alert(1))');
    }
    expect(parseFeed(rss('/relative'))!.entries[0]!.link).toBe('');
    expect(parseFeed(rss('mailto:desk@x.example'))!.entries[0]!.link).toBe('mailto:desk@x.example');
  });
});

import { describe, expect, it } from 'vitest';
import { forumThreadPage } from '../../test/fixtures/forum-pages.js';
import { articlePage as page, PAGE_URL as URL, PROSE } from '../../test/fixtures/article-page.js';
import { extractArticle } from './extract-article.js';

describe('forum posts', () => {
  it('reads each post as a post: a break, its author line, what it says, in order', () => {
    const { markdown } = extractArticle(forumThreadPage(), { baseUrl: URL });
    const alice = markdown.indexOf('**alice** · 2024-03-01\n\nOur heating stops every night');
    const bob = markdown.indexOf('---\n\n**bob** · 2024-03-02\n\nI had the same trouble');
    const carol = markdown.indexOf('---\n\n**carol** · 2024-03-03\n\nCheck the wiring first');
    expect(alice).toBeGreaterThanOrEqual(0);
    expect(bob).toBeGreaterThan(alice);
    expect(carol).toBeGreaterThan(bob);
    expect(markdown.match(/^---$/gm)).toHaveLength(2); // between posts, not before the first
  });

  it('drops the forum chrome: member statistics, signatures, reply/quote/report buttons', () => {
    const { markdown } = extractArticle(forumThreadPage(), { baseUrl: URL });
    for (const chrome of ['Posts: 116', 'Joined:', 'plumbing business', 'Reply', 'Quote', 'Report', 'avatar'])
      expect(markdown).not.toContain(chrome);
  });

  it('names the decision in --explain', () => {
    const { explain } = extractArticle(forumThreadPage(), { baseUrl: URL, explain: true });
    const note = explain!.find((entry) => entry.phase === 'shape' && entry.action === 'note');
    expect(note?.reason).toMatch(
      /^forum thread: 3 posts, each after a break with its author line \(the first: "alice · 2024-03-01"\)/,
    );
    const removed = explain!.filter((entry) => entry.phase === 'shape' && entry.action === 'removed');
    expect(removed.map((entry) => entry.reason)).toContain('forum chrome: a signature');
  });

  it('takes the name from microdata, past the avatar link, and a date from <time>; quotes are not the author', () => {
    const post = (name: string, body: string): string => `
      <div class="topic-body crawler-post" itemprop="comment">
        <div class="crawler-post-meta"><span class="creator" itemprop="author"><a href="/u/${name}"><img src="/a.png" alt=""></a>
          <a href="/u/${name}"><span itemprop="name">${name}</span></a> (${name.toUpperCase()})</span>
          <time datetime="2024-11-08T19:33:00Z">November 8, 2024, 7:33pm</time></div>
        <div class="cooked" itemprop="text"><blockquote><a class="username" href="/u/zed">zed</a> said: earlier words</blockquote><p>${body}</p></div>
      </div>`;
    const html = page(`<div class="thread">${post('amondale', PROSE)}${post('rimelek', PROSE.repeat(2))}</div>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).toContain('**amondale** · November 8, 2024, 7:33pm');
    expect(markdown).toContain('---\n\n**rimelek** · November 8, 2024, 7:33pm');
    expect(markdown).not.toContain('**zed**');
    expect(markdown).not.toContain('AMONDALE');
  });

  it('leaves an article alone when its header and its body both name its one author', () => {
    const part = (body: string): string =>
      `<div class="container"><span class="author-name">Chris Winter</span><p>${body}</p></div>`;
    const html = page(`<main>${part(PROSE)}${part(PROSE.repeat(4))}</main>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).not.toContain('**Chris Winter**');
    expect(explain!.filter((entry) => entry.phase === 'shape').map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/^not a thread \(no two posts with an author line\)/),
    ]);
  });

  it('leaves an article alone: one author box is not a thread', () => {
    const html = page(`<article><div class="byline"><a class="author" href="/staff/ann">Ann Lee</a></div>
      <p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).not.toContain('**Ann Lee**');
    expect(markdown).not.toContain('---');
  });
});

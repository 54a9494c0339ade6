import { describe, expect, it } from 'vitest';
import { articlePage as page, PAGE_URL as URL, PROSE } from '../../test/fixtures/article-page.js';
import { qaThreadPage, xenForoThreadPage } from '../../test/fixtures/forum-pages.js';
import { extractArticle } from './extract-article.js';
import { findForumPosts } from './forum-posts.js';
import { collapseWhitespace, parseHtml, textOf, type HtmlElement } from './parse.js';
import { removeThreadChrome } from './thread-content.js';

/** The posts of `markdown` as the shaping writes them: split at the breaks, each led by its author line. */
function postsOf(markdown: string): string[] {
  return markdown.split('\n\n---\n\n');
}

describe('thread content', () => {
  it('reads a thread whole when the chosen block is one post: every post, the four-word reply too, each once', () => {
    const { markdown } = extractArticle(xenForoThreadPage(), { baseUrl: URL });
    const posts = postsOf(markdown);
    expect(posts.map((post) => post.split('\n')[0])).toEqual([
      '**dana** · Jul 9, 2007',
      '**eli** · Jul 9, 2007',
      '**fay** · Jul 10, 2007',
      '**gus** · Jul 10, 2007',
    ]);
    expect(posts[2]).toContain('Thanks, that helps a lot!');
    // The quote stays in the post that quotes it, and the quoted post's words are not read twice.
    expect(posts[3]).toMatch(/^> Troubleshooting, without a doubt\.$/m);
    expect(markdown.match(/Anyone can pull wire/g)).toHaveLength(1);
    expect(markdown).not.toMatch(/Senior Member|#\d|Similar threads|2 likes/);
  });

  it('says in --explain that the thread became the content, and why', () => {
    const { explain } = extractArticle(xenForoThreadPage(), { baseUrl: URL, explain: true });
    const chosen = explain!.filter((entry) => entry.phase === 'candidates' && entry.action === 'chosen');
    expect(chosen.at(-1)).toMatchObject({
      element: expect.stringMatching(/^div\.block-body/),
      reason: 'the chosen block is in a post of a thread of 4 posts: the thread is the content',
    });
  });

  it('reads a question above its answers as the first post; the post menu is no title; the answer form goes', () => {
    const { markdown, explain } = extractArticle(qaThreadPage(), { baseUrl: URL, explain: true });
    const posts = postsOf(markdown);
    expect(posts).toHaveLength(3);
    expect(posts[0]).toMatch(/^\*\*kumiko\*\* · asked Feb 11, 2011 at 23:49\n\nI am starting a small catering service/);
    expect(posts[1]).toMatch(/^\*\*michael\*\* · answered Feb 12, 2011 at 1:01\n\nThe most important thing/);
    expect(posts[2]).toMatch(/^\*\*joe\*\* · answered Jan 20, 2015 at 19:39\n\nVisit the place in advance/);
    expect(markdown).not.toMatch(/Your Answer|Sign up or log in|Post as a guest|Improve this|12k views|\b18\b/);
    const removed = explain!.filter((entry) => entry.phase === 'shape' && entry.action === 'removed');
    expect(removed.map((entry) => entry.reason)).toContain('thread chrome: a reply form');
  });

  it("keeps a post's link card (<aside>) and a reply that is only a link", () => {
    const post = (name: string, body: string): string => `
      <div class="topic-body crawler-post" itemprop="comment">
        <div class="crawler-post-meta"><span class="creator" itemprop="author"><a href="/u/${name}"><span itemprop="name">${name}</span></a></span>
          <time datetime="2023-04-05T10:00:00Z">April 5, 2023</time></div>
        <div class="post" itemprop="text">${body}</div>
      </div>`;
    const card = `<aside class="onebox"><header class="source"><a href="https://news.example/">news.example</a></header>
      <article class="onebox-body"><h3><a href="https://news.example/">News in Levels</a></h3>
      <p>World news written at three levels of English, for students of the language.</p></article></aside>`;
    const html = page(`<div class="thread">
      ${post('ann', `<p>${PROSE}</p>`)}
      ${post('ben', `<p>${PROSE} Here is the one I use every morning:</p>${card}`)}
      ${post('cat', '<p><a href="https://learn.example/">https://learn.example/</a></p>')}
      ${post('dan', `<p>${PROSE.repeat(2)}</p>`)}</div>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    const posts = postsOf(markdown);
    expect(posts).toHaveLength(4);
    expect(posts[1]).toContain('### [News in Levels](https://news.example/)');
    expect(posts[1]).toContain('World news written at three levels of English');
    expect(posts[2]).toBe('**cat** · April 5, 2023\n\n[https://learn.example/](https://learn.example/)');
  });

  it('removes schema.org counters and view or reply counts from a shaped thread, not the words of a post', () => {
    const doc = parseHtml(`<div id="thread">
      <div class="post"><span class="username">ann</span><p>${PROSE}</p>
        <div class="stats"><span>1.9K views</span> <span>11 replies</span></div>
        <div itemprop="interactionStatistic"><span>3 Likes</span></div></div>
      <div class="post"><span class="username">ben</span><p>${PROSE} It had 12 replies by the evening.</p>
        <span class="vote" itemprop="upvoteCount">18</span></div></div>`);
    const thread = doc.children.find((node) => node.type === 'tag') as HtmlElement;
    const posts = findForumPosts(doc);
    expect(posts.size).toBe(2);
    expect(removeThreadChrome(thread, posts)).toBe(4);
    const text = collapseWhitespace(textOf(thread));
    expect(text).not.toMatch(/1\.9K views|11 replies|3 Likes|\b18\b/);
    expect(text).toContain('It had 12 replies by the evening.');
  });

  it('leaves an article alone beside its author box, both naming the author: not a thread of two', () => {
    const column = (body: string, author: string): string => `
      <div class="col-md-12"><p class="byline"><span class="author-name"><a href="/staff/${author}">${author}</a></span></p>${body}</div>`;
    const html = page(`<article class="row">
      ${column(`<div class="field-body"><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(3)}</p></div>`, 'Moritz Gathmann')}
      ${column('<p>Moritz Gathmann heads the Berlin desk and writes about Eastern Europe.</p>', 'Back to the index')}</article>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).not.toContain('**Moritz Gathmann**');
    expect(markdown).not.toContain('---');
  });

  it('takes no page column holding <main> for a post: the article stays one article above its comments', () => {
    const comment = (name: string): string => `
      <li class="comment"><div class="comment-author"><cite class="fn">${name}</cite></div><p>${PROSE}</p></li>`;
    const html = page(`<div class="grid">
      <div class="column col-main"><main><article><h1>Open thread</h1>
        <div class="entry-meta"><span class="author vcard"><a href="/author/kate">Kate</a></span></div>
        <p>${PROSE.repeat(3)}</p></article>
        <ol class="comment-list">${comment('Milan')}${comment('Alex')}</ol></main></div>
      <div class="column col-aside"><div class="author">Colin commented on</div><p>${PROSE}</p></div></div>`);
    const { markdown } = extractArticle(html, { baseUrl: URL });
    expect(markdown).not.toContain('**Kate**');
    expect(markdown).not.toContain('**Colin commented on**');
  });
  it("keeps a blog's article when one of its comments outscores it: a strong block outside the thread", () => {
    const news = 'The council voted on Monday, after a long night, to rebuild the bridge, which closed in May. ';
    const comment = (name: string, body: string): string => `
      <li class="reply"><div class="reply-author"><span class="username">${name}</span></div><div class="reply-body"><p>${body}</p></div></li>`;
    const html = page(`<div class="page">
      <div class="entry"><div class="entry-content"><p>${news.repeat(3)}</p><p>${news.repeat(2)}</p></div></div>
      <div class="responses"><ol class="reply-list">
        ${comment('milan', `${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}`)}${comment('alex', 'Thank you for writing this up, it answered my question about the vote.')}${comment('sam', PROSE)}
      </ol></div></div>`);
    const { markdown, explain } = extractArticle(html, { baseUrl: URL, explain: true });
    expect(markdown).toContain(news.repeat(3).trim());
    const notes = explain!.filter((entry) => entry.phase === 'candidates').map((entry) => entry.reason);
    expect(notes).toContainEqual(
      expect.stringMatching(/outside the thread scores as high: the thread is not the content$/),
    );
  });
});

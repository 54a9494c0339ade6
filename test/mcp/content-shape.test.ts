// Issue 24 scope item 4 through a real MCP client over stdio: a forum thread reads as posts with their author lines
// (read whole when one post scores highest; a Q&A question as the first post), a card hub as a list, each as the
// `fetch` tool returns it from a loopback page.
import { describe, expect, it } from 'vitest';
import { respondWith } from '../fixture-server.js';
import { cardHubPage, forumThreadPage, qaThreadPage, xenForoThreadPage } from '../fixtures/forum-pages.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({
  tools: 'fetch',
  setup: (fixtures) => {
    fixtures.route('/thread', respondWith('text/html; charset=utf-8', forumThreadPage()));
    fixtures.route('/shoes', respondWith('text/html; charset=utf-8', cardHubPage()));
    fixtures.route('/threads/skill', respondWith('text/html; charset=utf-8', xenForoThreadPage()));
    fixtures.route('/questions/catering', respondWith('text/html; charset=utf-8', qaThreadPage()));
  },
});

describe('the fetch tool', () => {
  it('returns a forum thread as posts: a break, the author line, the post; no member statistics or signatures', async () => {
    const result = await session.call('fetch', { url: server.url('/thread') });
    expect(result.isError).toBeFalsy();
    const posts = result.text.split('\n\n---\n\n');
    expect(posts).toHaveLength(3);
    expect(posts[0]).toMatch(/\*\*alice\*\* · 2024-03-01\n\nOur heating stops every night/);
    expect(posts[1]).toMatch(/^\*\*bob\*\* · 2024-03-02\n\nI had the same trouble last winter/);
    expect(posts[2]).toMatch(/^\*\*carol\*\* · 2024-03-03\n\nCheck the wiring first/);
    expect(result.text).not.toMatch(/Posts: 116|plumbing business|Reply|Quote/);
  });

  it('returns a whole thread when one post scores highest: every post with its author line, a short reply too', async () => {
    const result = await session.call('fetch', { url: server.url('/threads/skill') });
    expect(result.isError).toBeFalsy();
    const posts = result.text.split('\n\n---\n\n');
    expect(posts.map((post) => /\*\*(\w+)\*\* · /.exec(post)?.[1])).toEqual(['dana', 'eli', 'fay', 'gus']);
    expect(posts[2]).toMatch(/^\*\*fay\*\* · Jul 10, 2007\n\nThanks, that helps a lot!$/);
    expect(result.text.match(/Anyone can pull wire/g)).toHaveLength(1);
  });

  it('returns a question and its answers as posts, without the answer form or the vote counts', async () => {
    const result = await session.call('fetch', { url: server.url('/questions/catering') });
    expect(result.isError).toBeFalsy();
    const posts = result.text.split('\n\n---\n\n');
    expect(posts).toHaveLength(3);
    expect(posts[0]).toMatch(/\*\*kumiko\*\* · asked Feb 11, 2011 at 23:49\n\nI am starting a small catering service/);
    expect(posts[1]).toMatch(/^\*\*michael\*\* · answered Feb 12, 2011 at 1:01\n\nThe most important thing/);
    expect(posts[2]).toMatch(/^\*\*joe\*\* · answered Jan 20, 2015 at 19:39\n\nVisit the place in advance/);
    expect(result.text).not.toMatch(/Your Answer|Sign up or log in|Improve this answer|12k views/);
  });

  it('returns a card hub as a list, one item per card', async () => {
    const result = await session.call('fetch', { url: server.url('/shoes') });
    expect(result.isError).toBeFalsy();
    const items = result.text.split('\n').filter((line) => line.startsWith('- '));
    expect(items).toEqual([
      `- [Trail Runner 2](${server.url('/shoes/trail-runner-2')}) — A light shoe for rocky paths, with a grippy sole. · $120`,
      `- [Road Glide](${server.url('/shoes/road-glide')}) — Cushioned for long runs on tarmac and park paths. · $140`,
      `- [Track Spike](${server.url('/shoes/track-spike')}) — Stiff and fast, for the track and cross-country races. · $95`,
      `- [Daily Trainer](${server.url('/shoes/daily-trainer')}) — An everyday shoe that lasts for hundreds of miles. · $110`,
    ]);
  });
});

// A forum thread read whole (issue 24 scope item 4): when the block main-content scoring chose lies inside a post,
// the content is the thread — the element holding its posts, as forum-posts.ts read them — not that one post with
// whatever strong blocks joined it. Scoring picks the body of the longest reply; gathering then joined other posts'
// bodies without their heads (content-shape.ts found no posts to shape), the body of a quote as if it were a post
// (its words twice), and left out the posts too short to score. From the thread, content-shape.ts shapes every post.
//
// Three guards: the thread needs two posts by two authors at least (one block naming its author is an article); in
// a thread of two, the other post must say something (a tenth of their text: an article column beside its author's
// box, both naming the author, is not a thread); and no strong block may stand outside it (a blog's article
// above its comments: when a long comment outscores the article, the article is still the page's content, and the
// usual gathering decides).
//
// After shaping, the thread's own chrome goes: the reply form, schema.org counters (votes, likes, comment counts) and
// view statistics ("1.9K views", "11 replies"). Not handled: a thread split over pages (only this page's posts).
import { type Stats } from './block-stats.js';
import type { ForumPosts } from './forum-posts.js';
import { collapseWhitespace, isElement, isWithin, textOf, type HtmlElement } from './parse.js';
import { describeNode, traceNote, traceRemoved, type ExtractTrace } from './trace.js';

// In a thread of two, the post beside the one holding the chosen block holds this share of their text at least.
const OTHER_POST_MIN_SHARE = 0.1;
// A candidate outside the thread scoring this share of the best is content of its own beside it.
const RIVAL_SHARE = 0.5;
// The best-ranked candidates looked at for a rival.
const RIVALS_LOOKED_AT = 5;
// schema.org counters (https://schema.org/InteractionCounter, Answer, Comment): figures about a post, not its words.
const COUNTERS: ReadonlySet<string> = new Set([
  'upvoteCount',
  'downvoteCount',
  'commentCount',
  'answerCount',
  'interactionStatistic',
  'userInteractionCount',
  'interactionCount',
]);
// A statistic on its own: "1.9K views", "11 replies", "12 participants", "3 votes".
const STATISTIC =
  /^[\d.,]+\s*[KkMm]?\s+(?:views?|replies|reply|participants?|votes?|answers?|likes?|reactions?|comments?|followers?|watchers?)$/i;
const STATISTIC_MAX_CHARS = 40;

/**
 * The thread holding `top` when `top` lies inside one of its posts (or is one), or undefined: the thread's container
 * as forum-posts.ts read it (the posts' parent, or with a question above them the element holding both).
 */
export function findThreadContent(
  top: HtmlElement,
  posts: ForumPosts,
  ranked: readonly HtmlElement[],
  stats: Stats,
  trace?: ExtractTrace,
): HtmlElement | undefined {
  if (posts.size < 2) return undefined;
  // The outermost post holding `top`: a reply nested in a post belongs to the outer post's thread.
  let post: HtmlElement | undefined;
  for (let node: HtmlElement['parent'] = top; node && isElement(node); node = node.parent)
    if (posts.has(node)) post = node;
  if (!post) return undefined;
  const thread = posts.get(post)!.thread;
  if (!isElement(thread)) return undefined;
  const members = [...posts].filter(([, head]) => head.thread === thread);
  if (members.length < 2 || new Set(members.map(([, head]) => head.author)).size < 2) return undefined;
  // Two posts: the other says something beside the chosen one. An article and its author's box, two columns of one
  // page that both name the author, look like a thread of two; three such blocks or more are a conversation.
  if (members.length === 2) {
    const chars = (el: HtmlElement): number => collapseWhitespace(textOf(el)).length;
    const total = members.reduce((sum, [member]) => sum + chars(member), 0);
    if (total - chars(post) < total * OTHER_POST_MIN_SHARE) {
      if (trace) {
        const reason = `the chosen block is in one of two blocks naming an author, the other holding under ${OTHER_POST_MIN_SHARE * 100} % of their text: not a thread`;
        traceNote(trace, 'candidates', reason);
      }
      return undefined;
    }
  }
  const best = stats.get(ranked[0] ?? top)?.score ?? 0;
  const rival = ranked
    .slice(0, RIVALS_LOOKED_AT)
    .find(
      (candidate) =>
        (stats.get(candidate)?.score ?? 0) >= best * RIVAL_SHARE &&
        !isWithin(candidate, thread) &&
        !isWithin(thread, candidate),
    );
  if (rival) {
    if (trace) {
      const reason = `the chosen block is in a thread's post, but ${describeNode(rival)} outside the thread scores as high: the thread is not the content`;
      traceNote(trace, 'candidates', reason);
    }
    return undefined;
  }
  if (trace) {
    trace.push({
      phase: 'candidates',
      action: 'chosen',
      element: describeNode(thread),
      reason: `the chosen block is in a post of a thread of ${members.length} posts: the thread is the content`,
      numbers: { chars: collapseWhitespace(textOf(thread)).length },
    });
  }
  return thread;
}

/**
 * Removes the thread's chrome from shaped content: reply forms, schema.org counters, view and reply statistics.
 * Run after shaping (the posts are known to be a thread). Returns how many blocks went.
 */
export function removeThreadChrome(content: HtmlElement, posts: ForumPosts, trace?: ExtractTrace): number {
  // Each block is removed from the parent it was reached through: gathered content is a wrapper whose children keep
  // their own `parent`.
  const doomed: [HtmlElement, HtmlElement, string][] = [];
  const visit = (el: HtmlElement): void => {
    for (const child of el.children) {
      if (!isElement(child) || child.name === 'blockquote') continue;
      const why = chromeOf(child, posts);
      if (why) doomed.push([child, el, why]);
      else visit(child);
    }
  };
  visit(content);
  for (const [el, parent, why] of doomed) {
    if (trace) traceRemoved(trace, 'shape', el, `thread chrome: ${why}`);
    parent.children = parent.children.filter((child) => child !== el);
  }
  return doomed.length;
}

function chromeOf(el: HtmlElement, posts: ForumPosts): string | undefined {
  if (posts.has(el)) return undefined;
  if (el.name === 'form' && !holdsPost(el, posts)) return 'a reply form';
  const itemprop = el.attribs.itemprop;
  if (itemprop && itemprop.split(/\s+/).some((value) => COUNTERS.has(value)))
    return `a schema.org counter (${itemprop})`;
  const text = collapseWhitespace(textOf(el));
  if (text.length <= STATISTIC_MAX_CHARS && STATISTIC.test(text)) return 'a view or reply count';
  return undefined;
}

function holdsPost(el: HtmlElement, posts: ForumPosts): boolean {
  for (const post of posts.keys()) if (isWithin(post, el)) return true;
  return false;
}

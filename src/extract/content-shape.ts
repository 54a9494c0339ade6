// The chosen content's shape before it is rendered (issue 24 scope item 4): a forum thread as posts with their
// author lines (forum-posts.ts), a card hub as a list (card-list.ts). The text is the page's; what changes is how
// it is laid out and which chrome goes with it. A thread is never also a card hub: posts are looked for first. A
// shaped thread loses its own chrome too (thread-content.ts: the reply form, vote and view counts).
import { shapeCardLists } from './card-list.js';
import { shapeForumPosts, type ForumPosts } from './forum-posts.js';
import type { HtmlElement } from './parse.js';
import { removeThreadChrome } from './thread-content.js';
import type { ExtractTrace } from './trace.js';

export { findForumPosts, type ForumPosts } from './forum-posts.js';

export interface ShapeContentOptions {
  /** The page's posts, read before detection removed their author blocks (findForumPosts). */
  readonly posts: ForumPosts;
  /** The page declares one article (`og:type`): its content is not a card hub. */
  readonly declaresArticle: boolean;
  readonly trace?: ExtractTrace;
}

/** Shapes `content` in place: posts with their author lines, or cards as a list, or nothing. */
export function shapeContent(content: HtmlElement, options: ShapeContentOptions): void {
  const { trace } = options;
  const noted = trace?.length ?? 0;
  if (shapeForumPosts(content, options.posts, trace) > 0) {
    removeThreadChrome(content, options.posts, trace);
    return;
  }
  // Kept in step with main-content.ts, which asks the same before cleaning (card-list.ts `cardBlocks`).
  if (!options.declaresArticle) shapeCardLists(content, trace);
  // Nothing shaped and nothing said why: the trace says what was looked for, so a silent phase is not a skipped one.
  if (trace && trace.length === noted) {
    const cards = options.declaresArticle ? 'cards not looked for (the page declares an article)' : 'no run of cards';
    trace.push({
      phase: 'shape',
      action: 'note',
      reason: `not a thread (no two posts with an author line), ${cards}: the content keeps its shape`,
    });
  }
}

// Forum threads as posts (issue 24 scope item 4): each post read as a post — a thematic break, then its author line
// (`**alice** · March 1, 2024`), then what the post says — and the forum's chrome inside it (member statistics,
// signatures, reply/quote/report buttons) not kept.
//
// Two steps, because main-content detection removes author blocks (`author` is a boilerplate word, rightly for an
// article's byline box) before the content is chosen: `findForumPosts` reads the whole page first and only reads
// (the posts, their author and date), `shapeForumPosts` then rewrites the posts that reached the chosen content.
//
// A post is a block repeated under one parent (same tag, same first class token: `post bg1` / `post bg2`, XenForo's
// `message message--post`, Discourse's `topic-body crawler-post`) that names its author: `data-author` on the block,
// schema.org microdata (`itemprop="author"`), `rel="author"`, or a class naming the author (`username`,
// `post_author`, `PostUser-name`). No forum is named; quotes (`<blockquote>`) and replies nested in a post are not
// its author's. Why a bold line and a break, not a heading: the author is metadata, not a title — forty `###
// alice` headings would fill the page's outline (the `section` argument numbers headings) and clash with the
// headings a post writes itself; `---` is Markdown's "a new unit starts".
// A Q&A page's question sits above the answers, outside their run: it is read as the thread's opening post when it
// names its author as the answers do (the same name marker: tag, itemprop and first class), so the thread is the
// question with its answers. Not handled: a thread whose posts are otherwise not siblings of one parent; a name given
// only as an avatar's picture.
import { isDateLine } from './date-line.js';
import {
  collapseWhitespace,
  findElement,
  isElement,
  isWithin,
  textOf,
  type HtmlDocument,
  type HtmlElement,
  type HtmlNode,
} from './parse.js';
import { describeNode, traceRemoved, type ExtractTrace } from './trace.js';
import { NEVER_RENDERED } from './vocabulary.js';

/** A post's head: who wrote it and when, and the elements the page showed them in. */
export interface PostHead {
  readonly author: string;
  readonly date: string | undefined;
  /** Where the name was found (its author block goes when the post is shaped). */
  readonly nameElement: HtmlElement | undefined;
  readonly dateElement: HtmlElement | undefined;
  /**
   * The element holding the thread the post belongs to: its run's parent, or, with a question above the run, the
   * closest element holding both (thread-content.ts makes it the content).
   */
  readonly thread: HtmlElement | HtmlDocument;
}

/** The posts of a page, each with its head; empty when the page holds no run of posts. */
export type ForumPosts = Map<HtmlElement, PostHead>;

// A post says something: this many characters outside links (its author's name is a link, or not counted).
const POST_MIN_CHARS = 80;
// The posts must hold this share of the content's text at least.
const MIN_SHARE_OF_CONTENT = 0.5;
// A name longer than this is a sentence, not a name.
const NAME_MAX_CHARS = 60;
// A shown date longer than this is a line that holds a date, not the date.
const DATE_MAX_CHARS = 60;
// An author block (name, title, avatar, member statistics) is short; a longer block holds the post itself.
const AUTHOR_BLOCK_MAX_CHARS = 300;
// Buttons and toolbars ("Reply", "Quote", "Report", "Like 3") are a few words.
const CONTROLS_MAX_CHARS = 100;

// A class token naming the author's name: `username`, `ipsUsername`, `post_author`, `PostUser-name`, `author`.
const NAME_CLASS =
  /(?:^|[-_])(?:author|poster|creator|nickname)$|(?:user|author|poster|member|display)[-_]?name(?:$|[-_])/i;
const NAME_WORDS = /author|poster|creator|nickname|name/i;
// Blocks around the name that are about the member, not the post (the name's author block, a profile pane).
const AUTHOR_BLOCK = /author|user|poster|member|profile|byline|creator|meta|info/i;
// …unless they say they hold the post (`message-userContent`, `usertext-body`).
const POST_BODY = /body|content|text|message-?inner/i;
// A date's element: `post_date`, `relativetime`, `timestamp`, `posted-on`.
const DATE_CLASS = /date|time|posted/i;
// Where a post's author is not: quotes of other posts, forms and their labels.
const SKIPPED: ReadonlySet<string> = new Set(['blockquote', 'form', 'label', 'fieldset']);
// Links inside these are a post's words, not an entry's title.
const IN_PROSE: ReadonlySet<string> = new Set(['p', 'li', 'blockquote', 'pre']);
// A linked title has at least this many characters (a post number "#4" or "Reply" is not one).
const TITLE_MIN_CHARS = 10;
// A question above a run of answers is looked for this many levels up from the run's parent.
const OPENING_POST_LEVELS = 2;
// Links in a menu ("Share", "Improve this answer", "Follow") are a post's controls, not an entry's title.
const MENU = /(?:^|[-_\s])menu(?:bar)?(?:$|[-_\s])/i;
const MENU_TAGS: ReadonlySet<string> = new Set(['nav', 'menu']);
// Chrome inside a post: signatures, buttons and toolbars, reaction bars.
const SIGNATURE = /signature/i;
const CONTROLS =
  /(?:^|[-_\s])(?:actions?(?:-?bar)?|actionBar|buttons?|controls|toolbar|reactions?(?:-?bar)?)(?:$|[-_\s])/i;

/** Reads the posts of a page (before detection, which removes author blocks). Reads only: the tree is unchanged. */
export function findForumPosts(root: HtmlElement | HtmlDocument): ForumPosts {
  const posts: ForumPosts = new Map();
  // Children first: a reply nested in a post is a post of its own, and the outer post's head is looked for outside it.
  // Returns whether the subtree names an author anywhere, so a run is only read where two blocks at least do: one
  // pass over the page, not one per level.
  const visit = (parent: HtmlElement | HtmlDocument): boolean => {
    let marked: HtmlElement[] | undefined;
    for (const child of parent.children) {
      if (!isElement(child) || NEVER_RENDERED.has(child.name)) continue;
      const inside = visit(child);
      if (inside || isNameMarker(child) || child.attribs['data-author'] !== undefined) (marked ??= []).push(child);
    }
    if (marked && marked.length >= 2) readRuns(parent, marked, posts);
    return marked !== undefined;
  };
  visit(root);
  return posts;
}

/**
 * The runs of posts among the children of `parent` (same tag, same first class token), added to `posts`. `marked`
 * are the children that name an author somewhere: a run is read only where two of them share a key.
 */
function readRuns(parent: HtmlElement | HtmlDocument, marked: readonly HtmlElement[], posts: ForumPosts): void {
  const keys = new Map<string, number>();
  for (const child of marked) {
    const key = `${child.name}.${firstClass(child)}`;
    keys.set(key, (keys.get(key) ?? 0) + 1);
  }
  if (![...keys.values()].some((count) => count >= 2)) return;
  const groups = new Map<string, HtmlElement[]>();
  for (const child of parent.children) {
    if (!isElement(child) || NEVER_RENDERED.has(child.name)) continue;
    const key = `${child.name}.${firstClass(child)}`;
    if ((keys.get(key) ?? 0) < 2) continue;
    const group = groups.get(key);
    if (group) group.push(child);
    else groups.set(key, [child]);
  }
  for (const group of groups.values()) {
    // A block holding the page's <main> is a column of the page (the article, its comments under it; a sidebar of
    // recent comments beside it), not a post.
    if (group.some(holdsMain)) continue;
    const heads = group.map((member) => readHead(member, posts, parent));
    const named = heads.filter((head) => head !== undefined).length;
    // Most of the run names its author: a run of article teasers with a byline on one is not a thread.
    if (named < 2 || named * 2 < group.length) continue;
    // …and most of it says something in words of its own: the entries of a listing (a linked title, a date, an
    // author, a rating) name an author too, but their words are links and figures.
    const saying = group.filter((member, index) => heads[index] && unlinkedChars(member) >= POST_MIN_CHARS).length;
    if (saying * 2 < named) continue;
    const run = heads.filter((head): head is PostHead => head !== undefined);
    const opening = findOpeningPost(parent, run, posts);
    const thread = opening?.thread ?? parent;
    if (opening) posts.set(opening.post, opening.head);
    group.forEach((member, index) => {
      const head = heads[index];
      if (head) posts.set(member, thread === parent ? head : { ...head, thread });
    });
  }
}

/**
 * A Q&A page's question: the nearest block with text before the run's parent (or before one of its parents, up to
 * OPENING_POST_LEVELS), when it names its author with the marker the run's posts use and says something. A blog's
 * article above its comments names its author otherwise (a byline, not a comment's name tag) and stays apart.
 */
function findOpeningPost(
  parent: HtmlElement | HtmlDocument,
  run: readonly PostHead[],
  posts: ForumPosts,
): { post: HtmlElement; head: PostHead; thread: HtmlElement } | undefined {
  const keys = new Set(run.map((head) => markerKey(head)));
  if (keys.size !== 1) return undefined;
  const key = [...keys][0]!;
  let node: HtmlElement | HtmlDocument = parent;
  for (let level = 0; level <= OPENING_POST_LEVELS && isElement(node); level++) {
    const container: HtmlElement | HtmlDocument | null = node.parent;
    if (!container || !isElement(container) || container.name === 'body') return undefined;
    const before = previousWithText(node);
    if (before) {
      if (posts.has(before)) return undefined;
      const head = readHead(before, posts, container);
      if (!head || markerKey(head) !== key || unlinkedChars(before) < POST_MIN_CHARS) return undefined;
      return { post: before, head, thread: container };
    }
    node = container;
  }
  return undefined;
}

function holdsMain(el: HtmlElement): boolean {
  return findElement(el, (inner) => inner.name === 'main' || inner.attribs.role === 'main') !== undefined;
}

/** How a post shows its author's name: the marker's tag, itemprop and first class, or `data-author` on the post. */
function markerKey(head: PostHead): string {
  const el = head.nameElement;
  return el ? `${el.name}.${el.attribs.itemprop ?? ''}.${firstClass(el)}` : 'data-author';
}

/** The nearest element before `el` among its siblings that holds text. */
function previousWithText(el: HtmlElement): HtmlElement | undefined {
  const siblings = el.parent?.children ?? [];
  for (let index = siblings.indexOf(el) - 1; index >= 0; index--) {
    const sibling = siblings[index]!;
    if (!isElement(sibling) || NEVER_RENDERED.has(sibling.name)) continue;
    if (collapseWhitespace(textOf(sibling)) !== '') return sibling;
  }
  return undefined;
}

/**
 * Rewrites the posts that reached the chosen content: a break and the author line at the head of each, the author
 * block, date and chrome inside it removed. Two posts at least: one block with an author box is an article.
 * Returns how many posts were shaped.
 */
export function shapeForumPosts(content: HtmlElement, posts: ForumPosts, trace?: ExtractTrace): number {
  if (posts.size < 2) return 0;
  const found: HtmlElement[] = [];
  // Posts not inside another post: nested replies are counted within their outer post.
  const outer: HtmlElement[] = [];
  const visit = (el: HtmlElement, inPost: boolean): void => {
    for (const child of el.children) {
      if (!isElement(child)) continue;
      const isPost = posts.has(child);
      if (isPost) {
        found.push(child);
        if (!inPost) outer.push(child);
      }
      visit(child, inPost || isPost);
    }
  };
  if (posts.has(content)) {
    found.push(content);
    outer.push(content);
  }
  visit(content, posts.has(content));
  // A thread is a conversation: two authors at least (an article's header and body naming its one author are not).
  if (found.length < 2 || new Set(found.map((post) => posts.get(post)!.author)).size < 2) return 0;
  // The posts are the content (a thread), not blocks inside an article that name someone (picture credits, a
  // "more from our authors" strip).
  const postChars = outer.reduce((sum, post) => sum + collapseWhitespace(textOf(post)).length, 0);
  const contentChars = collapseWhitespace(textOf(content)).length;
  if (postChars < contentChars * MIN_SHARE_OF_CONTENT) {
    if (trace) {
      const reason = `not a forum thread: ${found.length} blocks name an author but hold ${postChars} of the content's ${contentChars} chars (under ${MIN_SHARE_OF_CONTENT * 100} %)`;
      trace.push({ phase: 'shape', action: 'note', reason });
    }
    return 0;
  }
  let shaped = 0;
  for (const post of found) {
    const head = posts.get(post)!;
    removeChrome(post, head, posts, trace);
    // A post left with nothing to read (its text was not chosen) gets no head either.
    if (collapseWhitespace(textOf(post)) === '') continue;
    const line: HtmlNode[] = [];
    const paragraph: HtmlElement = { type: 'tag', name: 'p', attribs: {}, children: line, parent: post };
    const strong: HtmlElement = { type: 'tag', name: 'strong', attribs: {}, children: [], parent: paragraph };
    strong.children.push({ type: 'text', data: head.author, parent: strong });
    line.push(strong);
    if (head.date) line.push({ type: 'text', data: ` · ${head.date}`, parent: paragraph });
    post.children.unshift(paragraph);
    // A break between posts, not before the first.
    if (shaped > 0) post.children.unshift({ type: 'tag', name: 'hr', attribs: {}, children: [], parent: post });
    shaped++;
  }
  if (trace) {
    const first = posts.get(found[0]!)!;
    const example = first.date ? `"${first.author} · ${first.date}"` : `"${first.author}"`;
    trace.push({
      phase: 'shape',
      action: 'note',
      element: describeNode(found[0]!),
      reason: `forum thread: ${shaped} posts, each after a break with its author line (the first: ${example}); member statistics, signatures and buttons in them removed`,
    });
  }
  return shaped;
}

/**
 * The blocks of the posts inside `root` that hold what a post says: the post, and each block in it with at least half
 * of its words outside its author block and date. Cleaning keeps them however short or linked they are: a reply of
 * four words, or one that is a link to the answer, is still a post (main-content.ts passes them to cleaning).
 */
export function listPostBodies(root: HtmlElement, posts: ForumPosts): Set<HtmlElement> {
  const bodies = new Set<HtmlElement>();
  if (posts.size < 2) return bodies;
  const chars = (el: HtmlElement): number => collapseWhitespace(textOf(el)).length;
  const visit = (el: HtmlElement): void => {
    for (const child of el.children) {
      if (!isElement(child)) continue;
      const head = posts.get(child);
      if (head) {
        bodies.add(child);
        const block = head.nameElement && authorBlock(head.nameElement, child);
        const date = head.dateElement && isInside(head.dateElement, child) ? head.dateElement : undefined;
        const dateChars = date && !(block && isWithin(date, block)) ? chars(date) : 0;
        const words = chars(child) - (block ? chars(block) : 0) - dateChars;
        // Only a block with half the words can hold a smaller one with half: the walk follows one or two chains.
        const holding = (inner: HtmlElement): void => {
          for (const part of inner.children) {
            if (!isElement(part) || part === block || posts.has(part) || part.name === 'blockquote') continue;
            if (words > 0 && chars(part) * 2 >= words) {
              bodies.add(part);
              holding(part);
            }
          }
        };
        holding(child);
      }
      visit(child);
    }
  };
  visit(root);
  return bodies;
}

/** Characters of text outside links, whitespace collapsed per text node. */
function unlinkedChars(el: HtmlElement): number {
  let chars = 0;
  for (const child of el.children) {
    if (child.type === 'text') chars += collapseWhitespace(child.data).length;
    else if (isElement(child) && child.name !== 'a' && !NEVER_RENDERED.has(child.name)) chars += unlinkedChars(child);
  }
  return chars;
}

function firstClass(el: HtmlElement): string {
  const value = el.attribs.class?.trim();
  return value ? value.split(/\s+/)[0]! : '';
}

/** The post's author and date, looked for outside quotes and outside the replies nested in it. */
function readHead(post: HtmlElement, posts: ForumPosts, thread: HtmlElement | HtmlDocument): PostHead | undefined {
  const dataAuthor = cleanName(post.attribs['data-author']);
  const nameElement = dataAuthor ? undefined : findInPost(post, posts, isNameMarker);
  const author = dataAuthor ?? (nameElement && nameOf(nameElement, posts));
  if (!author || (nameElement && leadsWithTitle(post, nameElement))) return undefined;
  const dateElement = findInPost(post, posts, (el) => dateOf(el) !== undefined);
  return { author, date: dateElement && dateOf(dateElement), nameElement, dateElement, thread };
}

/**
 * Whether a link to another page, set as a title (not inside a paragraph, a list item or a quote), comes before the
 * name: the entry of a listing ("The Hunger Games, by Suzanne Collins"; a review's title, its reviewer), not a post.
 * A post's own permalink points into the thread (`viewtopic.php?p=5#p5`) and does not count.
 */
function leadsWithTitle(post: HtmlElement, name: HtmlElement): boolean {
  let reachedName = false;
  const visit = (el: HtmlElement): boolean => {
    for (const child of el.children) {
      if (reachedName) return false;
      if (!isElement(child) || NEVER_RENDERED.has(child.name) || IN_PROSE.has(child.name) || isMenu(child)) continue;
      if (child === name) {
        reachedName = true;
        return false;
      }
      if (child.name === 'a') {
        const href = child.attribs.href ?? '';
        if (href !== '' && !href.includes('#') && collapseWhitespace(textOf(child)).length >= TITLE_MIN_CHARS)
          return true;
        continue;
      }
      if (visit(child)) return true;
    }
    return false;
  };
  return visit(post);
}

/** A post's menu or toolbar: its links are controls ("Share", "Improve this answer"), not titles. */
function isMenu(el: HtmlElement): boolean {
  if (MENU_TAGS.has(el.name)) return true;
  const role = el.attribs.role;
  if (role === 'menu' || role === 'menubar' || role === 'toolbar') return true;
  const names = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  return MENU.test(names) || CONTROLS.test(names);
}

/** The first element of `post` in document order that `test` accepts, quotes and nested posts skipped. */
function findInPost(post: HtmlElement, posts: ForumPosts, test: (el: HtmlElement) => boolean): HtmlElement | undefined {
  const visit = (el: HtmlElement): HtmlElement | undefined => {
    for (const child of el.children) {
      // A reply form's "Name" field is not the post's author.
      if (!isElement(child) || SKIPPED.has(child.name) || NEVER_RENDERED.has(child.name) || posts.has(child)) continue;
      if (test(child)) return child;
      const inner = visit(child);
      if (inner) return inner;
    }
    return undefined;
  };
  return visit(post);
}

function isNameMarker(el: HtmlElement): boolean {
  const itemprop = el.attribs.itemprop;
  if (itemprop && /(?:^|\s)(?:author|creator)(?:$|\s)/.test(itemprop)) return true;
  if (el.name === 'a' && el.attribs.rel && /(?:^|\s)author(?:$|\s)/.test(el.attribs.rel)) return true;
  const classes = el.attribs.class;
  // Most classes hold none of the words: tested whole before being split.
  return (
    classes !== undefined && NAME_WORDS.test(classes) && classes.split(/\s+/).some((token) => NAME_CLASS.test(token))
  );
}

/**
 * The name a marker shows: a more precise marker inside it first (`p.author` holds `a.username`), then schema.org's
 * `itemprop="name"`, then its first link with words (the avatar's link has none), then its own text.
 */
function nameOf(marker: HtmlElement, posts: ForumPosts): string | undefined {
  const inner = findInPost(marker, posts, isNameMarker);
  if (inner) {
    const name = nameOf(inner, posts);
    if (name) return name;
  }
  const named = findInPost(
    marker,
    posts,
    (el) => el.attribs.itemprop === 'name' && cleanName(textOf(el)) !== undefined,
  );
  if (named) return cleanName(textOf(named));
  const link = findInPost(marker, posts, (el) => el.name === 'a' && cleanName(textOf(el)) !== undefined);
  if (link) return cleanName(textOf(link));
  return cleanName(textOf(marker));
}

function cleanName(text: string | undefined): string | undefined {
  const name = collapseWhitespace(text ?? '').replace(/^@/, '');
  return name !== '' && name.length <= NAME_MAX_CHARS ? name : undefined;
}

/** The date an element shows: a `<time>` (its words, else its `datetime`), microdata, or a date-classed date line. */
function dateOf(el: HtmlElement): string | undefined {
  const shown = collapseWhitespace(textOf(el));
  if (el.name === 'time') {
    if (shown !== '' && shown.length <= DATE_MAX_CHARS) return shown;
    return el.attribs.datetime?.trim() || undefined;
  }
  const itemprop = el.attribs.itemprop;
  if (itemprop === 'datePublished' || itemprop === 'dateCreated') {
    const value = el.attribs.content ?? el.attribs.datetime ?? shown;
    return value.trim() !== '' && value.length <= DATE_MAX_CHARS ? value.trim() : undefined;
  }
  const classes = el.attribs.class;
  if (!classes || !DATE_CLASS.test(classes)) return undefined;
  // A date with an edit note beside it ("2019-02-23, 09:14 PM (This post was last modified …)"): its own words.
  const own = shown.length > DATE_MAX_CHARS ? ownText(el) : shown;
  if (own.length > DATE_MAX_CHARS || !/\d/.test(own)) return undefined;
  return isDateLine(own) || own.length <= 40 ? own : undefined;
}

/** The text written directly in `el`, not in its child elements. */
function ownText(el: HtmlElement): string {
  let text = '';
  for (const child of el.children) if (child.type === 'text') text += child.data;
  return collapseWhitespace(text);
}

/** Removes the author block, the shown date and the chrome of one post (not of the replies nested in it). */
function removeChrome(post: HtmlElement, head: PostHead, posts: ForumPosts, trace?: ExtractTrace): void {
  const doomed = new Map<HtmlElement, string>();
  const block = head.nameElement && authorBlock(head.nameElement, post);
  if (block) doomed.set(block, 'the post author block (now its author line)');
  if (head.dateElement && isInside(head.dateElement, post))
    doomed.set(head.dateElement, 'the post date (now in its author line)');
  const visit = (el: HtmlElement): void => {
    for (const child of el.children) {
      if (!isElement(child) || child.name === 'blockquote' || posts.has(child) || doomed.has(child)) continue;
      const names = `${child.attribs.class ?? ''} ${child.attribs.id ?? ''}`;
      const chars = collapseWhitespace(textOf(child)).length;
      if (SIGNATURE.test(names)) doomed.set(child, 'a signature');
      else if (CONTROLS.test(names) && chars <= CONTROLS_MAX_CHARS) doomed.set(child, 'buttons');
      else if (
        chars <= AUTHOR_BLOCK_MAX_CHARS &&
        AUTHOR_BLOCK.test(names) &&
        !POST_BODY.test(names) &&
        textOf(child).includes(head.author)
      )
        doomed.set(child, 'a profile pane (the author’s name, title, statistics)');
      else visit(child);
    }
  };
  visit(post);
  for (const [el, why] of doomed) {
    const parent = el.parent;
    if (!parent) continue;
    if (trace) traceRemoved(trace, 'shape', el, `forum chrome: ${why}`);
    parent.children = parent.children.filter((child) => child !== el);
  }
}

/** The outermost short block around the name that is about the member (`post_author`, `message-cell--user`). */
function authorBlock(name: HtmlElement, post: HtmlElement): HtmlElement | undefined {
  if (!isInside(name, post)) return undefined;
  let block: HtmlElement = name;
  for (let node = name.parent; node && isElement(node) && node !== post; node = node.parent) {
    if (collapseWhitespace(textOf(node)).length > AUTHOR_BLOCK_MAX_CHARS) break;
    const names = `${node.attribs.class ?? ''} ${node.attribs.id ?? ''} ${node.attribs.itemprop ?? ''}`;
    if (POST_BODY.test(names)) break;
    if (AUTHOR_BLOCK.test(names)) block = node;
  }
  return block;
}

/** Whether `el` is still in `post`: detection removes a block from its parent's children and leaves its `parent`. */
function isInside(el: HtmlElement, post: HtmlElement): boolean {
  let node: HtmlElement = el;
  for (let parent = el.parent; parent && isElement(parent); parent = parent.parent) {
    if (!parent.children.includes(node)) return false;
    if (parent === post) return true;
    node = parent;
  }
  return false;
}

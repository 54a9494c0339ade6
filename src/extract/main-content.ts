// Finds the element holding a page's main content. The scoring is Readability's (Mozilla reader view,
// Readability.js `_grabArticle`): paragraphs score by length and commas, pass the score up to their ancestors, and
// the best ancestor wins after a link-density penalty. What joins the winner is gather.ts's; what is cleaned out of
// it, clean-content.ts's; the numbers all three judge by, block-stats.ts's. Every rule here was measured on both
// fixed halves of the eval sets (docs/benchmarks.md, "Rules on trial"); no rule names a site.
import { emptyObjectArray } from './object-array.js';
import {
  classAndId,
  classWeight,
  countCommas,
  linkDensity,
  measure,
  numbersOf,
  onlyLayoutWords,
  PARAGRAPH_MIN_CHARS,
  proseLength,
  readsAsProse,
  trimmedLength,
  visibleTextLength,
  type Stats,
} from './block-stats.js';
import { cardBlocks } from './card-list.js';
import { cleanContent, trimTrailing } from './clean-content.js';
import { removeEchoCaptions } from './nothing-new.js';
import { chooseExtraction } from './compare.js';
import { gatherSiblings, isProsePart, traceJoined, widenShortContent, withLeadingProse } from './gather.js';
import { isElement, keepChildren, textOf, type HtmlDocument, type HtmlElement } from './parse.js';
import { withSameClass } from './same-class.js';
import { findThreadContent } from './thread-content.js';
import { listPostBodies, type ForumPosts } from './forum-posts.js';
import { withStrongCandidates } from './union.js';
import { describeNode, traceNote, traceRemoved, type ExtractTrace } from './trace.js';
import { BOILERPLATE_TAGS, MAYBE_CANDIDATE, SCORED_BLOCKS, UNLIKELY, UNLIKELY_ROLES } from './vocabulary.js';

export interface MainContent {
  readonly root: HtmlElement;
  readonly textLength: number;
}

export interface FindMainContentOptions {
  /** Remove blocks whose class/id looks like boilerplate before scoring (the first pass; the retry turns it off). */
  readonly stripUnlikely: boolean;
  /** Article title; a heading in the content that repeats it is dropped (the caller shows the title). */
  readonly title: string | undefined;
  /** The page says it is one article (`og:type`): the inclusive extraction is not compared (compare.ts). */
  readonly declaresArticle?: boolean;
  /**
   * The page's posts, read before detection (forum-posts.ts): a chosen block inside a post makes the thread the
   * content (thread-content.ts), and a post's link cards (`<aside>`) are not boilerplate.
   */
  readonly posts?: ForumPosts;
  /** Where each decision is recorded (`--explain`); absent, nothing is recorded and nothing costs. */
  readonly trace?: ExtractTrace;
}

const ANCESTOR_LEVELS = 5;
const TOP_CANDIDATES = 5;
const SHORT_BLOCK_CHARS = 200;

export function findMainContent(doc: HtmlDocument, options: FindMainContentOptions): MainContent | undefined {
  const body = findBody(doc);
  if (!body) return undefined;
  const trace = options.trace;
  removeBoilerplate(body, options.stripUnlikely, options.posts, trace);
  const stats: Stats = new Map();
  measure(body, stats, false);
  if ((stats.get(body)?.text ?? 0) === 0) return undefined;
  const candidates = emptyObjectArray<HtmlElement>();
  scoreParagraphs(body, stats, candidates);
  const { top, ranked } = pickTopCandidate(body, stats, candidates, trace);
  // A block inside a thread's post: the thread is the content (thread-content.ts), not the post with what joins it.
  const thread = options.posts && findThreadContent(top, options.posts, ranked, stats, trace);
  const article = thread ?? gather(top, ranked, body, stats, trace);
  // Cleaning and trimming take parts out of the content; a block holding most of its text is the content itself (a
  // post that is a list of links, say) and stays. So does what each post of a thread says, however short or linked.
  const mostText = (stats.get(article)?.text ?? visibleTextLength(article)) / 2;
  const bodies = options.posts && listPostBodies(article, options.posts);
  // A card hub's cards are mostly their linked titles: the link-density tests would take them for link farms. Looked
  // for as the shape phase looks for them (content-shape.ts, kept in step): not on a page that declares one article,
  // whose cards are teasers (without this test an article's "more from" strip stayed: docs/benchmarks.md).
  const cards = options.declaresArticle ? undefined : cardBlocks(article, trace);
  cleanContent(article, stats, options.title, mostText, trace, { stays: bodies, cards });
  removeEchoCaptions(article, trace);
  trimTrailing(article, stats, mostText, trace, bodies);
  const textLength = visibleTextLength(article);
  if (textLength === 0) return undefined;
  return chooseExtraction({ root: article, textLength }, body, stats, options, trace);
}

/** The chosen block with what joins it: its siblings, same-class parts, the prose before it, strong candidates. */
function gather(
  top: HtmlElement,
  ranked: HtmlElement[],
  body: HtmlElement,
  stats: Stats,
  trace: ExtractTrace | undefined,
): HtmlElement {
  const isPart = (el: HtmlElement): boolean => isProsePart(el, stats);
  const parts = withSameClass(top, gatherSiblings(top, stats), body, isPart);
  const leading = withLeadingProse(top, parts, stats, body, trace);
  const gathered = withStrongCandidates(leading, top, ranked, stats, body, isPart, trace);
  const article = widenShortContent(top, gathered, body, stats, trace);
  if (trace && article === gathered && article !== top) traceJoined(trace, article);
  return article;
}

function findBody(doc: HtmlDocument): HtmlElement | undefined {
  const html = doc.children.find((child): child is HtmlElement => isElement(child) && child.name === 'html');
  const body = (html ?? doc).children.find((child): child is HtmlElement => isElement(child) && child.name === 'body');
  if (body) return body;
  // A fragment without <body>: treat the <html> element (or a synthetic wrapper) as the body.
  return html ?? { type: 'tag', name: 'body', attribs: {}, children: doc.children, parent: doc };
}

// Removal happens on the way down, so a removed block's descendants are never visited.
function removeBoilerplate(
  root: HtmlElement,
  stripUnlikely: boolean,
  posts: ForumPosts | undefined,
  trace?: ExtractTrace,
): void {
  // A block with a boilerplate-like class that holds most of the page's prose is the content in an odd wrapper
  // (`above-footer`, `page-header-and-content`): it stays.
  const mostOfPage = stripUnlikely ? proseLength(root) / 2 : 0;
  const visit = (parent: HtmlElement, insideTable: boolean, insidePost: boolean): void => {
    keepChildren(parent, (child) => {
      if (!isElement(child)) return child.type === 'text';
      // In a post, an <aside> is what the poster linked to (a link card: the page's title and summary), not the
      // page's sidebar.
      const isLinkCard = child.name === 'aside' && insidePost;
      if (BOILERPLATE_TAGS.has(child.name) && !(child.name === 'form' && isLargeForm(child)) && !isLinkCard) {
        if (trace) traceRemoved(trace, 'boilerplate', child, `boilerplate tag <${child.name}>`);
        return false;
      }
      const role = child.attribs.role;
      if (role && UNLIKELY_ROLES.has(role)) {
        if (trace) traceRemoved(trace, 'boilerplate', child, `boilerplate role="${role}"`);
        return false;
      }
      if (stripUnlikely && !insideTable && child.name !== 'a' && child.name !== 'article' && child.name !== 'main') {
        const names = classAndId(child);
        if (names && UNLIKELY.test(names) && !MAYBE_CANDIDATE.test(names) && proseLength(child) <= mostOfPage) {
          const word = UNLIKELY.exec(names)![0];
          const kept = onlyLayoutWords(names, UNLIKELY) ? keptDespiteLayoutWord(child) : undefined;
          if (kept) {
            if (trace) traceKeptLayout(trace, child, word, kept);
          } else {
            if (trace) traceRemoved(trace, 'boilerplate', child, `unlikely class or id: "${word}"`);
            return false;
          }
        }
      }
      visit(child, insideTable || child.name === 'table' || child.name === 'code', insidePost || !!posts?.has(child));
      return true;
    });
  };
  visit(root, false, false);
}

/**
 * Why a block whose class holds only a layout word stays, or undefined when it does not: it reads as prose, or it is a
 * section's heading (`<h2>`–`<h6>` with words outside a link) — a title over prose, never prose itself, so a layout
 * word in its class (`header-anchor-post`) is no more reason to drop it than one in a paragraph's.
 */
function keptDespiteLayoutWord(el: HtmlElement): string | undefined {
  if (readsAsProse(el)) return 'the block reads as prose';
  if (/^h[2-6]$/.test(el.name) && proseLength(el) >= 2) return 'the block is a section heading';
  return undefined;
}

/** A block kept although its class looks like boilerplate (`--explain`): only a layout word, and why it stays. */
function traceKeptLayout(trace: ExtractTrace, el: HtmlElement, word: string, why: string): void {
  const reason = `kept: "${word}" is a layout word and ${why}`;
  trace.push({ phase: 'boilerplate', action: 'note', element: describeNode(el), reason });
}

// Some sites (ASP.NET) wrap the whole page in one <form>: keep a form that holds real prose.
function isLargeForm(form: HtmlElement): boolean {
  return textOf(form).length > 1000;
}

/** Own text of an element: its text nodes and inline children, not text inside nested blocks. */
function ownText(el: HtmlElement, stats: Stats): { length: number; commas: number } {
  let length = 0;
  let commas = 0;
  for (const child of el.children) {
    if (child.type === 'text') {
      length += trimmedLength(child.data);
      commas += countCommas(child.data);
    } else if (isElement(child) && !SCORED_BLOCKS.has(child.name)) {
      const inner = stats.get(child);
      if (inner) {
        length += inner.text;
        commas += inner.commas;
      }
    }
  }
  return { length, commas };
}

function initialScore(el: HtmlElement): number {
  let score = classWeight(el);
  switch (el.name) {
    case 'div':
    case 'article':
    case 'main':
    case 'section':
      score += 5;
      break;
    case 'pre':
    case 'td':
    case 'blockquote':
      score += 3;
      break;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      score -= 3;
      break;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      score -= 5;
      break;
  }
  return score;
}

function scoreParagraphs(root: HtmlElement, stats: Stats, candidates: HtmlElement[]): void {
  const visit = (el: HtmlElement): void => {
    for (const child of el.children) if (isElement(child)) visit(child);
    // Every element with enough text of its own scores, inline ones too: text set in a <span> or <font> directly in
    // a container credits it. Scoring only block elements held on the shared eval pages and cost about 0.009 F1 on
    // the news set's unseen half (issue 11). The page title's <h1> is not prose: scoring it let a title block with a
    // content-like class win (Readability leaves h1 out of its scored tags too).
    if (el.name === 'h1') return;
    const own = ownText(el, stats);
    if (own.length < PARAGRAPH_MIN_CHARS) return;
    // A paragraph's worth: one point, one per comma, one per 100 characters up to three (Readability).
    const contentScore = 1 + own.commas + Math.min(Math.floor(own.length / 100), 3);
    let ancestor: HtmlElement | HtmlDocument | null = el.parent;
    for (let level = 0; level < ANCESTOR_LEVELS && ancestor && isElement(ancestor); level++) {
      const node = stats.get(ancestor);
      if (!node) break;
      if (!node.isCandidate) {
        node.isCandidate = true;
        node.score = initialScore(ancestor);
        candidates.push(ancestor);
      }
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      node.score += contentScore / divider;
      if (ancestor === root) break;
      ancestor = ancestor.parent;
    }
  };
  visit(root);
}

function pickTopCandidate(
  body: HtmlElement,
  stats: Stats,
  candidates: HtmlElement[],
  trace?: ExtractTrace,
): { top: HtmlElement; ranked: HtmlElement[] } {
  for (const candidate of candidates) {
    const node = stats.get(candidate)!;
    // A block with a line of text cannot be the article however content-like its class: scale it down, so class
    // weight alone never beats paragraphs of prose.
    node.score *= (1 - linkDensity(node)) * Math.min(1, node.text / SHORT_BLOCK_CHARS);
  }
  const ranked = candidates
    .filter((candidate) => candidate !== body)
    .sort((a, b) => stats.get(b)!.score - stats.get(a)!.score);
  let top = ranked[0];
  if (!top) {
    if (trace) traceNote(trace, 'candidates', 'no block scored as prose: the whole body is the content');
    return { top: body, ranked };
  }
  const topScore = stats.get(top)!.score;
  // When several strong candidates sit under one ancestor, the content is split across them: take the ancestor.
  const alternatives = ranked
    .slice(1, TOP_CANDIDATES)
    .filter((candidate) => stats.get(candidate)!.score / topScore >= 0.75)
    .map((candidate) => ancestorsOf(candidate));
  if (alternatives.length >= 3) {
    let parent = top.parent;
    while (parent && isElement(parent) && parent !== body) {
      const containing = alternatives.filter((ancestors) => ancestors.has(parent as HtmlElement)).length;
      if (containing >= 3) {
        top = parent;
        break;
      }
      parent = parent.parent;
    }
  }
  // Climb while the parent scores higher: the content is the parent with its other parts.
  let lastScore = stats.get(top)!.score;
  const minScore = lastScore / 3;
  let parent = top.parent;
  while (parent && isElement(parent) && parent !== body) {
    const node = stats.get(parent);
    if (!node?.isCandidate) {
      parent = parent.parent;
      continue;
    }
    if (node.score < minScore) break;
    if (node.score > lastScore) {
      top = parent;
      break;
    }
    lastScore = node.score;
    parent = parent.parent;
  }
  // A lone child adds nothing its parent does not have: use the parent, it may hold a title or image beside.
  while (
    top.parent &&
    isElement(top.parent) &&
    top.parent !== body &&
    top.parent.children.filter(isElement).length === 1
  ) {
    top = top.parent;
  }
  if (trace) traceCandidates(trace, ranked, top, stats);
  return { top, ranked };
}

/** The chosen block and the best-scored candidates beside it (`--explain`). */
function traceCandidates(trace: ExtractTrace, ranked: HtmlElement[], top: HtmlElement, stats: Stats): void {
  // pickTopCandidate moves from the best-scored block to an ancestor for one of three reasons; which one is not kept.
  const best = ranked[0]!;
  const reason =
    top === best
      ? 'highest score'
      : 'an ancestor of rank 1: strong candidates share it, it scores higher, or rank 1 is its only block';
  trace.push({
    phase: 'candidates',
    action: 'chosen',
    element: describeNode(top),
    reason,
    numbers: numbersOf(top, stats),
  });
  ranked.slice(0, TOP_CANDIDATES).forEach((candidate, index) => {
    if (candidate === top) return;
    const inside = ancestorsOf(candidate).has(top) ? ', inside the chosen block' : '';
    const reason = `rank ${index + 1}${inside}`;
    trace.push({
      phase: 'candidates',
      action: 'runner-up',
      element: describeNode(candidate),
      reason,
      numbers: numbersOf(candidate, stats),
    });
  });
}

function ancestorsOf(el: HtmlElement): Set<HtmlElement> {
  const ancestors = new Set<HtmlElement>();
  for (let node = el.parent; node && isElement(node); node = node.parent) ancestors.add(node);
  return ancestors;
}

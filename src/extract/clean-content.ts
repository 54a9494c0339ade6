// Conditional cleaning of the chosen content (Readability's `_cleanConditionally`, gentler on lists and tables) and
// the trim of its trailing boilerplate: captions, link farms, link-only paragraphs, fragments, headings with nothing
// after them.
import {
  PARAGRAPH_MIN_CHARS,
  classAndId,
  classWeight,
  hasDescendant,
  linkDensity,
  numbersOf,
  type Stats,
} from './block-stats.js';
import { collapseWhitespace, isElement, keepChildren, textOf, type HtmlElement, type HtmlNode } from './parse.js';
import { DATE_LINE_MAX_CHARS, isDateLine } from './date-line.js';
import { RENDERS_NOTHING_REASON, rendersNothing } from './nothing-new.js';
import { traceRemoved, type ExtractTrace } from './trace.js';
import { CAPTION, CONTAINER_TAGS, SIGN_UP } from './vocabulary.js';

/** The blocks `cleanContent` spares, each in its own way (below). */
export interface CleanSpared {
  readonly keep?: ReadonlySet<HtmlElement> | undefined;
  readonly stays?: ReadonlySet<HtmlElement> | undefined;
  readonly cards?: ReadonlySet<HtmlElement> | undefined;
}

/**
 * Readability's conditional cleaning, gentler on lists and tables: inside the content, a block goes when its class
 * says boilerplate, or when it is mostly links, or when it is a short fragment of images or form controls. Blocks in
 * `keep` (already cleaned) are left as they are; blocks in `stays` (what a thread's posts say: `listPostBodies` in
 * forum-posts.ts) are cleaned inside but stay however short or linked they are. The `cards` of a card hub
 * (card-list.ts `cardBlocks`), what holds them and what they hold, are not judged by link density: a card is mostly
 * its linked title.
 */
export function cleanContent(
  article: HtmlElement,
  stats: Stats,
  title: string | undefined,
  mostText: number,
  trace?: ExtractTrace,
  spared: CleanSpared = {},
): void {
  const { keep, stays, cards } = spared;
  const normalizedTitle = normalizeText(title);
  const holdsCards = cards && cards.size > 0 ? holdersOf(cards, article) : undefined;
  const visit = (el: HtmlElement, inCard: boolean): void => {
    keepChildren(el, (child) => {
      if (!isElement(child) || keep?.has(child)) return true;
      if (stays?.has(child)) {
        visit(child, inCard);
        return true;
      }
      const name = child.name;
      const isCard = inCard || (cards?.has(child) ?? false);
      const judgesLinks = !isCard && !(holdsCards?.has(child) ?? false);
      // A sign-up box inside the content (a newsletter form, a subscription pitch) goes whatever else its class says
      // (`newsletter-form__wrapper--inbodyContent`): it asks the reader to do something, it is not what they read.
      const names = classAndId(child);
      if (names && SIGN_UP.test(names) && (stats.get(child)?.text ?? 0) <= mostText) {
        if (trace) traceRemoved(trace, 'cleaning', child, `sign-up box: class or id "${SIGN_UP.exec(names)![0]}"`);
        return false;
      }
      // A line that is only a date (a dateline, a post's or a member's date): the page's metadata, not its text.
      if (isDateBlock(child, stats)) {
        if (trace) traceRemoved(trace, 'cleaning', child, 'a date line (a date, a label, a time, nothing else)');
        return false;
      }
      // Figure captions: both evaluation sets' ground truths leave them out of the article; the image stays, with
      // its alt text.
      if (name === 'figcaption' || isCaption(child, stats)) {
        if (trace) {
          const reason = name === 'figcaption' ? 'caption <figcaption>' : 'caption or credit class';
          traceRemoved(trace, 'cleaning', child, reason, numbersOf(child, stats));
        }
        return false;
      }
      if (/^h[1-6]$/.test(name)) {
        // The heading that repeats the title: the caller already has the title.
        if (normalizedTitle && normalizeText(textOf(child)) === normalizedTitle) {
          if (trace)
            traceRemoved(
              trace,
              'cleaning',
              child,
              'heading repeats the title (the title is printed above the content)',
            );
          return false;
        }
        return true;
      }
      if (
        name === 'div' ||
        name === 'section' ||
        name === 'ul' ||
        name === 'ol' ||
        name === 'table' ||
        name === 'header' ||
        name === 'dl'
      ) {
        const drop = (stats.get(child)?.text ?? 0) <= mostText ? shouldDrop(child, stats, judgesLinks) : undefined;
        if (drop) {
          if (trace) traceRemoved(trace, 'cleaning', child, drop, numbersOf(child, stats));
          return false;
        }
      }
      if (name === 'p' && judgesLinks && isLinkParagraph(child, stats, mostText)) {
        if (trace)
          traceRemoved(trace, 'cleaning', child, 'nearly all link text (link density > 0.8)', numbersOf(child, stats));
        return false;
      }
      visit(child, isCard);
      return true;
    });
  };
  visit(article, false);
}

/** The blocks between `root` and each card: a run's wrapper is as link-heavy as its cards. */
function holdersOf(cards: ReadonlySet<HtmlElement>, root: HtmlElement): Set<HtmlElement> {
  const holders = new Set<HtmlElement>();
  for (const card of cards) {
    for (let node = card.parent; node && isElement(node) && node !== root && !holders.has(node); node = node.parent)
      holders.add(node);
  }
  return holders;
}

// Blocks that can be a line of their own; a table's cells are data, a heading is judged as a heading.
const DATE_BLOCKS: ReadonlySet<string> = new Set([
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'dd',
  'dt',
  'section',
  'header',
  'address',
]);

function isDateBlock(el: HtmlElement, stats: Stats): boolean {
  if (!DATE_BLOCKS.has(el.name)) return false;
  const chars = stats.get(el)?.text ?? 0;
  if (chars === 0 || chars > DATE_LINE_MAX_CHARS || !isDateLine(collapseWhitespace(textOf(el)))) return false;
  return !MEDIA.some((name) => hasDescendant(el, name));
}

const CAPTION_MAX_CHARS = 300;

function isCaption(el: HtmlElement, stats: Stats): boolean {
  const names = classAndId(el);
  if (!names || !CAPTION.test(names)) return false;
  return (stats.get(el)?.text ?? 0) <= CAPTION_MAX_CHARS && !hasDescendant(el, 'img') && !hasDescendant(el, 'picture');
}

/** For comparing a heading with the title: whitespace collapsed, case folded. */
function normalizeText(text: string | undefined): string {
  return collapseWhitespace(text).toLowerCase();
}

/**
 * Trailing boilerplate inside the content: after the last paragraph, articles end in "more on this topic" headings,
 * link lists and teaser boxes. From the end backwards, a heading with nothing after it or a mostly-links block goes;
 * the first block of prose stops the trim.
 */
export function trimTrailing(
  root: HtmlElement,
  stats: Stats,
  mostText: number,
  trace?: ExtractTrace,
  keep?: ReadonlySet<HtmlElement>,
): void {
  for (;;) {
    const children = root.children;
    let index = children.length - 1;
    while (index >= 0 && isBlank(children[index]!)) index--;
    if (index < 0) return;
    const last = children[index]!;
    if (!isElement(last) || keep?.has(last)) return;
    const node = stats.get(last);
    // An element that renders nothing (an empty <p>, a spacer, a no-break space, placeholder pictures) neither stops
    // the trim nor stays (nothing-new.ts).
    if (node && rendersNothing(last, node)) {
      // Traced where the markup holds something (a no-break space, a placeholder picture): an empty <p> is not news.
      if (trace && (node.text > 0 || MEDIA.some((name) => hasDescendant(last, name))))
        traceRemoved(trace, 'trailing', last, RENDERS_NOTHING_REASON, numbersOf(last, stats));
      children.splice(index, 1);
      continue;
    }
    if (isNoticeBox(children, index, stats)) {
      if (trace) traceRemoved(trace, 'trailing', last, NOTICE_BOX_REASON, numbersOf(last, stats));
      children.splice(index, 1);
      continue;
    }
    const isHeading = /^h[1-6]$/.test(last.name);
    const isLinkBlock = last.name !== 'p' && node && node.text > 0 && node.text <= mostText && linkDensity(node) > 0.5;
    if (isHeading || isLinkBlock) {
      if (trace) {
        const reason = isHeading
          ? 'heading with nothing after it'
          : 'mostly links (link density > 0.5) after the last prose';
        traceRemoved(trace, 'trailing', last, reason, numbersOf(last, stats));
      }
      children.splice(index, 1);
      continue;
    }
    // A container ends where its own last block ends; one left empty goes, and the trim goes on before it.
    if (!CONTAINER_TAGS.has(last.name)) return;
    trimTrailing(last, stats, mostText, trace, keep);
    if (!last.children.every(isBlank)) return;
    children.splice(index, 1);
  }
}

const MEDIA = ['img', 'picture', 'table', 'video', 'iframe'];

// A short notice boxed after the article's last prose: "follow us on…", "get our app", a rating widget, a licence or
// copyright line, an author box — plain wrappers with no telling class (issue 24; docs/benchmarks.md, "Third pass").
// A box, not a paragraph: a container of its own after a block of prose that is not of its kind — its tag and class,
// or its tag and child elements (content written as a run of `div.paragraph`, one `<section>` per paragraph, or
// replies each in a block of their own is not a box) — with no heading (a section of a landing page has one).
const NOTICE_BOX_MAX_CHARS = 250;
const PROSE_BEFORE_MIN_CHARS = 150;
const PROSE_BEFORE_MAX_LINK_DENSITY = 0.3;
const NOTICE_BOX_REASON = `a short box (≤ ${NOTICE_BOX_MAX_CHARS} chars, no heading) after the last prose block`;
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

function isNoticeBox(children: readonly HtmlNode[], index: number, stats: Stats): boolean {
  const box = children[index]!;
  if (!isElement(box) || !CONTAINER_TAGS.has(box.name)) return false;
  const text = stats.get(box)?.text ?? 0;
  if (text === 0 || text > NOTICE_BOX_MAX_CHARS || HEADINGS.some((name) => hasDescendant(box, name))) return false;
  for (let i = index - 1; i >= 0; i--) {
    const before = children[i]!;
    if (isBlank(before)) continue;
    if (!isElement(before)) return false;
    const node = stats.get(before);
    if (!node || node.text === 0) continue;
    if (isSameKind(before, box)) return false;
    return node.text >= PROSE_BEFORE_MIN_CHARS && linkDensity(node) < PROSE_BEFORE_MAX_LINK_DENSITY;
  }
  return false;
}

/** Two blocks of one run: the same tag, and the same class or the same child elements (replies, paragraphs). */
function isSameKind(a: HtmlElement, b: HtmlElement): boolean {
  if (a.name !== b.name) return false;
  if ((a.attribs.class ?? '') === (b.attribs.class ?? '')) return true;
  const shape = (el: HtmlElement): string =>
    el.children
      .filter(isElement)
      .map((child) => child.name)
      .join(' ');
  return shape(a) === shape(b);
}

// trafilatura's link-density test for one element: a paragraph that is nearly all link text is a pointer elsewhere
// ("sign up here", "read the full story", a linked teaser line), not the article's prose.
const LINK_PARAGRAPH_DENSITY = 0.8;

function isLinkParagraph(el: HtmlElement, stats: Stats, mostText: number): boolean {
  const node = stats.get(el);
  return node !== undefined && node.text > 0 && node.text <= mostText && linkDensity(node) > LINK_PARAGRAPH_DENSITY;
}

function isBlank(node: HtmlNode): boolean {
  return node.type === 'text' ? node.data.trim() === '' : !isElement(node);
}

/**
 * Why a block inside the content goes (conditional cleaning), or undefined when it stays. Without `judgesLinks` (a
 * card, or a block holding cards or held by one) the link-density tests are skipped.
 */
function shouldDrop(el: HtmlElement, stats: Stats, judgesLinks: boolean): string | undefined {
  const node = stats.get(el);
  if (!node) return undefined;
  const weight = classWeight(el);
  const score = node.isCandidate ? node.score : 0;
  // Only a boilerplate class condemns a block by score: lists start below zero in Readability's scheme, and
  // trafilatura's lesson is that lists inside the content are content.
  if (weight < 0 && weight + score < 0) return 'boilerplate-like class or id, score below zero';
  const density = linkDensity(node);
  const isList = el.name === 'ul' || el.name === 'ol' || el.name === 'dl';
  // Link farms: navigation lists, tag clouds, "read more" boxes.
  if (judgesLinks && weight < 25 && density > (isList ? 0.5 : 0.33) && node.text < 2000) {
    return isList ? 'link farm: a list, link density > 0.5' : 'link farm: link density > 0.33';
  }
  if (judgesLinks && weight >= 25 && density > 0.5) return 'link density > 0.5 despite a content-like class';
  // A short table with header cells or a grid of cells is data (a price list, a score), not a fragment.
  if (node.text < PARAGRAPH_MIN_CHARS && !hasDescendant(el, 'img') && !isList && !isDataTable(el)) {
    return 'too short, no image';
  }
  return undefined;
}

function isDataTable(el: HtmlElement): boolean {
  if (el.name !== 'table') return false;
  if (hasDescendant(el, 'th')) return true;
  let rows = 0;
  const countRows = (node: HtmlElement): void => {
    for (const child of node.children) {
      if (!isElement(child) || child.name === 'table') continue;
      if (child.name === 'tr') {
        if (child.children.filter((cell) => isElement(cell) && cell.name === 'td').length >= 2) rows++;
      } else countRows(child);
    }
  };
  countRows(el);
  return rows >= 2;
}

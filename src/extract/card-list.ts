// Card hubs as lists (issue 24 scope item 4): a listing or collection page made of cards — a picture, a linked
// title, a short text each — reads as one list item per card, `- [Title](url) — short text`, instead of a loose run
// of pictures, headings and paragraphs. Only when the content IS the cards: teaser cards beside an article are not
// in the chosen content (detection drops them), and a page that declares one article is never shaped here.
// A card: a block (not a paragraph) of at most CARD_MAX_CHARS whose title is a heading with a link (inside it or
// around it), else — with a picture — a link whose class says title or name, else its first link with words when
// nothing comes before it; a run: at least MIN_CARDS
// such blocks, same tag, under one parent, most of its blocks.
// Not handled: cards without a linked title (a grid of prices with a "Buy" button), tables of items (they are tables).
import { collapseWhitespace, isElement, textOf, type HtmlElement, type HtmlNode } from './parse.js';
import { describeNode, type ExtractTrace } from './trace.js';
import { BLOCK_ELEMENTS, NEVER_RENDERED } from './vocabulary.js';

const MIN_CARDS = 3;
// A card is short: a title and a line or two. A block with more is a section of prose.
const CARD_MAX_CHARS = 400;
// The cards must be the content to be listed: this share of its text at least.
const MIN_SHARE_OF_CONTENT = 0.6;
// … and a good part of it to be kept from the cleaner's link-density tests (cardBlocks): measured before cleaning,
// when the content still holds what cleaning will take out, so the bar is lower than the listing's.
const MIN_SHARE_TO_KEEP = 0.3;
const TITLE_CLASS = /title|name|heading|headline/i;
// Blocks a card is built of; a paragraph with a link in it is a sentence, not a card.
const CARD_TAGS: ReadonlySet<string> = new Set(['div', 'li', 'article', 'section', 'a', 'figure']);
const HEADING = /^h[1-6]$/;

interface Card {
  readonly title: string;
  readonly href: string;
  readonly titleElement: HtmlElement;
}

/**
 * Rewrites each run of cards in the chosen content as a list, when the runs hold most of its text. Returns how many
 * cards were listed (0: the content is not a card hub, and is unchanged).
 */
export function shapeCardLists(content: HtmlElement, trace?: ExtractTrace): number {
  const runs = findCardRuns(content);
  if (runs.length === 0) return 0;
  const cardChars = charsOfCards(runs);
  const contentChars = collapseWhitespace(textOf(content)).length;
  if (cardChars < contentChars * MIN_SHARE_OF_CONTENT) {
    if (trace) {
      const reason = `not a card hub: ${countCards(runs)} cards hold ${cardChars} of the content's ${contentChars} chars (under ${MIN_SHARE_OF_CONTENT * 100} %), the content keeps its shape`;
      trace.push({ phase: 'shape', action: 'note', reason });
    }
    return 0;
  }
  let listed = 0;
  for (const run of runs) {
    listed += run.cards.size;
    if (trace) {
      trace.push({
        phase: 'shape',
        action: 'note',
        element: describeNode(run.parent),
        reason: `card hub: ${run.cards.size} cards (a linked title and a short text each) listed as "- [Title](url) — text"`,
      });
    }
    replaceRuns(run.parent, run.cards);
  }
  return listed;
}

/**
 * The cards of content about to be cleaned, when they hold at least MIN_SHARE_TO_KEEP of its text; else none. A card
 * is mostly its linked title, so the cleaner's link-density tests see a link farm in it: on a card hub they would
 * drop the cards, which are the content (clean-content.ts exempts these blocks, what holds them and what they hold).
 * Found as shapeCardLists finds them, before cleaning: the same cards the shape phase lists afterwards.
 */
export function cardBlocks(content: HtmlElement, trace?: ExtractTrace): ReadonlySet<HtmlElement> {
  const runs = findCardRuns(content);
  if (runs.length === 0) return new Set();
  const cardChars = charsOfCards(runs);
  const contentChars = collapseWhitespace(textOf(content)).length;
  if (cardChars < contentChars * MIN_SHARE_TO_KEEP) return new Set();
  if (trace) {
    const share = Math.round((cardChars / Math.max(1, contentChars)) * 100);
    const where = runs.length > 1 ? ` in ${runs.length} runs` : '';
    const reason = `${countCards(runs)} cards${where} hold ${share} % of the content's text (at least ${MIN_SHARE_TO_KEEP * 100} %): they are kept from the link-density tests`;
    trace.push({ phase: 'cleaning', action: 'note', element: describeNode(runs[0]!.parent), reason });
  }
  return new Set(runs.flatMap((run) => [...run.cards.keys()]));
}

interface CardRun {
  readonly parent: HtmlElement;
  readonly cards: Map<HtmlElement, Card>;
}

/** Each run of cards in `content`: at least MIN_CARDS blocks of one tag under one parent, most of its blocks. */
function findCardRuns(content: HtmlElement): CardRun[] {
  const runs: CardRun[] = [];
  const visit = (el: HtmlElement): void => {
    const children = el.children.filter(isElement);
    // Cards are read only where MIN_CARDS blocks of one tag sit side by side: one count per parent, no text read.
    const tags = new Map<string, number>();
    for (const child of children) if (CARD_TAGS.has(child.name)) tags.set(child.name, (tags.get(child.name) ?? 0) + 1);
    const byTag = new Map<string, Map<HtmlElement, Card>>();
    for (const child of children) {
      if ((tags.get(child.name) ?? 0) < MIN_CARDS) continue;
      const card = readCard(child);
      if (!card) continue;
      const cards = byTag.get(child.name) ?? new Map<HtmlElement, Card>();
      cards.set(child, card);
      byTag.set(child.name, cards);
    }
    const best = [...byTag.values()].sort((a, b) => b.size - a.size)[0];
    // A card run is most of its parent's blocks (an advert or a "load more" beside it is not a card).
    if (best && best.size >= MIN_CARDS && best.size * 2 > children.length) {
      runs.push({ parent: el, cards: best });
      return;
    }
    for (const child of children) visit(child);
  };
  visit(content);
  return runs;
}

function charsOfCards(runs: readonly CardRun[]): number {
  let chars = 0;
  for (const run of runs) for (const card of run.cards.keys()) chars += collapseWhitespace(textOf(card)).length;
  return chars;
}

function countCards(runs: readonly CardRun[]): number {
  return runs.reduce((n, run) => n + run.cards.size, 0);
}

/** A card's title and link, or undefined when the block is not a card. */
function readCard(el: HtmlElement): Card | undefined {
  if (!CARD_TAGS.has(el.name)) return undefined;
  const chars = boundedTextLength(el, CARD_MAX_CHARS);
  if (chars === 0 || chars > CARD_MAX_CHARS) return undefined;
  const heading = findFirst(el, (x) => HEADING.test(x.name));
  if (heading) {
    const inner = findFirst(heading, (x) => x.name === 'a' && hasHref(x));
    const around = inner ? undefined : linkAround(heading, el);
    const link = inner ?? around;
    const title = collapseWhitespace(textOf(heading));
    if (link && isWords(title)) return { title, href: link.attribs.href!, titleElement: heading };
    // A heading that is a number ("1" under a coupon's picture) is not the title: the card's links may hold it.
    if (isWords(title)) return undefined;
  }
  // No heading: a card has its picture (a list of links with words after each is a list already, and stays one),
  // and the link whose class says title (the longest, not the picture's link numbered "1"), else the first link
  // with words.
  if (!findFirst(el, (x) => x.name === 'img')) return undefined;
  const links = findAll(el, (x) => x.name === 'a' && hasHref(x) && isWords(collapseWhitespace(textOf(x))));
  const titled = links.filter((x) => TITLE_CLASS.test(`${x.attribs.class ?? ''} ${x.attribs.id ?? ''}`));
  // The first link stands as a title only when it leads the card (pictures aside): "/01 How search works" is a
  // numbered step, not a card.
  const link = titled.length > 0 ? longest(titled) : links[0] && leadsCard(el, links[0]) ? links[0] : undefined;
  if (!link) return undefined;
  return { title: collapseWhitespace(textOf(link)), href: link.attribs.href!, titleElement: link };
}

/** Whether no words come before `link` in `card`. */
function leadsCard(card: HtmlElement, link: HtmlElement): boolean {
  let words = false;
  const visit = (el: HtmlElement): boolean => {
    for (const child of el.children) {
      if (child === link) return true;
      if (child.type === 'text') words ||= child.data.trim() !== '';
      else if (isElement(child) && !NEVER_RENDERED.has(child.name) && visit(child)) return true;
      if (words) return false;
    }
    return false;
  };
  return visit(card) && !words;
}

/** A title has letters: not a number ("1", "#4") or a symbol. */
function isWords(text: string): boolean {
  return text.length >= 3 && /\p{L}/u.test(text);
}

function longest(links: readonly HtmlElement[]): HtmlElement {
  return links.reduce((best, link) => (textOf(link).trim().length > textOf(best).trim().length ? link : best));
}

function findAll(root: HtmlElement, test: (el: HtmlElement) => boolean): HtmlElement[] {
  const found: HtmlElement[] = [];
  const visit = (el: HtmlElement): void => {
    for (const child of el.children) {
      if (!isElement(child) || NEVER_RENDERED.has(child.name)) continue;
      if (test(child)) found.push(child);
      else visit(child);
    }
  };
  visit(root);
  return found;
}

/**
 * Characters of text in `el`, counted until past `max` (then any number over it): a block's size is asked of every
 * block of the content at every level, and a large one must not be read whole each time. Raw characters, so
 * whitespace counts: an upper bound of the collapsed length.
 */
function boundedTextLength(el: HtmlElement, max: number): number {
  let chars = 0;
  const visit = (node: HtmlElement): void => {
    for (const child of node.children) {
      if (chars > max) return;
      if (child.type === 'text') chars += child.data.trim() === '' ? 0 : collapseWhitespace(child.data).length + 1;
      else if (isElement(child) && !NEVER_RENDERED.has(child.name)) visit(child);
    }
  };
  visit(el);
  return chars;
}

function hasHref(el: HtmlElement): boolean {
  const href = el.attribs.href?.trim();
  return href !== undefined && href !== '' && !href.startsWith('#');
}

/** The link a heading sits in, below the card (`<a class="card"><h3>…</h3></a>`). */
function linkAround(heading: HtmlElement, card: HtmlElement): HtmlElement | undefined {
  for (let node: HtmlElement = heading; node !== card;) {
    const parent = node.parent;
    if (!parent || !isElement(parent)) return undefined;
    if (parent.name === 'a' && hasHref(parent)) return parent;
    node = parent;
  }
  return card.name === 'a' && hasHref(card) ? card : undefined;
}

function findFirst(root: HtmlElement, test: (el: HtmlElement) => boolean): HtmlElement | undefined {
  for (const child of root.children) {
    if (!isElement(child) || NEVER_RENDERED.has(child.name)) continue;
    if (test(child)) return child;
    const inner = findFirst(child, test);
    if (inner) return inner;
  }
  return undefined;
}

/** Each run of consecutive cards under `parent` becomes one `<ul>`; what sits between runs stays where it was. */
function replaceRuns(parent: HtmlElement, cards: Map<HtmlElement, Card>): void {
  // Cards that are a list's items already become items in place: a list inside a list renders only under an item.
  if (parent.name === 'ul' || parent.name === 'ol') {
    parent.children = parent.children.map((child) => {
      const card = isElement(child) ? cards.get(child) : undefined;
      return card ? listItem(child as HtmlElement, card, parent) : child;
    });
    return;
  }
  const children: HtmlNode[] = [];
  let list: HtmlElement | undefined;
  for (const child of parent.children) {
    const card = isElement(child) ? cards.get(child) : undefined;
    if (!card) {
      // Whitespace between cards does not end the list.
      if (list && child.type === 'text' && child.data.trim() === '') continue;
      list = undefined;
      children.push(child);
      continue;
    }
    if (!list) {
      list = { type: 'tag', name: 'ul', attribs: {}, children: [], parent };
      children.push(list);
    }
    list.children.push(listItem(child as HtmlElement, card, list));
  }
  parent.children = children;
}

/** `<li><a href>Title</a> — the card's other words, its blocks joined by " · "</li>`. */
function listItem(el: HtmlElement, card: Card, list: HtmlElement): HtmlElement {
  const item: HtmlElement = { type: 'tag', name: 'li', attribs: {}, children: [], parent: list };
  const link: HtmlElement = { type: 'tag', name: 'a', attribs: { href: card.href }, children: [], parent: item };
  link.children.push({ type: 'text', data: card.title, parent: link });
  item.children.push(link);
  // "[API](…): the reference" reads "[API](…) — the reference".
  const rest = otherWords(el, card.titleElement).replace(/^[\s:·,;–—-]+/, '');
  if (rest) item.children.push({ type: 'text', data: ` — ${rest}`, parent: item });
  return item;
}

/** The card's words outside its title, one piece per block, joined by " · " (a picture's alt text is not read). */
function otherWords(card: HtmlElement, title: HtmlElement): string {
  const pieces: string[] = [];
  let current = '';
  const flush = (): void => {
    const text = collapseWhitespace(current);
    if (text && !pieces.includes(text)) pieces.push(text);
    current = '';
  };
  const visit = (node: HtmlNode): void => {
    if (node.type === 'text') {
      current += node.data;
      return;
    }
    if (!isElement(node) || node === title || NEVER_RENDERED.has(node.name)) return;
    const isBlock = BLOCK_ELEMENTS.has(node.name);
    if (isBlock) flush();
    for (const child of node.children) visit(child);
    if (isBlock) flush();
  };
  visit(card);
  flush();
  return pieces.join(' · ');
}

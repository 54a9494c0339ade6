// Finds the element holding a page's main content. The scoring is Readability's (Mozilla reader view,
// Readability.js `_grabArticle`): paragraphs score by length and commas, pass the score up to their ancestors, the
// best ancestor wins after a link-density penalty, and its siblings join when they score close to it. Changes
// inspired by trafilatura: tables and lists inside the content are kept unless they are link farms; cookie and
// consent blocks count as boilerplate; and a second, gentler pass recovers pages where the first found too little.
// All measured on the eval sets (bench/extract.mjs); no rule names a site.
import { cleanText } from '../clean-text.js';
import {
  collapseWhitespace,
  findElement,
  isElement,
  textOf,
  type HtmlDocument,
  type HtmlElement,
  type HtmlNode,
} from './parse.js';
import { withSameClass } from './same-class.js';
import { describeNode, textChars, traceNote, traceRemoved, type ExplainNumbers, type ExtractTrace } from './trace.js';

export interface MainContent {
  readonly root: HtmlElement;
  readonly textLength: number;
}

export interface FindMainContentOptions {
  /** Remove blocks whose class/id looks like boilerplate before scoring (the first pass; the retry turns it off). */
  readonly stripUnlikely: boolean;
  /** Article title; a heading in the content that repeats it is dropped (the caller shows the title). */
  readonly title: string | undefined;
  /** Where each decision is recorded (`--explain`); absent, nothing is recorded and nothing costs. */
  readonly trace?: ExtractTrace;
}

// Readability's patterns, plus `author` and `byline` boxes (the only additions that hold on both halves of the eval
// split: docs/benchmarks.md, "Rules on trial").
const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote|author|byline/i;
const MAYBE_CANDIDATE = /and|article|body|column|content|main|mathjax|shadow/i;
const POSITIVE =
  /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story|paragraph|prose|rich-?text/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog']);

/** Structural boilerplate, removed whatever its class says. */
const BOILERPLATE_TAGS = new Set(['nav', 'aside', 'footer', 'form', 'dialog', 'menu']);
/** Tags whose own text makes a scored paragraph (Readability's DEFAULT_TAGS_TO_SCORE, plus li and blockquote). */
const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li',
  'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'br',
]); // prettier-ignore
/** Wrappers whose last block is where the content ends (lists, tables and quotes are read whole). */
const CONTAINER_TAGS = new Set(['div', 'section', 'article', 'main', 'header', 'center']);
const PARAGRAPH_MIN_CHARS = 25;
const ANCESTOR_LEVELS = 5;
const TOP_CANDIDATES = 5;
const SHORT_BLOCK_CHARS = 200;

interface Node {
  /** Characters of text in the subtree (whitespace collapsed roughly: runs count once). */
  text: number;
  /** Characters of text inside links in the subtree. */
  linkText: number;
  /** Commas in the subtree's text (Readability's "this looks like prose" signal). */
  commas: number;
  score: number;
  isCandidate: boolean;
}

export function findMainContent(doc: HtmlDocument, options: FindMainContentOptions): MainContent | undefined {
  const body = findBody(doc);
  if (!body) return undefined;
  const trace = options.trace;
  removeBoilerplate(body, options.stripUnlikely, trace);
  const stats = new Map<HtmlElement, Node>();
  measure(body, stats, false);
  if ((stats.get(body)?.text ?? 0) === 0) return undefined;
  const candidates: HtmlElement[] = [];
  scoreParagraphs(body, stats, candidates);
  const top = pickTopCandidate(body, stats, candidates, trace);
  const parts = withSameClass(top, gatherSiblings(top, stats), body, (el) => isProsePart(el, stats));
  const gathered = withLeadingProse(top, parts, stats, body);
  const article = widenShortContent(top, gathered, body, stats, trace);
  if (trace && article === gathered && article !== top) traceJoined(trace, article);
  // Cleaning and trimming take parts out of the content; a block holding most of its text is the content itself (a
  // post that is a list of links, say) and stays.
  const mostText = (stats.get(article)?.text ?? visibleTextLength(article)) / 2;
  cleanContent(article, stats, options.title, mostText, trace);
  trimTrailing(article, stats, mostText, trace);
  const textLength = visibleTextLength(article);
  return textLength > 0 ? { root: article, textLength } : undefined;
}

// trafilatura's comparison with a more inclusive extraction, for pages whose content is several blocks (a landing
// page's sections, a product's description, features and specifications, a documentation page with tabs): when the
// chosen content is short and holds less than half of the page's prose, the nearest ancestor that holds most of the
// prose is the content. Only short choices: on an article the winner is long, and widening it takes in what is
// around it.
const WIDEN_BELOW_CHARS = 500;
const WIDEN_SHARE = 0.5;
const WIDEN_TO_SHARE = 0.8;

function widenShortContent(
  top: HtmlElement,
  chosen: HtmlElement,
  body: HtmlElement,
  stats: Map<HtmlElement, Node>,
  trace: ExtractTrace | undefined,
): HtmlElement {
  // Prose from the measured counts (text outside links): no walk of the tree on the common path.
  const prose = (el: HtmlElement): number => {
    const node = stats.get(el);
    if (node) return node.text - node.linkText;
    let sum = 0; // a gathered wrapper: its parts were measured
    for (const child of el.children) if (isElement(child)) sum += prose(child);
    return sum;
  };
  const chosenProse = prose(chosen);
  if (chosenProse >= WIDEN_BELOW_CHARS) return chosen;
  const pageProse = prose(body);
  if (chosenProse >= pageProse * WIDEN_SHARE) return chosen;
  let wider: HtmlElement = top;
  // The page's own <article> or <main> around the choice bounds the widening: the page says its content is there.
  while (
    prose(wider) < pageProse * WIDEN_TO_SHARE &&
    wider.name !== 'article' &&
    wider.name !== 'main' &&
    wider.parent &&
    isElement(wider.parent)
  ) {
    wider = wider.parent;
  }
  if (wider === top) return chosen;
  if (trace) {
    const reason = `the chosen content is short (${chosenProse} chars of prose) and holds under half of the page's ${pageProse}: widened to the block holding most of it`;
    traceNote(trace, 'candidates', reason);
  }
  return wider;
}

function findBody(doc: HtmlDocument): HtmlElement | undefined {
  const html = doc.children.find((child): child is HtmlElement => isElement(child) && child.name === 'html');
  const body = (html ?? doc).children.find((child): child is HtmlElement => isElement(child) && child.name === 'body');
  if (body) return body;
  // A fragment without <body>: treat the <html> element (or a synthetic wrapper) as the body.
  return html ?? { type: 'tag', name: 'body', attribs: {}, children: doc.children, parent: doc };
}

function classAndId(el: HtmlElement): string {
  const { class: className, id } = el.attribs;
  return className && id ? `${className} ${id}` : (className ?? id ?? '');
}

/** Readability's class weight: +25 for a content-like class or id, −25 for a boilerplate-like one. */
function classWeight(el: HtmlElement): number {
  let weight = 0;
  for (const value of [el.attribs.class, el.attribs.id]) {
    if (!value) continue;
    if (NEGATIVE.test(value)) weight -= 25;
    if (POSITIVE.test(value)) weight += 25;
  }
  return weight;
}

// Removal happens on the way down, so a removed block's descendants are never visited.
function removeBoilerplate(root: HtmlElement, stripUnlikely: boolean, trace?: ExtractTrace): void {
  // A block with a boilerplate-like class that holds most of the page's prose is the content in an odd wrapper
  // (`above-footer`, `page-header-and-content`): it stays.
  const mostOfPage = stripUnlikely ? proseLength(root) / 2 : 0;
  const visit = (parent: HtmlElement, insideTable: boolean): void => {
    parent.children = parent.children.filter((child) => {
      if (!isElement(child)) return child.type === 'text';
      if (BOILERPLATE_TAGS.has(child.name) && !(child.name === 'form' && isLargeForm(child))) {
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
          if (trace) traceRemoved(trace, 'boilerplate', child, `unlikely class or id: "${UNLIKELY.exec(names)![0]}"`);
          return false;
        }
      }
      visit(child, insideTable || child.name === 'table' || child.name === 'code');
      return true;
    });
  };
  visit(root, false);
}

/** Characters of text outside links: prose, as opposed to navigation. */
function proseLength(el: HtmlElement): number {
  let length = 0;
  for (const child of el.children) {
    if (child.type === 'text') length += trimmedLength(child.data);
    else if (isElement(child) && child.name !== 'a') length += proseLength(child);
  }
  return length;
}

// Some sites (ASP.NET) wrap the whole page in one <form>: keep a form that holds real prose.
function isLargeForm(form: HtmlElement): boolean {
  return textOf(form).length > 1000;
}

/** Fills `stats` bottom-up with text, link text and comma counts. */
function measure(el: HtmlElement, stats: Map<HtmlElement, Node>, insideLink: boolean): Node {
  const node: Node = { text: 0, linkText: 0, commas: 0, score: 0, isCandidate: false };
  const isLink = insideLink || el.name === 'a';
  for (const child of el.children) {
    if (child.type === 'text') {
      const length = trimmedLength(child.data);
      node.text += length;
      if (isLink) node.linkText += length;
      node.commas += countCommas(child.data);
    } else if (isElement(child)) {
      const inner = measure(child, stats, isLink);
      node.text += inner.text;
      node.linkText += inner.linkText;
      node.commas += inner.commas;
    }
  }
  stats.set(el, node);
  return node;
}

function trimmedLength(text: string): number {
  // Runs of whitespace count as one character, as a reader sees them.
  let length = 0;
  let inSpace = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isSpace = code === 32 || code === 10 || code === 9 || code === 13 || code === 12;
    if (!isSpace) length++;
    else if (!inSpace) length++;
    inSpace = isSpace;
  }
  return length;
}

// Commas of several scripts: Latin, CJK (、，), Arabic (،).
function countCommas(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 || code === 0x3001 || code === 0xff0c || code === 0x060c) count++;
  }
  return count;
}

function linkDensity(stats: Node): number {
  return stats.text === 0 ? 0 : stats.linkText / stats.text;
}

/** Own text of an element: its text nodes and inline children, not text inside nested blocks. */
function ownText(el: HtmlElement, stats: Map<HtmlElement, Node>): { length: number; commas: number } {
  let length = 0;
  let commas = 0;
  for (const child of el.children) {
    if (child.type === 'text') {
      length += trimmedLength(child.data);
      commas += countCommas(child.data);
    } else if (isElement(child) && !BLOCK_TAGS.has(child.name)) {
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

function scoreParagraphs(root: HtmlElement, stats: Map<HtmlElement, Node>, candidates: HtmlElement[]): void {
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
  stats: Map<HtmlElement, Node>,
  candidates: HtmlElement[],
  trace?: ExtractTrace,
): HtmlElement {
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
    return body;
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
  return top;
}

/** The chosen block and the best-scored candidates beside it (`--explain`). */
function traceCandidates(
  trace: ExtractTrace,
  ranked: HtmlElement[],
  top: HtmlElement,
  stats: Map<HtmlElement, Node>,
): void {
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

/** Siblings or leading prose that joined the chosen block (`--explain`). */
function traceJoined(trace: ExtractTrace, article: HtmlElement): void {
  const blocks = article.children.filter(isElement).length;
  traceNote(
    trace,
    'candidates',
    `the chosen block's siblings, its same-class parts or the prose before it joined it (${blocks} blocks)`,
    {
      chars: textChars(article),
    },
  );
}

/** What a block was judged on: its score (when it is a candidate), text length and link density. */
function numbersOf(el: HtmlElement, stats: Map<HtmlElement, Node>): ExplainNumbers {
  const node = stats.get(el);
  if (!node) return { chars: textChars(el) };
  const measured = { chars: node.text, linkDensity: linkDensity(node) };
  return node.isCandidate ? { score: node.score, ...measured } : measured;
}

function ancestorsOf(el: HtmlElement): Set<HtmlElement> {
  const ancestors = new Set<HtmlElement>();
  for (let node = el.parent; node && isElement(node); node = node.parent) ancestors.add(node);
  return ancestors;
}

const SENTENCE_END = /\.( |$)/;

/** The top candidate plus siblings that score close to it or read like prose (Readability's sibling pass). */
function gatherSiblings(top: HtmlElement, stats: Map<HtmlElement, Node>): HtmlElement {
  const parent = top.parent;
  const topNode = stats.get(top)!;
  if (!parent || !isElement(parent)) return top;
  const threshold = Math.max(10, topNode.score * 0.2);
  const kept: HtmlNode[] = [];
  for (const sibling of parent.children) {
    if (!isElement(sibling)) continue;
    if (sibling === top) {
      kept.push(sibling);
      continue;
    }
    const node = stats.get(sibling);
    if (!node) continue;
    let bonus = 0;
    if (sibling.attribs.class && sibling.attribs.class === top.attribs.class) bonus += topNode.score * 0.2;
    if (node.isCandidate && node.score + bonus >= threshold) {
      kept.push(sibling);
    } else if (sibling.name === 'p' || sibling.name === 'ul' || sibling.name === 'ol' || sibling.name === 'table') {
      const density = linkDensity(node);
      const text = textOf(sibling);
      if (
        (node.text > 80 && density < 0.25) ||
        (node.text > 0 && node.text <= 80 && density === 0 && SENTENCE_END.test(text))
      ) {
        kept.push(sibling);
      }
    }
  }
  if (kept.length === 1) return top;
  return { type: 'tag', name: 'div', attribs: {}, children: kept, parent: null };
}

/** A block that reads as a part of the article: some prose, few links, no linked heading. */
function isProsePart(el: HtmlElement, stats: Map<HtmlElement, Node>): boolean {
  const stat = stats.get(el);
  return (
    stat !== undefined && stat.text >= LEADING_MIN_CHARS && linkDensity(stat) < 0.25 && !hasLinkedHeading(el, stats)
  );
}

/** A heading that is a link: the mark of a teaser (a card linking to another page), not of a part of this one. */
function hasLinkedHeading(el: HtmlElement, stats: Map<HtmlElement, Node>): boolean {
  return (
    findElement(el, (child) => {
      if (!/^h[1-6]$/.test(child.name)) return false;
      const stat = stats.get(child);
      return stat !== undefined && stat.text > 0 && stat.linkText * 2 >= stat.text;
    }) !== undefined
  );
}

// How far up from the top candidate, and how many blocks back at each level, leading prose is looked for.
const LEADING_LEVELS = 5;
const LEADING_BLOCKS = 2;
const LEADING_MIN_CHARS = 80;

/**
 * The prose just before the content, one or more levels up: a lead paragraph in the article's header, an intro block,
 * the first body field of a CMS that splits the body over sibling blocks. Readability's sibling pass only looks
 * beside the top candidate, so an article whose opening sits beside one of its ancestors lost its first paragraphs.
 * At each level up, the nearest blocks before are taken while they read as prose (paragraphs, few links); the first
 * that does not stops that level. Only what comes before: after the content come comments and teasers.
 */
function withLeadingProse(
  top: HtmlElement,
  article: HtmlElement,
  stats: Map<HtmlElement, Node>,
  body: HtmlElement,
): HtmlElement {
  const leading: HtmlNode[] = [];
  for (let level = 0, node = top; level < LEADING_LEVELS; level++, node = node.parent as HtmlElement) {
    const parent = node.parent;
    if (!parent || !isElement(parent) || parent === body) break;
    if (level === 0 && article !== top) continue; // gatherSiblings has judged the top's own siblings
    const before: HtmlNode[] = [];
    for (let index = parent.children.indexOf(node) - 1; index >= 0 && before.length < LEADING_BLOCKS; index--) {
      const sibling = parent.children[index]!;
      const stat = isElement(sibling) ? stats.get(sibling) : undefined;
      if (!stat || stat.text === 0) continue;
      // A date line or byline between the lead and the body is passed over, not taken.
      if (stat.text < LEADING_MIN_CHARS && stat.linkText === 0) continue;
      if (!isLeadingProse(sibling as HtmlElement, stat)) break;
      before.unshift(sibling);
    }
    leading.unshift(...before);
  }
  if (leading.length === 0) return article;
  return { type: 'tag', name: 'div', attribs: {}, children: [...leading, article], parent: null };
}

function isLeadingProse(el: HtmlElement, stat: Node): boolean {
  if (stat.text < LEADING_MIN_CHARS || linkDensity(stat) >= 0.2 || /^h[1-6]$/.test(el.name)) return false;
  return el.name === 'p' || hasDescendant(el, 'p');
}

/**
 * Readability's conditional cleaning, gentler on lists and tables: inside the content, a block goes when its class
 * says boilerplate, or when it is mostly links, or when it is a short fragment of images or form controls.
 */
function cleanContent(
  article: HtmlElement,
  stats: Map<HtmlElement, Node>,
  title: string | undefined,
  mostText: number,
  trace?: ExtractTrace,
): void {
  const normalizedTitle = normalizeText(title);
  const visit = (el: HtmlElement): void => {
    el.children = el.children.filter((child) => {
      if (!isElement(child)) return true;
      const name = child.name;
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
        const drop = (stats.get(child)?.text ?? 0) <= mostText ? shouldDrop(child, stats) : undefined;
        if (drop) {
          if (trace) traceRemoved(trace, 'cleaning', child, drop, numbersOf(child, stats));
          return false;
        }
      }
      if (name === 'p' && isLinkParagraph(child, stats, mostText)) {
        if (trace)
          traceRemoved(trace, 'cleaning', child, 'nearly all link text (link density > 0.8)', numbersOf(child, stats));
        return false;
      }
      visit(child);
      return true;
    });
  };
  visit(article);
}

// Picture captions and credits outside <figcaption>: WordPress's `wp-caption-text`, `credit`, `copyright` lines,
// `img-metadata`, `image-annotation`. Short, and without the picture itself (a wrapper holding the image stays).
const CAPTION = /caption|credit|copyright|img-?meta|image-?annotation/i;
const CAPTION_MAX_CHARS = 300;

function isCaption(el: HtmlElement, stats: Map<HtmlElement, Node>): boolean {
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
function trimTrailing(root: HtmlElement, stats: Map<HtmlElement, Node>, mostText: number, trace?: ExtractTrace): void {
  for (;;) {
    const children = root.children;
    let index = children.length - 1;
    while (index >= 0 && isBlank(children[index]!)) index--;
    if (index < 0) return;
    const last = children[index]!;
    if (!isElement(last)) return;
    const node = stats.get(last);
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
    trimTrailing(last, stats, mostText, trace);
    if (!last.children.every(isBlank)) return;
    children.splice(index, 1);
  }
}

// trafilatura's link-density test for one element: a paragraph that is nearly all link text is a pointer elsewhere
// ("sign up here", "read the full story", a linked teaser line), not the article's prose.
const LINK_PARAGRAPH_DENSITY = 0.8;

function isLinkParagraph(el: HtmlElement, stats: Map<HtmlElement, Node>, mostText: number): boolean {
  const node = stats.get(el);
  return node !== undefined && node.text > 0 && node.text <= mostText && linkDensity(node) > LINK_PARAGRAPH_DENSITY;
}

function isBlank(node: HtmlNode): boolean {
  return node.type === 'text' ? node.data.trim() === '' : !isElement(node);
}

/** Why a block inside the content goes (conditional cleaning), or undefined when it stays. */
function shouldDrop(el: HtmlElement, stats: Map<HtmlElement, Node>): string | undefined {
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
  if (weight < 25 && density > (isList ? 0.5 : 0.33) && node.text < 2000) {
    return isList ? 'link farm: a list, link density > 0.5' : 'link farm: link density > 0.33';
  }
  if (weight >= 25 && density > 0.5) return 'link density > 0.5 despite a content-like class';
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

function hasDescendant(el: HtmlElement, name: string): boolean {
  for (const child of el.children) {
    if (isElement(child) && (child.name === name || hasDescendant(child, name))) return true;
  }
  return false;
}

export function visibleTextLength(root: HtmlElement | HtmlDocument): number {
  return cleanText(textOf(root)).replace(/\s+/g, ' ').trim().length;
}

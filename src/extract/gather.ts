// What joins the chosen block: its siblings that score close to it or read as prose (Readability's sibling pass), the
// prose just before it a few levels up, blocks of its tag and class elsewhere (same-class.ts), and for a short choice
// on a page of several blocks, the block that holds most of the page's prose.
import { hasDescendant, linkDensity, type BlockStats, type Stats } from './block-stats.js';
import { findElement, isElement, textOf, type HtmlElement, type HtmlNode } from './parse.js';
import { describeNode, textChars, traceNote, type ExtractTrace } from './trace.js';

// trafilatura's comparison with a more inclusive extraction, for pages whose content is several blocks (a landing
// page's sections, a product's description, features and specifications, a documentation page with tabs): when the
// chosen content is short and holds less than half of the page's prose, the nearest ancestor that holds most of the
// prose is the content. Only short choices: on an article the winner is long, and widening it takes in what is
// around it.
const WIDEN_BELOW_CHARS = 500;
const WIDEN_SHARE = 0.5;
const WIDEN_TO_SHARE = 0.8;

export function widenShortContent(
  top: HtmlElement,
  chosen: HtmlElement,
  body: HtmlElement,
  stats: Stats,
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

/** Siblings or leading prose that joined the chosen block (`--explain`). */
export function traceJoined(trace: ExtractTrace, article: HtmlElement): void {
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

const SENTENCE_END = /\.( |$)/;

/** The top candidate plus siblings that score close to it or read like prose (Readability's sibling pass). */
export function gatherSiblings(top: HtmlElement, stats: Stats): HtmlElement {
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
export function isProsePart(el: HtmlElement, stats: Stats): boolean {
  const stat = stats.get(el);
  return (
    stat !== undefined && stat.text >= LEADING_MIN_CHARS && linkDensity(stat) < 0.25 && !hasLinkedHeading(el, stats)
  );
}

/** A heading that is a link: the mark of a teaser (a card linking to another page), not of a part of this one. */
function hasLinkedHeading(el: HtmlElement, stats: Stats): boolean {
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
export function withLeadingProse(
  top: HtmlElement,
  article: HtmlElement,
  stats: Stats,
  body: HtmlElement,
  trace?: ExtractTrace,
): HtmlElement {
  const leading: HtmlNode[] = [];
  for (let level = 0, node = top; level < LEADING_LEVELS; level++, node = node.parent as HtmlElement) {
    const parent = node.parent;
    if (!parent || !isElement(parent) || parent === body) break;
    if (level === 0 && article !== top) continue; // gatherSiblings has judged the top's own siblings
    const before: HtmlNode[] = [];
    const passed: HtmlNode[] = [];
    for (let index = parent.children.indexOf(node) - 1; index >= 0 && before.length < LEADING_BLOCKS; index--) {
      const sibling = parent.children[index]!;
      const stat = isElement(sibling) ? stats.get(sibling) : undefined;
      if (!stat || stat.text === 0) continue;
      // A date line or byline between the lead and the body is passed over, not taken — a byline's author name is
      // often a link (`di <a rel=author>Redazione</a>`), so a short line is passed over with its links.
      if (stat.text < LEADING_MIN_CHARS) {
        passed.push(sibling);
        continue;
      }
      if (!isLeadingProse(sibling as HtmlElement, stat)) break;
      before.unshift(sibling);
      if (trace) traceLeading(trace, sibling, passed);
    }
    leading.unshift(...before);
  }
  if (leading.length === 0) return article;
  return { type: 'tag', name: 'div', attribs: {}, children: [...leading, article], parent: null };
}

function traceLeading(trace: ExtractTrace, lead: HtmlNode, passed: readonly HtmlNode[]): void {
  const over = passed.length === 0 ? '' : `, past ${passed.map((line) => describeNode(line)).join(', ')}`;
  trace.push({
    phase: 'candidates',
    action: 'note',
    element: describeNode(lead),
    reason: `joined: the prose just before the content (a lead${over})`,
    numbers: { chars: textChars(lead) },
  });
}

function isLeadingProse(el: HtmlElement, stat: BlockStats): boolean {
  if (stat.text < LEADING_MIN_CHARS || linkDensity(stat) >= 0.2 || /^h[1-6]$/.test(el.name)) return false;
  return el.name === 'p' || hasDescendant(el, 'p');
}

// The union of strong candidates: a landing, product or service page is built of sections, each scored apart, and
// Readability's single winner keeps one of them. Every other candidate that scores at least half the best and reads
// as prose joins the content, in document order (issue 24; docs/benchmarks.md, "Rules on trial (issue 24)").
import { classAndId, hasDescendant, type Stats } from './block-stats.js';
import { NEGATIVE } from './vocabulary.js';
import { isElement, type HtmlElement } from './parse.js';
import { describeNode, traceNote, type ExtractTrace } from './trace.js';

const UNION_SHARE = 0.5;
const UNION_MAX_PARTS = 12;

/**
 * `article` (the chosen block, or a wrapper of the parts gathered with it) with the ranked candidates that score at
 * least half the best, read as prose (`isPart`) and neither hold nor sit inside a part already taken.
 */
export function withStrongCandidates(
  article: HtmlElement,
  top: HtmlElement,
  ranked: readonly HtmlElement[],
  stats: Stats,
  body: HtmlElement,
  isPart: (el: HtmlElement) => boolean,
  trace: ExtractTrace | undefined,
): HtmlElement {
  const best = ranked[0] ? stats.get(ranked[0])!.score : 0;
  if (best <= 0) return article;
  const parts: HtmlElement[] = article === top || article.parent ? [article] : article.children.filter(isElement);
  const taken: HtmlElement[] = [];
  for (const candidate of ranked) {
    if (taken.length >= UNION_MAX_PARTS) break;
    if (stats.get(candidate)!.score < best * UNION_SHARE) break;
    if (candidate === body || overlaps(candidate, parts) || overlaps(candidate, taken)) continue;
    if (!isPart(candidate) || holdsTitle(candidate)) continue;
    if (looksLikeBoilerplate(candidate)) {
      if (trace) {
        const reason = 'scores at least half the best but its class or id says boilerplate: not joined';
        trace.push({ phase: 'candidates', action: 'note', element: describeNode(candidate), reason });
      }
      continue;
    }
    taken.push(candidate);
  }
  if (taken.length === 0) return article;
  const order = documentOrder(body);
  const children = [...parts, ...taken].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  if (trace) {
    const reason = `${taken.length} more ${taken.length === 1 ? 'block scores' : 'blocks score'} at least half the best and ${taken.length === 1 ? 'reads' : 'read'} as prose: joined in page order`;
    traceNote(trace, 'candidates', reason);
  }
  return { type: 'tag', name: 'div', attribs: {}, children, parent: null };
}

/** The page's title block (its `<h1>`, with a dek): the title is printed above the content, not joined to it. */
function holdsTitle(el: HtmlElement): boolean {
  return el.name === 'h1' || hasDescendant(el, 'h1');
}

/**
 * A block whose class or id says boilerplate, a layout word included (`textwidget`): one kept because it reads as
 * prose may stay inside the content, but it does not join the content from elsewhere on the page (a sidebar's text
 * widget; issue 24).
 */
function looksLikeBoilerplate(el: HtmlElement): boolean {
  const names = classAndId(el);
  return names !== '' && NEGATIVE.test(names);
}

function overlaps(el: HtmlElement, others: readonly HtmlElement[]): boolean {
  if (others.length === 0) return false;
  const set = new Set(others);
  if (set.has(el) || ancestors(el).some((node) => set.has(node))) return true;
  return others.some((other) => ancestors(other).includes(el));
}

function ancestors(el: HtmlElement): HtmlElement[] {
  const list: HtmlElement[] = [];
  for (let node = el.parent; node && isElement(node); node = node.parent) list.push(node);
  return list;
}

function documentOrder(body: HtmlElement): Map<HtmlElement, number> {
  const order = new Map<HtmlElement, number>();
  const visit = (el: HtmlElement): void => {
    order.set(el, order.size);
    for (const child of el.children) if (isElement(child)) visit(child);
  };
  visit(body);
  return order;
}

// The per-page choice between two extractions (trafilatura's `compare_extraction`, mirrored): ours is one scored
// block with what joins it; the inclusive one is the whole body once boilerplate is removed, cleaned by the same
// rules. Pages built of sections (landing, product, service pages, hubs) lose most of their content in a single
// block; an article does not. One small decision on measurable signals, traced for `--explain` (issue 24;
// docs/benchmarks.md, "Rules on trial (issue 24)").
import { linkDensity, visibleTextLength, type Stats } from './block-stats.js';
import { cleanContent, trimTrailing } from './clean-content.js';
import { removeEchoCaptions } from './nothing-new.js';
import { isElement, type HtmlElement } from './parse.js';
import { traceNote, type ExtractTrace } from './trace.js';

// The inclusive extraction is used when it holds this many times our text …
const INCLUSIVE_RATIO = 2;
// … and reads as content, not as a page of links.
const INCLUSIVE_MAX_LINK_DENSITY = 0.3;

export interface Extraction {
  readonly root: HtmlElement;
  readonly textLength: number;
}

/**
 * `ours` (already cleaned) or the inclusive extraction of `body`, whichever the signals favour. Cheap on most pages:
 * when the body's prose before cleaning is not twice ours, the inclusive one cannot win and is not built. Building it
 * cleans `body` in place around ours, which it leaves as it is.
 */
export function chooseExtraction(
  ours: Extraction,
  body: HtmlElement,
  stats: Stats,
  page: { readonly title: string | undefined; readonly declaresArticle?: boolean },
  trace: ExtractTrace | undefined,
): Extraction {
  if (ours.root === body) return ours;
  const bodyStats = stats.get(body);
  if (!bodyStats || bodyStats.text - bodyStats.linkText < ours.textLength * INCLUSIVE_RATIO) {
    if (trace) {
      const why = `the page holds under ${INCLUSIVE_RATIO}× our text outside links`;
      traceNote(trace, 'candidates', `not compared with the inclusive extraction: ${why}, ours stands`);
    }
    return ours;
  }
  // An article page — one that says so, or holds one <article> — is one block: what is around it is not its content.
  const articles = page.declaresArticle ? 1 : countArticles(body);
  if (articles === 1) {
    if (trace) {
      const why = page.declaresArticle
        ? 'the page declares itself an article (og:type)'
        : 'the page holds one <article>';
      traceNote(trace, 'candidates', `not compared with the inclusive extraction: ${why}, ours stands`);
    }
    return ours;
  }
  const keep = new Set<HtmlElement>(ours.root.parent ? [ours.root] : ours.root.children.filter(isElement));
  const mostText = bodyStats.text / 2;
  cleanContent(body, stats, page.title, mostText, undefined, { keep });
  removeEchoCaptions(body);
  trimTrailing(body, stats, mostText, undefined, keep);
  const inclusive = { root: body, textLength: visibleTextLength(body) };
  const density = linkShare(body);
  const ratio = inclusive.textLength / Math.max(1, ours.textLength);
  const isBetter = ratio >= INCLUSIVE_RATIO && density < INCLUSIVE_MAX_LINK_DENSITY;
  if (trace) {
    const signals = `ours ${ours.textLength} chars, the inclusive one ${inclusive.textLength} (${ratio.toFixed(1)}×, link density ${density.toFixed(2)})`;
    const verdict = isBetter
      ? `the inclusive one holds at least ${INCLUSIVE_RATIO}× our text with link density under ${INCLUSIVE_MAX_LINK_DENSITY}: it is used`
      : 'ours stands';
    traceNote(
      trace,
      'candidates',
      `compared with the inclusive extraction (the whole body, cleaned): ${signals}; ${verdict}`,
    );
  }
  return isBetter ? inclusive : ours;
}

function countArticles(root: HtmlElement): number {
  let count = 0;
  const visit = (el: HtmlElement): void => {
    for (const child of el.children) {
      if (!isElement(child)) continue;
      if (child.name === 'article') count++;
      visit(child);
    }
  };
  visit(root);
  return count;
}

/** Share of a cleaned tree's text inside links (measured again: cleaning changed it). */
function linkShare(root: HtmlElement): number {
  let text = 0;
  let linkText = 0;
  const visit = (el: HtmlElement, inLink: boolean): void => {
    for (const child of el.children) {
      if (child.type === 'text') {
        const length = child.data.trim().length;
        text += length;
        if (inLink) linkText += length;
      } else if (isElement(child)) visit(child, inLink || child.name === 'a');
    }
  };
  visit(root, false);
  return linkDensity({ text, linkText, commas: 0, score: 0, isCandidate: false });
}

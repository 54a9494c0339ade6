import { isElement, textOf, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';
import { traceRemoved, type ExtractTrace } from './trace.js';

// Removes what a reader of the rendered page never sees, so it never reaches the model (SPEC "Beyond the seeds":
// hidden text is a prompt-injection channel). Runs before main-content detection: a hidden block must not win the
// content score, and there is no computed style to consult later.
// Not handled: hiding by stylesheet classes (`.sr-only`, `.hidden` in a <style> sheet) — that needs a CSS cascade.

/** Elements removed without counting: never text a reader sees, but not a hiding trick either. */
const NEVER_CONTENT = new Set([
  'script', 'style', 'noscript', 'link', 'meta', 'iframe', 'object', 'embed', 'canvas', 'svg', 'select', 'input',
  'textarea', 'button', 'head',
  // Ruby annotations: the pronunciation printed above the base text (furigana). Kept inline they would interleave
  // with every word of the sentence they annotate.
  'rt', 'rp',
]); // prettier-ignore

// Inline-style tricks. `display:none`, `visibility:hidden`, `font-size:0`, and a zero width or height together with
// `overflow:hidden` (the box exists but shows nothing).
const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\b/i;
const VISIBILITY_HIDDEN = /(?:^|;)\s*visibility\s*:\s*hidden\b/i;
const FONT_SIZE_ZERO = /(?:^|;)\s*font-size\s*:\s*0(?:\.0*)?(?:px|em|rem|pt|%)?\s*(?:;|!|$)/i;
const ZERO_BOX = /(?:^|;)\s*(?:width|height|max-width|max-height)\s*:\s*0(?:px)?\s*(?:;|!|$)/i;
const OVERFLOW_HIDDEN = /(?:^|;)\s*overflow\s*:\s*hidden\b/i;

export function isHiddenStyle(style: string): boolean {
  return (
    DISPLAY_NONE.test(style) ||
    VISIBILITY_HIDDEN.test(style) ||
    FONT_SIZE_ZERO.test(style) ||
    (ZERO_BOX.test(style) && OVERFLOW_HIDDEN.test(style))
  );
}

/** Which rule hides the element (for the trace), or undefined when it is visible. */
function hiddenReason(el: HtmlElement): string | undefined {
  const { attribs } = el;
  if (el.name === 'template') return '<template>';
  if ('hidden' in attribs) return 'hidden attribute';
  if (attribs['aria-hidden'] === 'true') return 'aria-hidden="true"';
  const style = attribs.style;
  if (style === undefined || style === '' || !isHiddenStyle(style)) return undefined;
  if (DISPLAY_NONE.test(style)) return 'style display:none';
  if (VISIBILITY_HIDDEN.test(style)) return 'style visibility:hidden';
  if (FONT_SIZE_ZERO.test(style)) return 'style font-size:0';
  return 'style zero width or height with overflow:hidden';
}

// A <noscript> worth reading holds a copy of the page, not a one-line "enable JavaScript" notice.
const STATIC_COPY_MIN_CHARS = 200;

function isStaticCopy(el: HtmlElement): boolean {
  return el.name === 'noscript' && textOf(el).trim().length >= STATIC_COPY_MIN_CHARS;
}

/**
 * Removes hidden elements (counted) and never-rendered ones (not counted) from the tree, in place. Returns how many
 * hidden blocks were dropped; a hidden element inside a removed one goes with it and is not counted twice.
 * `keepNoscript` keeps `<noscript>` content: some pages render the article with a script and put the only static
 * copy there.
 */
export function removeHidden(
  root: HtmlElement | HtmlDocument,
  options: { keepNoscript?: boolean; trace?: ExtractTrace } = {},
): number {
  let dropped = 0;
  const visit = (parent: HtmlElement | HtmlDocument): void => {
    let changed = false;
    const kept: HtmlNode[] = [];
    for (const child of parent.children) {
      if (child.type === 'text') {
        kept.push(child);
        continue;
      }
      if (isElement(child) && !NEVER_CONTENT.has(child.name) && hiddenReason(child) === undefined) {
        visit(child);
        kept.push(child);
        continue;
      }
      changed = true;
      if (!isElement(child)) continue;
      if (options.keepNoscript && isStaticCopy(child)) {
        // Unwrapped: its content takes its place, so scoring and rendering see ordinary blocks.
        visit(child);
        for (const inner of child.children) inner.parent = parent;
        kept.push(...child.children);
      } else if (!NEVER_CONTENT.has(child.name)) {
        dropped++; // hidden
        if (options.trace) traceRemoved(options.trace, 'hidden', child, hiddenReason(child)!);
      }
    }
    if (changed) parent.children = kept;
  };
  visit(root);
  return dropped;
}

import { isSpaceCode } from './block-stats.js';
import { EMPTY_SHEET, hidingDeclarations, parseDeclarations, type HidingSheet } from './hidden-css.js';
import { isElement, textOf, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';
import { traceRemoved, type ExtractTrace } from './trace.js';
import { NEVER_CONTENT } from './vocabulary.js';

// Removes what a reader of the rendered page never sees, so it never reaches the model (SPEC "Beyond the seeds":
// hidden text is a prompt-injection channel). Runs before main-content detection: a hidden block must not win the
// content score, and there is no computed style to consult later. What hides: the `hidden` attribute, aria-hidden,
// <template>, inline styles (src/extract/hidden-css.ts: display, visibility, opacity, zero size, off-screen, clip,
// text coloured like its background), and the page's own `<style>` rules on one tag, class or id.
// Not handled: external style sheets, selectors with more than one part, hiding inherited from an ancestor's colour.

/** What a check needs beyond the element: the page's hiding rules, and its text length for the guard below. */
export interface HiddenContext {
  readonly sheet: HidingSheet;
  /** Characters of text in the whole tree; computed once, on the first element a style sheet rule would hide. */
  readonly pageChars: () => number;
}

// A style sheet rule never removes a block holding this share of the page's text: pages hide the body until a script
// reveals it (loading fades, consent walls), and a reader that drops it has nothing left.
const SHEET_MAX_SHARE = 0.5;

/**
 * The selector of a sheet's hiding rule that names `el` (its tag, `#id` or `.class`), the class list read in place. A
 * function of its own, apart from what follows a match (sheetReason): written inline in hiddenReason, the lookup was
 * first run at the first page whose sheet hides something, where V8 threw away the optimized tree walk
 * (`--trace-deopt`, docs/benchmarks.md "Speed, session 40").
 */
function sheetHiding(el: HtmlElement, hides: ReadonlyMap<string, string>): string | undefined {
  if (hides.size === 0) return undefined;
  const { id, class: className } = el.attribs;
  if (hides.has(el.name)) return el.name;
  if (id) {
    const key = `#${id}`;
    if (hides.has(key)) return key;
  }
  return className ? hidingClass(className, hides) : undefined;
}

/** Why a sheet's rule that names `el` (`hiding`, from sheetHiding) hides it, or undefined when something keeps it. */
function sheetReason(el: HtmlElement, hiding: string, context: HiddenContext): string | undefined {
  const { hides, revealed } = context.sheet;
  const { id, class: className } = el.attribs;
  const classes = className ? className.split(/\s+/).filter(Boolean) : [];
  // A state rule may show the element again (`.hidden.md:block`, `.panel.active`): any class or id of the element
  // that a revealing rule names keeps it.
  if ((id && revealed.has(`#${id}`)) || classes.some((name) => revealed.has(`.${name}`))) return undefined;
  if (hasShownTwin(el, classes, hides)) return undefined;
  const reason = hides.get(hiding)!;
  const chars = textOf(el).length;
  // Lazy-loading scripts fade images in from a sheet's `opacity:0` and mark them loaded with a class of their own:
  // an element with no text faded out by a sheet is an image waiting for that class, not hidden content.
  if (chars === 0 && reason === 'opacity:0') return undefined;
  if (chars >= SHEET_MAX_SHARE * context.pageChars()) return undefined;
  return `stylesheet ${hiding} ${reason}`;
}

/** The first class of `className` (split at `\s`, as `split(/\s+/)`) that `hides` names, as `.name`. */
function hidingClass(className: string, hides: ReadonlyMap<string, string>): string | undefined {
  let start = -1;
  for (let i = 0; i <= className.length; i++) {
    if (i < className.length && !isSpaceCode(className.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const key = `.${className.slice(start, i)}`;
    if (hides.has(key)) return key;
    start = -1;
  }
  return undefined;
}

// Siblings looked at for a shown twin; a list of thousands of items costs no more than this each.
const MAX_TWIN_SCAN = 100;
// Wrappers climbed to find the series: slides often sit one per wrapper <div>.
const MAX_TWIN_WRAPPERS = 2;

function onlyElementChild(node: HtmlElement | HtmlDocument): HtmlElement | undefined {
  let only: HtmlElement | undefined;
  for (const child of node.children) {
    if (!isElement(child)) continue;
    if (only) return undefined;
    only = child;
  }
  return only;
}

/**
 * A sibling of the same tag that shares a class with the element and that no sheet rule hides (each possibly inside
 * a wrapper of its own): the element is one of a series a script pages through — slides, tab panels, the "read more"
 * rest of a list — and its text is content.
 */
function hasShownTwin(el: HtmlElement, classes: string[], hides: ReadonlyMap<string, string>): boolean {
  const shared = classes.filter((name) => !hides.has(`.${name}`));
  if (shared.length === 0) return false;
  let anchor: HtmlElement = el;
  let wrappers = 0;
  while (wrappers < MAX_TWIN_WRAPPERS && anchor.parent && isElement(anchor.parent) && onlyElementChild(anchor.parent)) {
    anchor = anchor.parent;
    wrappers++;
  }
  if (!anchor.parent) return false;
  let scanned = 0;
  for (const sibling of anchor.parent.children) {
    if (sibling === anchor || !isElement(sibling)) continue;
    if (++scanned > MAX_TWIN_SCAN) break;
    let twin: HtmlElement | undefined = sibling;
    for (let level = 0; level < wrappers && twin; level++) twin = onlyElementChild(twin);
    if (!twin || twin.name !== el.name) continue;
    const names = (twin.attribs.class ?? '').split(/\s+/).filter(Boolean);
    if (names.some((name) => hides.has(`.${name}`))) continue;
    if (twin.attribs.id && hides.has(`#${twin.attribs.id}`)) continue;
    if (names.some((name) => shared.includes(name))) return true;
  }
  return false;
}

/** Why the element is hidden from a reader, as a short label for logs and traces; undefined when it is visible. */
export function hiddenReason(el: HtmlElement, context?: HiddenContext): string | undefined {
  const { attribs } = el;
  if (el.name === 'template') return 'template';
  // hidden="until-found": collapsed sections the browser opens for find-in-page — content, not a hiding trick.
  if ('hidden' in attribs && attribs.hidden.toLowerCase() !== 'until-found') return 'hidden attribute';
  if (attribs['aria-hidden'] === 'true') return 'aria-hidden';
  const style = attribs.style;
  const declarations = style ? parseDeclarations(style) : undefined;
  if (declarations) {
    const reason = hidingDeclarations(declarations);
    // `style …` for the element's own style attribute, `stylesheet …` for a <style> rule: the trace tells them apart.
    if (reason !== undefined) return `style ${reason}`;
  }
  if (!context) return undefined;
  const hiding = sheetHiding(el, context.sheet.hides);
  if (hiding === undefined) return undefined;
  // An inline display or visibility outweighs any sheet rule.
  const display = declarations?.get('display');
  if ((display !== undefined && display !== 'none') || declarations?.get('visibility') === 'visible') return undefined;
  return sheetReason(el, hiding, context);
}

export function isHidden(el: HtmlElement, context?: HiddenContext): boolean {
  return hiddenReason(el, context) !== undefined;
}

// A <noscript> worth reading holds a copy of the page, not a one-line "enable JavaScript" notice.
const STATIC_COPY_MIN_CHARS = 200;

function isStaticCopy(el: HtmlElement): boolean {
  return el.name === 'noscript' && textOf(el).trim().length >= STATIC_COPY_MIN_CHARS;
}

/**
 * Whether a hidden element is counted as a hidden block (`hiddenBlocksDropped`): it held something a reader would
 * have been given — a character of text, an image's alt text — or it is a <template>, whose content the pre-pass cut
 * unread (html-source.ts). An empty icon or spacer is not a block. Stops at the first; link-stream.ts counts the same
 * with `countsAsHiddenText` as it streams.
 */
function holdsText(node: HtmlNode): boolean {
  if (node.type === 'text') return countsAsHiddenText(node.data);
  if (!isElement(node)) return false;
  if (node.name === 'template' || countsAsHiddenAlt(node.attribs)) return true;
  return node.children.some(holdsText);
}

/** Whether text inside a hidden element makes it a hidden block: a character that is not space or zero-width. */
export function countsAsHiddenText(data: string): boolean {
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (!isSpaceCode(code) && !ZERO_WIDTH.has(code)) return true;
  }
  return false;
}

/** Whether an element inside a hidden one makes it a hidden block by its attributes: an image's alt text. */
export function countsAsHiddenAlt(attribs: Readonly<Record<string, string>>): boolean {
  return Boolean(attribs.alt?.trim());
}

// Zero-width space, non-joiner, joiner, word joiner, byte order mark: cleanText strips them; they are not text.
const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);

/**
 * Removes hidden elements (counted when they hold text) and never-rendered ones (not counted) from the tree, in
 * place. Returns how many hidden blocks were dropped; a hidden element inside a removed one goes with it and is not counted twice.
 * `keepNoscript` keeps `<noscript>` content: some pages render the article with a script and put the only static
 * copy there. `sheet` is the page's hiding rules (`readHidingSheet` on the HTML source).
 */
export function removeHidden(
  root: HtmlElement | HtmlDocument,
  options: { keepNoscript?: boolean; sheet?: HidingSheet; trace?: ExtractTrace } = {},
): number {
  let dropped = 0;
  let pageChars: number | undefined;
  const context: HiddenContext = {
    sheet: options.sheet ?? EMPTY_SHEET,
    pageChars: () => (pageChars ??= textOf(root).length),
  };
  // The children each visit drops, by index (a <noscript> unwrapped as -1 − index), above the visit's `base`: its
  // children array is cut in place once its loop ends (cutDropped), where a new array grown by push used to replace
  // it, most of what this pass allocated. Until then the array is as parsed, as before: a rule that weighs the
  // page's text (pageChars) reads the tree mid-walk and sees what it saw.
  const drops: number[] = [];
  const visit = (parent: HtmlElement | HtmlDocument): void => {
    const base = drops.length;
    let unwraps = false;
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.type === 'text') continue;
      if (isElement(child) && !NEVER_CONTENT.has(child.name) && !isHidden(child, context)) {
        visit(child);
        continue;
      }
      if (isElement(child) && options.keepNoscript && isStaticCopy(child)) {
        // Unwrapped: its content takes its place, so scoring and rendering see ordinary blocks.
        visit(child);
        for (const inner of child.children) inner.parent = parent;
        drops.push(-1 - i);
        unwraps = true;
        continue;
      }
      drops.push(i);
      if (isElement(child) && !NEVER_CONTENT.has(child.name)) {
        // Counted when it held something a reader would have been given: an empty icon or spacer is not a block.
        if (holdsText(child)) dropped++;
        if (options.trace) traceRemoved(options.trace, 'hidden', child, hiddenReason(child, context) ?? 'hidden');
      }
    }
    if (drops.length > base) cutDropped(parent, drops, base, unwraps);
    drops.length = base;
  };
  visit(root);
  return dropped;
}

/**
 * Cuts from `parent`'s children the indices listed in `drops` from `base` on, in order, and unwraps those listed as
 * -1 − index: in place, unless a <noscript> is unwrapped (the retry's rare case), which makes a new array.
 */
function cutDropped(
  parent: HtmlElement | HtmlDocument,
  drops: readonly number[],
  base: number,
  unwraps: boolean,
): void {
  const children = parent.children;
  let next = base;
  if (!unwraps) {
    let kept = 0;
    for (let i = 0; i < children.length; i++) {
      if (drops[next] === i) {
        next++;
        continue;
      }
      if (kept !== i) children[kept] = children[i]!;
      kept++;
    }
    children.length = kept;
    return;
  }
  const out: HtmlNode[] = [];
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (drops[next] === i) next++;
    else if (drops[next] === -1 - i) {
      next++;
      out.push(...(child as HtmlElement).children);
    } else out.push(child);
  }
  parent.children = out;
}

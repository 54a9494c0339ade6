// CSS selectors on our parse tree (issue 14 item 3): `exclude_selectors` removes what matches, `selector` keeps only
// what matches. css-select runs the selectors; the adapter below reads our tree (src/extract/parse.ts) rather than
// domhandler's sibling pointers, which go stale once removeHidden has rebuilt a children array. Pure.
// Not handled: pseudo-classes that need a browser's state or layout (:hover, :visited, :focus): css-select refuses
// them when the selector is compiled, so a caller learns it before anything is fetched (checkSelector).
import { compile, selectAll, type Options } from 'css-select';
import { isTraversal, parse, type Selector } from 'css-what';
import { InvalidArgumentError } from '../errors.js';
import { quoteInput } from '../quote.js';
import { pageReadableLength } from './block-stats.js';
import { isElement, textOf, type HtmlDocument, type HtmlElement, type HtmlNode } from './parse.js';
import { MAX_EXCLUDE_SELECTORS, MAX_SELECTOR_LENGTH, MAX_SELECTOR_STEPS } from './select-limits.js';

type Node = HtmlNode | HtmlDocument;

const children = (node: Node): Node[] => (node.type === 'tag' || node.type === 'root' ? node.children : []);

const ADAPTER: Options<Node, HtmlElement>['adapter'] = {
  isTag: (node): node is HtmlElement => isElement(node),
  getAttributeValue: (el, name) => el.attribs[name],
  getChildren: children,
  getName: (el) => el.name,
  getParent: (node) => node.parent,
  getSiblings: (node) => (node.type === 'root' || !node.parent ? [node] : node.parent.children),
  getText: (node) => textOf(node),
  hasAttrib: (el, name) => Object.hasOwn(el.attribs, name),
  removeSubsets: (nodes) => outermost(nodes),
};

// HTML documents: tag and attribute names are matched case-insensitively, as a browser's querySelectorAll does.
// Relative selectors ("> p") are refused, as querySelectorAll refuses them: a selector names elements of the page.
const OPTIONS: Options<Node, HtmlElement> = {
  adapter: ADAPTER,
  xmlMode: false,
  cacheResults: true,
  relativeSelector: false,
};

// css-select walks every ancestor again for each descendant combinator: `a b c` on a page nested 500 deep costs
// 500^3 steps when it fails, and a 99-step chain never ends (issue 23). It remembers each ancestor's answer only when
// an "expensive" sub-selector sits to the left of the combinator; `:is(*, * *)` is one — a traversal inside :is() —
// that matches every element and compiles to nothing. Put first in each chain, it turns that memory on: matching a
// chain of descendant combinators is then linear in the page. (Sibling combinators `~` have no such memory: the
// step cap below, the extraction deadline and the pool's fair share bound them.)
const REMEMBER_ANCESTORS = ':is(*, * *)';

/** `selector` as css-select's tokens, each chain led by REMEMBER_ANCESTORS. Parsed per use: css-select sorts them. */
function compiledTokens(selector: string): Selector[][] {
  const [lead] = parse(REMEMBER_ANCESTORS) as [Selector[]];
  return parse(selector).map((chain) => [...lead, ...chain]);
}

/** The longest chain of compound selectors in `chains`, nested ones (:is, :not, :has) counted on their own. */
function longestChain(chains: readonly Selector[][]): number {
  let longest = 0;
  for (const chain of chains) {
    longest = Math.max(longest, chain.filter((token) => isTraversal(token)).length + 1);
    for (const token of chain) {
      if (token.type === 'pseudo' && Array.isArray(token.data)) longest = Math.max(longest, longestChain(token.data));
    }
  }
  return longest;
}

/** Whether a :has() holds another (Selectors Level 4 §4.5 refuses it: its cost multiplies with each level). */
function nestedHas(chains: readonly Selector[][], inHas = false): boolean {
  return chains.some((chain) =>
    chain.some((token) => {
      if (token.type !== 'pseudo' || !Array.isArray(token.data)) return false;
      if (token.name === 'has' && inHas) return true;
      return nestedHas(token.data, inHas || token.name === 'has');
    }),
  );
}

/** Why a valid `selector` is too costly to run on a page, or undefined. */
function complexityProblem(selector: string): string | undefined {
  const chains = parse(selector);
  const steps = longestChain(chains);
  if (steps > MAX_SELECTOR_STEPS) {
    return `it chains ${steps} compound selectors; at most ${MAX_SELECTOR_STEPS} may be joined by combinators`;
  }
  if (nestedHas(chains)) return 'it has a :has() inside a :has(), which CSS does not allow';
  return undefined;
}

// css-what reads a combinator at the end ("p >") as valid and css-select then matches every child; a browser refuses
// it (Selectors Level 4 §4: a combinator joins two compound selectors).
const TRAILING_COMBINATOR = /[>+~]\s*$/;
const LEADING_COMBINATOR = /^\s*[>+~]/;
// Playwright's selector engines (`text=`, `xpath=`, `css=`, `internal:…=`): not CSS, and a browser's querySelector
// refuses them; refused here so that wait_for, checked in Node, never reaches Playwright as another engine's query.
const ENGINE_PREFIX = /^\s*[a-z_][\w-]*(?::[\w-]+)*\s*=/i;

/** Why `selector` is not CSS this engine can run (css-select's words), or undefined when it is. */
export function checkSelector(selector: string): string | undefined {
  if (TRAILING_COMBINATOR.test(selector)) return 'it ends with a combinator (>, + or ~)';
  if (LEADING_COMBINATOR.test(selector)) return 'it starts with a combinator (>, + or ~)';
  if (ENGINE_PREFIX.test(selector)) return 'it starts with a selector engine (text=, xpath=, …), which is not CSS';
  try {
    compile<Node, HtmlElement>(selector, OPTIONS);
    return undefined;
  } catch (error) {
    // css-select 6 fails with a TypeError when a selector can never match (its always-false function is undefined
    // under ESM): pseudo-classes of a browser's state (:hover, :focus, :visited) are the ones met in practice.
    if (error instanceof TypeError) return 'it can never match a page read without a browser (:hover, :focus, …)';
    const message = error instanceof Error ? error.message : String(error);
    // css-what names what it found, and names nothing when the selector just stopped ("Expected name, found ").
    return /found\s*$/.test(message) ? `${message.trimEnd()} the end of the selector` : message;
  }
}

/** What is wrong with a selector argument, as the sentence an agent reads (`name` is the argument); else undefined. */
export function selectorProblem(name: string, selector: string): string | undefined {
  if (selector.trim() === '') return `${name} must not be empty`;
  if (selector.length > MAX_SELECTOR_LENGTH) {
    return `${name} is too long for a CSS selector (at most ${MAX_SELECTOR_LENGTH} characters)`;
  }
  const reason = checkSelector(selector);
  if (reason !== undefined) return `${name} "${quoteInput(selector, 100)}" is not valid CSS: ${reason}`;
  const cost = complexityProblem(selector);
  return cost === undefined ? undefined : `${name} "${quoteInput(selector, 100)}" is too complex to run: ${cost}`;
}

/**
 * The tools' schemas check the selectors before anything is fetched; this checks them again for the callers that
 * skip a schema (the library's engine), before the engine loads the page.
 */
export function assertSelectOptions(options: SelectOptions & { readonly waitFor?: string }): void {
  const problem = (name: string, selector: string) => {
    const message = selectorProblem(name, selector);
    if (message) throw new InvalidArgumentError(name, message);
  };
  if (options.selector !== undefined) problem('selector', options.selector);
  if (options.waitFor !== undefined) problem('wait_for', options.waitFor);
  const excluded = options.excludeSelectors ?? [];
  if (excluded.length > MAX_EXCLUDE_SELECTORS) {
    throw new InvalidArgumentError(
      'exclude_selectors',
      `exclude_selectors takes at most ${MAX_EXCLUDE_SELECTORS} selectors`,
    );
  }
  for (const selector of excluded) problem('exclude_selectors', selector);
}

/** The nodes that no other node of the list contains, in their order. */
function outermost<T extends Node>(nodes: readonly T[]): T[] {
  const set = new Set<Node>(nodes);
  return nodes.filter((node) => {
    for (let up = node.parent; up; up = up.parent) if (set.has(up)) return false;
    return true;
  });
}

/** The elements `selector` matches under `root`, in document order, none inside another (its text is in its match). */
export function selectElements(root: HtmlElement | HtmlDocument, selector: string): HtmlElement[] {
  return outermost(selectAll<Node, HtmlElement>(compiledTokens(selector), root, OPTIONS));
}

/** Removes every element any of `selectors` matches, in place; returns how many were removed. */
export function removeMatching(root: HtmlElement | HtmlDocument, selectors: readonly string[]): number {
  let removed = 0;
  for (const selector of selectors) {
    for (const el of selectElements(root, selector)) {
      const parent = el.parent;
      if (!parent) continue;
      parent.children = parent.children.filter((child) => child !== el);
      el.parent = null;
      removed++;
    }
  }
  return removed;
}

/** The caller's selectors, as every reader of a whole page takes them (extractArticle, scrapeHtml). */
export interface SelectOptions {
  /** Read only the elements this matches, in document order, instead of detecting the main content. */
  readonly selector?: string;
  /** Remove the elements these match before anything else reads the page. */
  readonly excludeSelectors?: readonly string[];
}

export interface Selection {
  /** The elements `selector` matched, outermost only, in document order. */
  readonly roots: HtmlElement[];
  readonly matched: number;
  /** The visible text of the whole page: it, not the selection's, decides empty and needs_js (src/outcome.ts). */
  readonly pageTextLength: number;
}

/**
 * Exclusions first (removed in place), then `selector`: an excluded element is never selected, nor is anything
 * inside it. Undefined without `selector`: the reader goes on with the whole page, exclusions removed. Run after
 * removeHidden, so hidden text is gone from the selection too.
 */
export function applySelectors(doc: HtmlDocument, options: SelectOptions): Selection | undefined {
  if (options.excludeSelectors?.length) removeMatching(doc, options.excludeSelectors);
  if (options.selector === undefined) return undefined;
  const roots = selectElements(doc, options.selector);
  return { roots, matched: roots.length, pageTextLength: pageReadableLength(doc) };
}

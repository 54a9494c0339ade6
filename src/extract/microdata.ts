// Microdata (WHATWG HTML §5.2) and RDFa Lite 1.1 (W3C) items of a parsed page, each as its type, its id and its
// properties, a property's values in page order, each a string or a nested item. A narrow walker over our own tree
// (parse.ts) rather than a library: the candidates either bring a second, older copy of the parser stack and build a
// second tree (microdata-node 2: htmlparser2 4, domhandler 3 and 4, domutils 2) or read the whole page again
// unbounded, every link and image collected on the way (htmlmetaparser); docs/benchmarks.md "Structured data".
// Bounded: at most MAX_DATA_ITEMS top-level items of each syntax, MAX_DATA_VALUES values in all, values cut at
// MAX_DATA_VALUE_CHARS, nesting as deep as the tree (MAX_NESTING_DEPTH) and an itemref followed once per item.
// Not handled: RDFa's `prefix` and CURIE expansion (a property is kept as written, `schema:name`), `rel`/`rev`
// (RDFa Core, not Lite), `inlist`; microdata's property values are not checked against their vocabulary.
import { resolveLinkTarget } from '../link-target.js';
import { collapseWhitespace, isElement, textOf, type HtmlDocument, type HtmlElement } from './parse.js';
import { boundedValue } from './data-tables.js';
import { MAX_DATA_ITEMS, MAX_DATA_VALUES } from './data-limits.js';

export interface DataItem {
  /** itemtype (microdata) or typeof with its vocab (RDFa), as written; absent when it has none. */
  readonly type?: string;
  /** itemid (microdata) or resource/about (RDFa). */
  readonly id?: string;
  readonly properties: Record<string, (string | DataItem)[]>;
}

export interface DataItems {
  readonly items: DataItem[];
  /** Top-level items past MAX_DATA_ITEMS, and values past MAX_DATA_VALUES, not read. */
  readonly itemsLeftOut: number;
  readonly valuesLeftOut: number;
}

/** What one read has left of its caps. */
class Budget {
  values = MAX_DATA_VALUES;
  valuesLeftOut = 0;

  take(): boolean {
    if (this.values > 0) {
      this.values -= 1;
      return true;
    }
    this.valuesLeftOut += 1;
    return false;
  }
}

/** Space-separated names; `__proto__` is no property name (it would become an object's prototype, not a key). */
function tokens(value: string | undefined): string[] {
  return (value ?? '').split(/[\t\n\f\r ]+/).filter((token) => token !== '' && token !== '__proto__');
}

/** An element and its descendants in document order, `enter` deciding whether to go inside each. */
function walk(root: HtmlDocument | HtmlElement, visit: (el: HtmlElement) => boolean): void {
  for (const child of root.children) if (isElement(child) && visit(child)) walk(child, visit);
}

// ---------------------------------------------------------------------------------------------------------------
// Microdata

/** The page's top-level microdata items: each itemscope that is not itself a property, in document order. */
export function readMicrodata(doc: HtmlDocument, baseUrl: string): DataItems {
  const roots: HtmlElement[] = [];
  let itemsLeftOut = 0;
  let hasRefs = false;
  walk(doc, (el) => {
    if (el.attribs.itemref !== undefined) hasRefs = true;
    if (el.attribs.itemscope !== undefined && el.attribs.itemprop === undefined) {
      if (roots.length < MAX_DATA_ITEMS) roots.push(el);
      else itemsLeftOut += 1;
    }
    return true;
  });
  if (roots.length === 0) return { items: [], itemsLeftOut, valuesLeftOut: 0 };
  const ids = hasRefs ? idMap(doc) : new Map<string, HtmlElement>();
  const budget = new Budget();
  const items = roots.map((root) => microdataItem(root, baseUrl, ids, budget, new Set()));
  return { items, itemsLeftOut, valuesLeftOut: budget.valuesLeftOut };
}

function idMap(doc: HtmlDocument): Map<string, HtmlElement> {
  const ids = new Map<string, HtmlElement>();
  walk(doc, (el) => {
    const id = el.attribs.id;
    if (id !== undefined && !ids.has(id)) ids.set(id, el);
    return true;
  });
  return ids;
}

/** An item's properties (HTML §5.2.5 "the properties of an item"): its subtree and the elements itemref names. */
function microdataItem(
  scope: HtmlElement,
  baseUrl: string,
  ids: ReadonlyMap<string, HtmlElement>,
  budget: Budget,
  open: Set<HtmlElement>,
): DataItem {
  // An item inside itself (itemref pointing back at an ancestor) is read once: the loop ends there.
  open.add(scope);
  const properties: Record<string, (string | DataItem)[]> = Object.create(null) as Record<string, never>;
  const visit = (el: HtmlElement): boolean => {
    const names = tokens(el.attribs.itemprop);
    const isScope = el.attribs.itemscope !== undefined;
    for (const name of names) {
      if (!budget.take()) continue;
      const value = isScope
        ? open.has(el)
          ? undefined
          : microdataItem(el, baseUrl, ids, budget, open)
        : microdataValue(el, baseUrl);
      if (value !== undefined) (properties[name] ??= []).push(value);
    }
    // A nested item's properties are its own; an item that is no property is a top-level item of its own.
    return !isScope;
  };
  walk(scope, visit);
  for (const ref of tokens(scope.attribs.itemref)) {
    const target = ids.get(ref);
    if (!target || open.has(target)) continue;
    if (visit(target)) walk(target, visit);
  }
  open.delete(scope);
  const type = collapseWhitespace(scope.attribs.itemtype);
  const id = collapseWhitespace(scope.attribs.itemid);
  return { ...(type && { type }), ...(id && { id }), properties: { ...properties } };
}

/** An element's property value (HTML §5.2.4): an attribute for the elements that have one, else its text. */
function microdataValue(el: HtmlElement, baseUrl: string): string {
  switch (el.name) {
    case 'meta':
      return boundedValue(el.attribs.content ?? '');
    case 'audio':
    case 'embed':
    case 'iframe':
    case 'img':
    case 'source':
    case 'track':
    case 'video':
      return urlValue(el.attribs.src, baseUrl);
    case 'a':
    case 'area':
    case 'link':
      return urlValue(el.attribs.href, baseUrl);
    case 'object':
      return urlValue(el.attribs.data, baseUrl);
    case 'data':
    case 'meter':
      return boundedValue(el.attribs.value ?? '');
    case 'time':
      return el.attribs.datetime !== undefined ? boundedValue(el.attribs.datetime) : textValue(el);
    default:
      return textValue(el);
  }
}

/** A URL attribute made absolute; one that is no web URL (javascript:, data:) is ''. */
function urlValue(value: string | undefined, baseUrl: string): string {
  if (value === undefined || value.trim() === '') return '';
  return boundedValue(resolveLinkTarget(value, baseUrl) ?? '');
}

function textValue(el: HtmlElement): string {
  return boundedValue(collapseWhitespace(textOf(el)));
}

// ---------------------------------------------------------------------------------------------------------------
// RDFa Lite

/**
 * The page's top-level RDFa Lite items: each element with `typeof` that is not a property of an enclosing item.
 * A property outside every item (OpenGraph's `<meta property="og:…">`) is no item's: structured-data.ts reads those.
 */
export function readRdfa(doc: HtmlDocument, baseUrl: string): DataItems {
  const roots: { el: HtmlElement; vocab: string }[] = [];
  let itemsLeftOut = 0;
  // A top-level item is one with no enclosing item, or one inside an item that is no property of it.
  const find = (node: HtmlDocument | HtmlElement, vocab: string, isInside: boolean) => {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      const inner = child.attribs.vocab?.trim() || vocab;
      const isItem = child.attribs.typeof !== undefined;
      if (isItem && (!isInside || child.attribs.property === undefined)) {
        if (roots.length < MAX_DATA_ITEMS) roots.push({ el: child, vocab: inner });
        else itemsLeftOut += 1;
      }
      find(child, inner, isInside || isItem);
    }
  };
  find(doc, '', false);
  const budget = new Budget();
  const items = roots.map(({ el, vocab }) => rdfaItem(el, vocab, baseUrl, budget));
  return { items, itemsLeftOut, valuesLeftOut: budget.valuesLeftOut };
}

function rdfaItem(scope: HtmlElement, vocab: string, baseUrl: string, budget: Budget): DataItem {
  const properties: Record<string, (string | DataItem)[]> = Object.create(null) as Record<string, never>;
  const add = (names: string[], value: string | DataItem) => {
    for (const name of names) if (budget.take()) (properties[name] ??= []).push(value);
  };
  const visit = (node: HtmlElement, inherited: string) => {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      const childVocab = child.attribs.vocab?.trim() || inherited;
      const names = tokens(child.attribs.property);
      if (child.attribs.typeof !== undefined) {
        // A nested item is the value of its property; one that is no property is a top-level item (readRdfa).
        if (names.length > 0) add(names, rdfaItem(child, childVocab, baseUrl, budget));
        continue;
      }
      if (names.length > 0) add(names, rdfaValue(child, baseUrl));
      visit(child, childVocab);
    }
  };
  visit(scope, vocab);
  const type = tokens(scope.attribs.typeof)
    .map((name) => (vocab && !/^[a-z][\w+.-]*:/i.test(name) ? vocab + name : name))
    .join(' ');
  const id = collapseWhitespace(scope.attribs.resource ?? scope.attribs.about);
  return { ...(type && { type }), ...(id && { id }), properties: { ...properties } };
}

/** A property's value in RDFa: `content`, else the link it makes (href, src, resource), a time's datetime, its text. */
function rdfaValue(el: HtmlElement, baseUrl: string): string {
  if (el.attribs.content !== undefined) return boundedValue(el.attribs.content);
  const link = el.attribs.href ?? el.attribs.src ?? el.attribs.resource;
  if (link !== undefined) return urlValue(link, baseUrl);
  if (el.name === 'time' && el.attribs.datetime !== undefined) return boundedValue(el.attribs.datetime);
  return textValue(el);
}

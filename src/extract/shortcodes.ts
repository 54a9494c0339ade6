// Unrendered shortcodes: CMS macros (WordPress `[caption id="…"]…[/caption]`, page builders' `[et_pb_section …]`,
// `[/vc_row]`) that reach the HTML as text when a plugin is missing or a feed copies the raw post. A reader sees
// markup noise, and a model pays tokens for it. Only tags that are unmistakably macros go: a closing `[/name]`, an
// opening `[name key="value" …]` with attributes, or a bare `[name]` whose `[/name]` is in the same content. `[1]`,
// `[sic]`, `[citation needed]` and Markdown link texts are none of these. The text between the tags stays (it is
// the caption or the section's content).
import { isElement, type HtmlElement, type HtmlNode } from './parse.js';

const NAME = '[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*';
const CLOSING = new RegExp(`\\[\\/(${NAME})\\]`, 'g');
const WITH_ATTRIBUTES = new RegExp(
  `\\[${NAME}(?:\\s+[a-z_-]+\\s*=\\s*(?:"[^"\\]]*"|'[^'\\]]*'|[^\\s\\]]+))+\\s*\\/?\\]`,
  'g',
);
const QUICK = /\[\/?[a-z]/;

/** Removes shortcode tags from the text nodes under `root`, in place; returns how many text nodes changed. */
export function stripShortcodes(root: HtmlElement): number {
  if (!holdsShortcodeText(root)) return 0;
  const texts: Array<{ parent: HtmlElement; index: number; data: string }> = [];
  const visit = (el: HtmlElement): void => {
    el.children.forEach((child: HtmlNode, index) => {
      if (isElement(child)) {
        if (child.name !== 'pre' && child.name !== 'code') visit(child);
      } else if (child.type === 'text' && QUICK.test(child.data)) {
        texts.push({ parent: el, index, data: child.data });
      }
    });
  };
  visit(root);
  if (texts.length === 0) return 0;
  // An opening tag and its closing one often sit in different paragraphs: the closed names are the content's.
  const closed = closedNames(texts.map((text) => text.data).join('\n'));
  let changed = 0;
  for (const { parent, index, data } of texts) {
    const stripped = withoutShortcodes(data, closed);
    if (stripped === data) continue;
    parent.children[index] = { type: 'text', data: stripped, parent };
    changed++;
  }
  return changed;
}

/**
 * Whether a text node under `root`, outside code, may hold a shortcode. Most pages have none: this walk, which only
 * tests, is the one that runs on every page, and the walk that collects them runs where there is something to collect
 * (an optimized walk that collected was thrown away at the first page whose text had a match).
 */
function holdsShortcodeText(root: HtmlElement): boolean {
  const children = root.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (isElement(child)) {
      if (child.name !== 'pre' && child.name !== 'code' && holdsShortcodeText(child)) return true;
    } else if (child.type === 'text' && QUICK.test(child.data)) return true;
  }
  return false;
}

function closedNames(text: string): Set<string> {
  const closed = new Set<string>();
  for (const match of text.matchAll(CLOSING)) closed.add(match[1]!);
  return closed;
}

/** `text` without its shortcode tags; a bare `[name]` goes when `name` is closed somewhere in `closed`. */
export function withoutShortcodes(text: string, closed: ReadonlySet<string> = closedNames(text)): string {
  let result = text.replace(WITH_ATTRIBUTES, '').replace(CLOSING, '');
  for (const name of closed) result = result.split(`[${name}]`).join('');
  return result;
}

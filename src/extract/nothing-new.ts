// Blocks that give the reader nothing new (issue 24; docs/benchmarks.md, "Fifth pass"): what the Markdown would show
// of a block, not what its markup holds. A block that renders nothing — spaces and no-break spaces, a placeholder
// picture (a `data:` URI or no source, and no alt text) — is no content: it neither stops the trailing trim nor
// stays. A caption that repeats its picture — the picture's alt text, title or file name, and at most a credit after
// it — says again what the picture already says (the Markdown keeps the alt text on the picture), and goes.
import { isElement, textOf, type HtmlElement, type HtmlNode } from './parse.js';
import type { BlockStats } from './block-stats.js';
import { pictureSource } from './picture-source.js';
import { traceRemoved, type ExtractTrace } from './trace.js';

/** The source the Markdown would show for a picture: none for a data: URI (markdown.ts prints its alt text). */
function shownSource(img: HtmlElement): string | undefined {
  const src = pictureSource(img.attribs);
  return src && !src.startsWith('data:') ? src : undefined;
}

/** A picture the Markdown shows: a real source, or alt text (a placeholder's alt is printed as text). */
function pictureShows(img: HtmlElement): boolean {
  return shownSource(img) !== undefined || (img.attribs.alt ?? '').trim() !== '';
}

// What the Markdown renders besides text: pictures that show, and tables (markdown.ts skips `<iframe>`, `<video>`…).
function showsSomething(el: HtmlElement): boolean {
  for (const child of el.children) {
    if (!isElement(child)) continue;
    if (child.name === 'img' ? pictureShows(child) : child.name === 'table' || showsSomething(child)) return true;
  }
  return false;
}

// A no-break space is one character of text to the block statistics and nothing on the rendered page.
const AT_MOST_SPACES_CHARS = 8;

export const RENDERS_NOTHING_REASON =
  'renders nothing in the Markdown (no-break spaces, placeholder pictures), after the last prose';

/** A block that renders nothing in the Markdown: no text but spaces, no picture that shows, no table. */
export function rendersNothing(el: HtmlElement, node: BlockStats): boolean {
  if (node.text > AT_MOST_SPACES_CHARS) return false;
  if (node.text > 0 && textOf(el).trim() !== '') return false;
  return !showsSomething(el);
}

// A caption repeats a name of the picture just before it: its text starts with it and adds at most a short credit.
const NAME_MIN_CHARS = 10;
const CAPTION_EXTRA_MAX_CHARS = 80;
const ECHO_REASON = 'a caption that repeats its picture (alt text, title or file name), the picture keeps it';

/** Letters and digits, lower case, one space between runs: "Snow-on_the.pavement" and "snow on the pavement" match. */
function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The names a caption could repeat: the picture's alt text and title, and its file name's words. An SVG picture is an
 * icon or a logo, and the words beside it are its label (a product's feature grid), not a caption.
 */
function pictureNames(img: HtmlElement): string[] {
  const source = shownSource(img);
  if (source && /\.svg(?:[?#]|$)/i.test(source)) return [];
  const names = [img.attribs.alt, img.attribs.title, fileName(source)].map((name) => fold(name ?? ''));
  return names.filter((name) => name.length >= NAME_MIN_CHARS);
}

/** `/uploads/Bird-Station-300x225.jpg?v=2` → `Bird-Station`: the last path segment, no extension or size suffix. */
function fileName(src: string | undefined): string | undefined {
  const last = src?.split(/[?#]/)[0]!.split('/').pop();
  if (!last) return undefined;
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // a malformed escape: the raw segment
  }
  return name.replace(/\.[a-z0-9]{2,5}$/i, '').replace(/[-_]\d+x\d+$/, '');
}

function repeats(text: string, names: readonly string[]): boolean {
  const folded = fold(text);
  return names.some((name) => folded.startsWith(name) && folded.length <= name.length + CAPTION_EXTRA_MAX_CHARS);
}

const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * A card's title, not a caption: a heading, a table cell (a row of a list of books, say), or text that starts in a
 * link (the card's link to its page).
 */
function isTitleOrCell(el: HtmlElement): boolean {
  if (el.name === 'td' || el.name === 'th') return true;
  if (holdsHeading(el)) return true;
  const first = firstText(el, false);
  return first === undefined || first.inLink;
}

function holdsHeading(el: HtmlElement): boolean {
  if (HEADINGS.has(el.name)) return true;
  for (const child of el.children) if (isElement(child) && holdsHeading(child)) return true;
  return false;
}

/** The first text that is not blank in an element, and whether it sits in a link. */
function firstText(el: HtmlElement, inLink: boolean): { inLink: boolean } | undefined {
  const linked = inLink || el.name === 'a';
  for (const child of el.children) {
    if (child.type === 'text') {
      if (child.data.trim() !== '') return { inLink: linked };
    } else if (isElement(child)) {
      const found = firstText(child, linked);
      if (found) return found;
    }
  }
  return undefined;
}

function holdsPicture(el: HtmlElement): boolean {
  for (const child of el.children) if (isElement(child) && (child.name === 'img' || holdsPicture(child))) return true;
  return false;
}

/**
 * Removes, inside the content, the first text after a picture when it repeats the picture's alt text, title or file
 * name: the element that holds it (its whole text the caption), or the text itself when it sits beside the picture
 * (`<img><br>Caption`). Text in a link, a heading or a table cell is a title, not a caption.
 */
export function removeEchoCaptions(root: HtmlElement, trace?: ExtractTrace): void {
  // The names of the last picture passed, until text follows it.
  let names: string[] | undefined;
  const visit = (el: HtmlElement, inLink: boolean): void => {
    const children = el.children;
    for (let i = 0; i < children.length; i++) {
      const child: HtmlNode = children[i]!;
      if (child.type === 'text') {
        if (child.data.trim() === '') continue;
        if (names && !inLink && repeats(child.data, names)) {
          if (trace) traceRemoved(trace, 'cleaning', child, ECHO_REASON);
          children.splice(i--, 1);
        }
        names = undefined;
        continue;
      }
      if (!isElement(child)) continue;
      if (child.name === 'img') {
        const found = pictureNames(child);
        names = found.length > 0 ? found : undefined;
        continue;
      }
      if (names && !holdsPicture(child)) {
        const text = textOf(child);
        if (text.trim() === '') continue;
        if (!inLink && child.name !== 'a' && !isTitleOrCell(child) && repeats(text, names)) {
          if (trace) traceRemoved(trace, 'cleaning', child, ECHO_REASON);
          children.splice(i--, 1);
        }
        names = undefined;
        continue;
      }
      visit(child, inLink || child.name === 'a');
    }
  };
  visit(root, false);
}

// DOM subtree → GitHub-flavoured Markdown (https://github.github.com/gfm/). Our own walker instead of Turndown: one
// pass over the nodes, no rule table and no regex escaping over the whole output, which made Turndown the larger
// half of the baseline's time. Pure: no network, no clock; links and images resolve against `baseUrl` only.
// Not handled: colspan/rowspan (cells are laid out in source order), HTML kept as HTML, footnote syntax.

import { cleanText } from '../clean-text.js';
import { resolveLinkTarget } from '../link-target.js';
import { isElement, textOf, type HtmlDocument, type HtmlElement } from './parse.js';
import { BLOCK_ELEMENTS, NEVER_RENDERED } from './vocabulary.js';
import { isLayoutTable, tableCells } from './table-cells.js';
import { pictureSource } from './picture-source.js';

export interface RenderMarkdownOptions {
  /** Absolute URL that relative links and images resolve against (`<base href>` already applied by the caller). */
  readonly baseUrl: string;
}

// Invisible and control characters (src/clean-text.ts) go from every text node before whitespace is collapsed and
// Markdown is escaped: after parsing, so character references (`&#8203;`, `&shy;`) go too, and before, so a link or
// an emphasis holding nothing else is seen to be empty.

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight|brush:?)-?\s*([A-Za-z0-9_+#.-]+)/;

export function renderMarkdown(root: HtmlElement | HtmlDocument, options: RenderMarkdownOptions): string {
  const renderer = new MarkdownRenderer(options.baseUrl);
  const blocks = renderer.blocks(root);
  // Text in Unicode's composed form (NFC, the W3C character model's): a page may spell `য়` or `é` decomposed, and a
  // reader searching the text, or comparing it with another page's, spells them composed.
  return blocks.join('\n\n').normalize('NFC');
}

class MarkdownRenderer {
  /** Open <a>, strong and emphasis elements around the node being rendered (see inline()). */
  private readonly open = { link: 0, strong: 0, em: 0, del: 0 };
  /** The level of the last heading rendered: a `<details>`'s summary is a heading one level below it. */
  private headingLevel = 2;

  constructor(private readonly baseUrl: string) {}

  /** Renders the children of `node` as a list of blocks (paragraphs, headings, lists, …), none empty. */
  blocks(node: HtmlElement | HtmlDocument): string[] {
    const out: string[] = [];
    let inline = '';
    const flush = (): void => {
      const text = finishInline(inline);
      if (text) out.push(escapeLineStart(text));
      inline = '';
    };
    for (const child of renderedChildren(node)) {
      if (typeof child === 'string') {
        inline += child;
      } else if (BLOCK_ELEMENTS.has(child.name)) {
        flush();
        this.block(child, child.name, out);
      } else {
        inline += this.inline(child, child.name);
      }
    }
    flush();
    return out;
  }

  private block(el: HtmlElement, tag: string, out: string[]): void {
    switch (tag) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        const text = finishInline(this.inlineChildren(el)).replace(/\n+/g, ' ');
        this.headingLevel = Number(tag[1]);
        if (text) out.push(`${'#'.repeat(this.headingLevel)} ${text}`);
        return;
      }
      case 'summary': {
        // A <details> is a section a reader opens (an FAQ answer, a product's specifications): its summary is the
        // section's heading, one level below the heading it sits under.
        const text = finishInline(this.inlineChildren(el)).replace(/\n+/g, ' ');
        if (text) out.push(`${'#'.repeat(Math.min(6, this.headingLevel + 1))} ${text}`);
        return;
      }
      case 'hr':
        out.push('---');
        return;
      case 'pre':
        out.push(this.codeBlock(el));
        return;
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir': {
        const list = this.list(el, tag === 'ol');
        if (list) out.push(list);
        return;
      }
      case 'blockquote': {
        const inner = this.blocks(el).join('\n\n');
        if (inner) out.push(inner.replace(/^/gm, '> ').replace(/^> $/gm, '>'));
        return;
      }
      case 'table':
        this.table(el, out);
        return;
      default:
        for (const block of this.blocks(el)) out.push(block);
    }
  }

  private inline(el: HtmlElement, tag: string): string {
    switch (tag) {
      case 'br':
        return '\n';
      case 'img':
        return this.image(el);
      case 'a':
        // Links do not nest, in HTML (an <a> start tag closes the open one, HTML §13.2.6.4.7) or in Markdown: an
        // inner one is its words. Re-rendering every level would also cost depth × text on a deep page.
        return this.open.link > 0 ? this.inlineChildren(el) : this.within('link', () => this.link(el));
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        return codeSpan(textOf(el));
      case 'strong':
      case 'b':
        return this.emphasis(el, 'strong', '**');
      case 'em':
      case 'i':
      case 'cite':
      case 'dfn':
        return this.emphasis(el, 'em', '*');
      case 'del':
      case 's':
      case 'strike':
        return this.emphasis(el, 'del', '~~');
      default:
        return this.inlineChildren(el);
    }
  }

  /** Bold inside bold reads as bold: only the outermost of a nest is wrapped (`****x****` is not emphasis either). */
  private emphasis(el: HtmlElement, kind: 'strong' | 'em' | 'del', delimiter: string): string {
    if (this.open[kind] > 0) return this.inlineChildren(el);
    return this.within(kind, () => wrap(this.inlineChildren(el), delimiter));
  }

  private within<T>(kind: keyof MarkdownRenderer['open'], render: () => T): T {
    this.open[kind]++;
    try {
      return render();
    } finally {
      this.open[kind]--;
    }
  }

  /** Inline content of an element; a block nested in inline context (a <div> inside <a>) becomes a space-separated run. */
  private inlineChildren(node: HtmlElement): string {
    let text = '';
    for (const child of renderedChildren(node)) {
      if (typeof child === 'string') text += child;
      else text += BLOCK_ELEMENTS.has(child.name) ? ` ${this.inlineChildren(child)} ` : this.inline(child, child.name);
    }
    return text;
  }

  /** An allowed target (http, https, mailto; src/link-target.ts), or undefined: the words stay, the link goes. */
  private resolve(url: string): string | undefined {
    return resolveLinkTarget(url, this.baseUrl);
  }

  private link(el: HtmlElement): string {
    const inner = this.inlineChildren(el);
    const text = finishInline(inner).replace(/\n+/g, ' ');
    const href = el.attribs.href?.trim();
    // An empty link still separates the words around it if it held whitespace.
    if (!text) return /\s/.test(inner) ? ' ' : '';
    // In-page anchors, script links and other schemes lead nowhere for a reader of the Markdown: keep the words only.
    if (!href || href.startsWith('#')) return text;
    const url = this.resolve(href);
    if (!url) return text;
    return `[${text}](${escapeUrl(url)})`;
  }

  private image(el: HtmlElement): string {
    const { attribs } = el;
    const alt = escapeText(
      cleanText(attribs.alt ?? '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    const src = pictureSource(attribs);
    // data: URIs are replaced by their alt text: a base64 blob floods the model's context (SPEC "Beyond the seeds").
    if (!src || src.startsWith('data:')) return alt;
    const url = this.resolve(src);
    return url ? `![${alt}](${escapeUrl(url)})` : alt;
  }

  private codeBlock(pre: HtmlElement): string {
    // <pre><code class="language-x"> is the common form; the language may sit on either element.
    const elements = pre.children.filter(isElement);
    const code = elements.length === 1 && elements[0]!.name === 'code' ? elements[0]! : pre;
    const language = codeLanguage(pre) ?? (code !== pre ? codeLanguage(code) : undefined) ?? '';
    // Code keeps its whitespace; <br> inside highlighted code marks a line end.
    const text = preformattedText(pre).replace(/^\n/, '').replace(/\s+$/, '');
    const longestFence = Math.max(2, ...Array.from(text.matchAll(/^ {0,3}(`{3,}|~{3,})/gm), (m) => m[1]!.length));
    const fence = '`'.repeat(longestFence + 1);
    return `${fence}${language}\n${text}\n${fence}`;
  }

  private list(el: HtmlElement, ordered: boolean): string {
    const start = ordered ? Number.parseInt(el.attribs.start ?? '1', 10) : 1;
    let index = Number.isFinite(start) ? start : 1;
    const items: string[] = [];
    for (const child of el.children) {
      if (!isElement(child)) continue;
      const tag = child.name;
      let blocks: string[];
      if (tag === 'li') blocks = this.blocks(child);
      else if (tag === 'ul' || tag === 'ol') {
        // A list directly inside a list (invalid but common) nests under the previous item.
        const nested = this.list(child, tag === 'ol');
        if (nested && items.length > 0) items[items.length - 1] += `\n${indent(nested, 2)}`;
        continue;
      } else if (NEVER_RENDERED.has(tag)) continue;
      else blocks = this.blocks(child);
      if (blocks.length === 0) continue;
      const marker = ordered ? `${index++}. ` : '- ';
      // Tight item: a first line and nested lists only; anything else gets blank lines between its blocks.
      const isTight = blocks.slice(1).every((block) => /^(?:- |\d+\. )/.test(block));
      const body = blocks.join(isTight ? '\n' : '\n\n');
      items.push(marker + indent(body, marker.length).slice(marker.length));
    }
    return items.join('\n');
  }

  private table(table: HtmlElement, out: string[]): void {
    const cells = tableCells(table);
    const width = Math.max(0, ...cells.map((row) => row.length));
    // Layout tables hold page structure, not data (table-cells.ts): render their cells as blocks.
    if (isLayoutTable(table, cells)) {
      for (const row of cells) for (const cell of row) for (const block of this.blocks(cell)) out.push(block);
      return;
    }
    const caption = table.children.find((child): child is HtmlElement => isElement(child) && child.name === 'caption');
    if (caption) {
      const text = finishInline(this.inlineChildren(caption));
      if (text) out.push(text);
    }
    const lines = cells
      .map((row) => {
        const texts = row.map((cell) =>
          finishInline(this.inlineChildren(cell)).replace(/\n+/g, ' ').replace(/\|/g, '\\|'),
        );
        while (texts.length < width) texts.push('');
        return texts;
      })
      .filter((row) => row.some((text) => text !== ''));
    if (lines.length === 0) return;
    const [header, ...body] = lines;
    const formatted = [header!, Array(width).fill('---'), ...body].map((row) => `| ${row.join(' | ')} |`);
    out.push(formatted.join('\n'));
  }
}

function codeLanguage(el: HtmlElement): string | undefined {
  const match = LANGUAGE_CLASS.exec(el.attribs.class ?? '');
  if (match) return match[1]!.toLowerCase();
  const data = el.attribs['data-lang'] ?? el.attribs['data-language'];
  return data?.trim() || undefined;
}

function preformattedText(node: HtmlElement): string {
  let text = '';
  for (const child of node.children) {
    if (child.type === 'text') text += cleanText(child.data);
    else if (isElement(child)) {
      if (child.name === 'br') text += '\n';
      else if (!NEVER_RENDERED.has(child.name)) text += preformattedText(child);
    }
  }
  return text;
}

/** Indents every line after the first by `width` spaces (continuation lines of a list item). */
function indent(text: string, width: number): string {
  const pad = ' '.repeat(width);
  return pad + text.replace(/\n(?=.)/g, `\n${pad}`);
}

/** Wraps inline text in a delimiter, keeping the surrounding spaces outside (`** x**` is not emphasis in GFM). */
function wrap(text: string, delimiter: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  if (!match[2]) return text;
  return `${match[1]}${delimiter}${match[2]}${delimiter}${match[3]}`;
}

function codeSpan(raw: string): string {
  const text = cleanText(raw).replace(/\s+/g, ' ');
  if (!text.trim()) return text;
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A text node in running text: HTML whitespace (newlines included) collapses to one space, then escaping. */
/**
 * The children of `node` a reader sees, in order: each text node as escaped Markdown, each element that is ever
 * rendered (NEVER_RENDERED ones are skipped). The one rule for block and inline context alike.
 */
function* renderedChildren(node: HtmlElement | HtmlDocument): Generator<string | HtmlElement> {
  for (const child of node.children) {
    if (child.type === 'text') yield textNodeMarkdown(child.data);
    else if (isElement(child) && !NEVER_RENDERED.has(child.name)) yield child;
  }
}

// Runs of HTML whitespace other than one space: replacing those alone gives what replacing every run does, and a
// text whose runs are all single spaces (most of them) comes back as it is instead of copied.
const HTML_SPACE_RUN = / ?[\t\n\r\f][ \t\n\r\f]*| {2,}[ \t\n\r\f]*/g;
// The same within a line: runs of space, tab, CR and form feed.
const LINE_SPACE_RUN = / ?[\t\r\f][ \t\r\f]*| {2,}[ \t\r\f]*/g;

function textNodeMarkdown(value: string | null): string {
  return value ? escapeText(cleanText(value).replace(HTML_SPACE_RUN, ' ')) : '';
}

// Every character escapeText may escape: text without any (most of it) is returned after one scan, not three.
const ESCAPED = /[\\*`[\]<_]/;

/**
 * Escapes the characters that would change meaning in running text, and no more: `\`, `*`, `` ` ``, `[`, `]`,
 * `<` before a tag-like character, and `_` at a word edge (GFM ignores intraword underscores).
 */
function escapeText(text: string): string {
  if (!ESCAPED.test(text)) return text;
  return text
    .replace(/[\\*`[\]]/g, '\\$&')
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/(^|\W)_|_(?=\W|$)/g, (m) => m.replace('_', '\\_'));
}

/** Escapes what would start a block construct at the beginning of a paragraph: `#`, `>`, list markers, `=`/`-` rules. */
function escapeLineStart(text: string): string {
  return text.replace(
    /^(\s*)(#{1,6}(?=\s|$)|>|[-+](?=\s)|(\d+)([.)])(?=\s)|[=-]{3,}\s*$)/gm,
    (m, space, marker, digits, dot) => (digits ? `${space}${digits}\\${dot}` : `${space}\\${marker}`),
  );
}

function escapeUrl(url: string): string {
  // encodeURIComponent leaves ( and ) alone; they would end the link destination early.
  return url.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** Collapses HTML whitespace in a run of inline Markdown; `\n` (from <br>) stays as a line break. */
function finishInline(text: string): string {
  return text
    .replace(/[ \t\r\f\u00A0]*\n[ \t\r\f\u00A0\n]*/g, '\n')
    .replace(LINE_SPACE_RUN, ' ')
    .trim();
}

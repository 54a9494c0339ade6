// What the Office and e-book readers share (issue 27): their XML parts walked as htmlparser2 trees in xmlMode, and the
// Markdown made the way every page's is. A reader writes plain HTML (headings, paragraphs, lists, links, emphasis)
// and our HTML → Markdown serializer (src/extract/markdown.ts) renders it, so a document's Markdown is the same
// Markdown a web page gives; tables are written as GFM tables here, header row first, whatever their width.
// No DTD is read and no entity is expanded: htmlparser2 decodes the five XML entities and character references only,
// so an entity bomb's `&lol9;` stays nine characters (the "billion laughs" never happen).
import { DomUtils } from 'htmlparser2';
import { renderMarkdown } from '../extract/markdown.js';
import { parseHtml, parseMarkup } from '../extract/parse.js';

// domhandler's node types, named through htmlparser2 (domhandler is its dependency, not ours).
export type XmlElement = Parameters<typeof DomUtils.getAttributeValue>[0];
type XmlNode = XmlElement['children'][number];

/** An XML part's root element (undefined for a part with none). */
export function parseXml(xml: string): XmlElement | undefined {
  return parseMarkup(xml, { xmlMode: true }).children.find(DomUtils.isTag);
}

/** An element's name without its namespace prefix (`w:p` → `p`). */
export function localName(element: XmlElement): string {
  const colon = element.name.indexOf(':');
  return colon < 0 ? element.name : element.name.slice(colon + 1);
}

export function isElement(node: XmlNode): node is XmlElement {
  return DomUtils.isTag(node);
}

/** The child elements named `name` (local name). */
export function childrenNamed(parent: XmlElement, name: string): XmlElement[] {
  return parent.children.filter((child): child is XmlElement => isElement(child) && localName(child) === name);
}

export function childNamed(parent: XmlElement, name: string): XmlElement | undefined {
  return parent.children.find((child): child is XmlElement => isElement(child) && localName(child) === name);
}

/** Every descendant element named `name` (local name), in document order; nested ones too. */
export function descendantsNamed(root: XmlElement, name: string): XmlElement[] {
  return DomUtils.findAll((element) => localName(element) === name, root.children);
}

export function descendantNamed(root: XmlElement, name: string): XmlElement | undefined {
  return DomUtils.findOne((element) => localName(element) === name, root.children) ?? undefined;
}

/** An attribute by its local name, whatever its prefix (`r:id`, `xlink:href`, `full-path`). */
export function attribute(element: XmlElement, name: string): string | undefined {
  for (const [key, value] of Object.entries(element.attribs)) {
    if (key === name || key.endsWith(`:${name}`)) return value;
  }
  return undefined;
}

/** A relationship id (`r:id`), by its prefixed name: an element may also have an `id` of its own (pptx's sldId). */
export function relationshipId(element: XmlElement): string | undefined {
  for (const [key, value] of Object.entries(element.attribs)) if (key.endsWith(':id')) return value;
  return undefined;
}

export function textOf(node: XmlElement): string {
  return DomUtils.textContent(node);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => HTML_ESCAPES[char]!);
}

/** A link as HTML, or its text alone when the target is not a link a reader can follow. */
export function htmlLink(text: string, href: string | undefined): string {
  return href ? `<a href="${escapeHtml(href)}">${text}</a>` : text;
}

/** HTML a reader wrote → Markdown, by the serializer every page goes through; links resolve against `baseUrl`. */
export function markdownOfHtml(html: string, baseUrl: string): string {
  return renderMarkdown(parseHtml(`<body>${html}</body>`), { baseUrl });
}

/** A cell's text for a GFM table: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}

/** Rows → a GFM table, the first row its header; rows are padded to the widest. '' for no rows. */
export function gfmTable(rows: readonly (readonly string[])[]): string {
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (rows.length === 0 || width === 0) return '';
  const line = (row: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, index) => cell(row[index] ?? '')).join(' | ')} |`;
  return [line(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

/** The metadata a document declares (OOXML core properties, ODF meta.xml, EPUB's OPF, RTF's \info). */
export interface DocumentMetadata {
  readonly title?: string;
  readonly author?: string;
  readonly created?: string;
  readonly modified?: string;
}

/** Only the fields with words in them, trimmed. */
export function metadataOf(fields: Record<keyof DocumentMetadata, string | undefined>): DocumentMetadata {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    const trimmed = value?.replace(/\s+/g, ' ').trim();
    if (trimmed) out[key] = trimmed;
  }
  return out;
}

/**
 * A document's Markdown, block by block: runs of HTML rendered by the page serializer, tables and other Markdown as
 * written, in document order.
 */
export class MarkdownBlocks {
  private readonly blocks: string[] = [];
  private html = '';

  constructor(private readonly baseUrl: string) {}

  addHtml(html: string): void {
    this.html += html;
  }

  addMarkdown(markdown: string): void {
    this.flush();
    if (markdown.trim() !== '') this.blocks.push(markdown.trim());
  }

  markdown(): string {
    this.flush();
    return this.blocks.join('\n\n');
  }

  private flush(): void {
    if (this.html === '') return;
    const markdown = markdownOfHtml(this.html, this.baseUrl);
    if (markdown.trim() !== '') this.blocks.push(markdown.trim());
    this.html = '';
  }
}

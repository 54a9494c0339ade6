// Office Open XML (ECMA-376): Word's .docx and PowerPoint's .pptx as Markdown; Excel's .xlsx is in sheets.ts. The
// package's manifest ([Content_Types].xml) names the main part; relationships (`_rels/*.rels`) lead to the rest.
// docx: paragraphs by style (Title, heading N, outline level), lists by numbering (bullet or numbered, nested by
// level), bold and italic, hyperlinks, tables. pptx: each slide in the presentation's order as `## Slide N: title`,
// its text (body placeholders as lists), tables and links, then its speaker notes.
// Not handled: images and charts (no text), footnotes, comments, headers and footers, text boxes' reading order beyond
// their order in the part, merged cells (their text stays in the first cell).
import {
  attribute,
  childNamed,
  childrenNamed,
  descendantNamed,
  descendantsNamed,
  escapeHtml,
  gfmTable,
  htmlLink,
  isElement,
  localName,
  MarkdownBlocks,
  metadataOf,
  parseXml,
  relationshipId,
  textOf,
  type DocumentMetadata,
  type XmlElement,
} from './document-xml.js';
import type { ZipArchive } from './zip.js';

export type OoxmlFormat = 'docx' | 'xlsx' | 'pptx';

const MAIN_TYPES: ReadonlyArray<readonly [RegExp, OoxmlFormat]> = [
  [/wordprocessingml\.(document|template)\.main|ms-word\.(document|template)\.macroEnabled/i, 'docx'],
  [/spreadsheetml\.(sheet|template)\.main|ms-excel\.(sheet|template)\.macroEnabled/i, 'xlsx'],
  [/presentationml\.(presentation|slideshow|template)\.main|ms-powerpoint\.(presentation|slideshow)/i, 'pptx'],
];

/** The package's format and main part, from its manifest: `[Content_Types].xml`'s Override for the main part. */
export function ooxmlMain(zip: ZipArchive): { format: OoxmlFormat; part: string } | undefined {
  const types = parseXml(zip.text('[Content_Types].xml') ?? '');
  for (const override of types ? childrenNamed(types, 'Override') : []) {
    const type = attribute(override, 'ContentType') ?? '';
    const found = MAIN_TYPES.find(([pattern]) => pattern.test(type));
    const part = attribute(override, 'PartName')?.replace(/^\//, '');
    if (found && part) return { format: found[1], part };
  }
  return undefined;
}

/** The core properties (docProps/core.xml): title, creator, created and modified dates. */
export function coreProperties(zip: ZipArchive): DocumentMetadata {
  const core = parseXml(zip.text('docProps/core.xml') ?? '');
  const field = (name: string) => (core ? textOf(descendantNamed(core, name) ?? core).trim() : undefined);
  if (!core) return {};
  return metadataOf({
    title: descendantNamed(core, 'title') && field('title'),
    author: descendantNamed(core, 'creator') && field('creator'),
    created: descendantNamed(core, 'created') && field('created'),
    modified: descendantNamed(core, 'modified') && field('modified'),
  });
}

function dirname(part: string): string {
  return part.includes('/') ? part.slice(0, part.lastIndexOf('/') + 1) : '';
}

/** A relative target resolved against a part's folder, as OPC does (ECMA-376 part 2 §9.3). */
export function resolvePart(from: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : dirname(from) + target).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

export interface Relationship {
  readonly type: string;
  /** A part's name, or an external URL as written. */
  readonly target: string;
  readonly external: boolean;
}

/** A part's relationships by id. */
export function relationships(zip: ZipArchive, part: string): Map<string, Relationship> {
  const name = part.includes('/') ? part.replace(/([^/]+)$/, '_rels/$1.rels') : `_rels/${part}.rels`;
  const root = parseXml(zip.text(name) ?? '');
  const out = new Map<string, Relationship>();
  for (const rel of root ? childrenNamed(root, 'Relationship') : []) {
    const external = attribute(rel, 'TargetMode') === 'External';
    const target = attribute(rel, 'Target') ?? '';
    out.set(attribute(rel, 'Id') ?? '', {
      type: attribute(rel, 'Type') ?? '',
      target: external ? target : resolvePart(part, target),
      external,
    });
  }
  return out;
}

const externalLink = (rels: Map<string, Relationship>, id: string | undefined) => {
  const rel = id === undefined ? undefined : rels.get(id);
  return rel?.external ? rel.target : undefined;
};

// ---- docx ----------------------------------------------------------------------------------------------------------

interface ListLevel {
  readonly tag: 'ul' | 'ol';
  readonly level: number;
}

interface WordContext {
  readonly rels: Map<string, Relationship>;
  /** Style id → its name, lower-cased ("heading 1", "title"). */
  readonly styles: Map<string, string>;
  /** numId → ilvl → 'ul' or 'ol'. */
  readonly numbering: Map<string, Map<string, 'ul' | 'ol'>>;
  /** The document uses a Title style: headings go one level down under it. */
  readonly titled: boolean;
}

function wordStyles(zip: ZipArchive): Map<string, string> {
  const root = parseXml(zip.text('word/styles.xml') ?? '');
  const styles = new Map<string, string>();
  for (const style of root ? childrenNamed(root, 'style') : []) {
    const name = childNamed(style, 'name');
    styles.set(attribute(style, 'styleId') ?? '', (name && attribute(name, 'val'))?.toLowerCase() ?? '');
  }
  return styles;
}

function wordNumbering(zip: ZipArchive): WordContext['numbering'] {
  const root = parseXml(zip.text('word/numbering.xml') ?? '');
  const abstract = new Map<string, Map<string, 'ul' | 'ol'>>();
  for (const definition of root ? childrenNamed(root, 'abstractNum') : []) {
    const levels = new Map<string, 'ul' | 'ol'>();
    for (const level of childrenNamed(definition, 'lvl')) {
      const format = childNamed(level, 'numFmt');
      const value = format ? attribute(format, 'val') : 'bullet';
      levels.set(attribute(level, 'ilvl') ?? '0', value === 'bullet' || value === 'none' ? 'ul' : 'ol');
    }
    abstract.set(attribute(definition, 'abstractNumId') ?? '', levels);
  }
  const numbering = new Map<string, Map<string, 'ul' | 'ol'>>();
  for (const num of root ? childrenNamed(root, 'num') : []) {
    const ref = childNamed(num, 'abstractNumId');
    numbering.set(attribute(num, 'numId') ?? '', abstract.get((ref && attribute(ref, 'val')) ?? '') ?? new Map());
  }
  return numbering;
}

const on = (props: XmlElement | undefined, name: string) => {
  const flag = props && childNamed(props, name);
  const value = flag && attribute(flag, 'val');
  return flag !== undefined && value !== '0' && value !== 'false';
};

/** A paragraph's runs as inline HTML: text, tabs and breaks, bold and italic, hyperlinks. */
function wordInline(node: XmlElement, context: WordContext): string {
  let html = '';
  for (const child of node.children) {
    if (!isElement(child)) continue;
    switch (localName(child)) {
      case 'r': {
        let text = '';
        for (const part of child.children) {
          if (!isElement(part)) continue;
          const name = localName(part);
          if (name === 't') text += escapeHtml(textOf(part));
          else if (name === 'tab') text += ' ';
          else if (name === 'br' || name === 'cr') text += '<br>';
        }
        const props = childNamed(child, 'rPr');
        if (text.trim() !== '' && on(props, 'b')) text = `<strong>${text}</strong>`;
        if (text.trim() !== '' && on(props, 'i')) text = `<em>${text}</em>`;
        html += text;
        break;
      }
      case 'hyperlink':
        html += htmlLink(wordInline(child, context), externalLink(context.rels, relationshipId(child)));
        break;
      case 'fldSimple': {
        const url = /HYPERLINK\s+"([^"]+)"/.exec(attribute(child, 'instr') ?? '')?.[1];
        html += htmlLink(wordInline(child, context), url);
        break;
      }
      case 'ins':
      case 'smartTag':
      case 'sdt':
      case 'sdtContent':
        html += wordInline(child, context);
        break;
      default: // deleted text, properties, bookmarks, drawings
    }
  }
  return html;
}

function headingLevel(paragraph: XmlElement, props: XmlElement | undefined, context: WordContext): number {
  const styleRef = props && childNamed(props, 'pStyle');
  const style = context.styles.get((styleRef && attribute(styleRef, 'val')) ?? '') ?? '';
  if (style === 'title') return 1;
  const shift = context.titled ? 1 : 0;
  const named = /^heading (\d)$/.exec(style);
  if (named) return Math.min(6, Number(named[1]) + shift);
  const outline = props && childNamed(props, 'outlineLvl');
  const level = outline ? Number(attribute(outline, 'val')) : NaN;
  return Number.isInteger(level) && level < 9 ? Math.min(6, level + 1 + shift) : 0;
}

/** A .docx's body as Markdown. */
export function readDocx(zip: ZipArchive, part: string, baseUrl: string): string {
  const root = parseXml(zip.text(part) ?? '');
  const body = root && childNamed(root, 'body');
  if (!body) return '';
  const styles = wordStyles(zip);
  const context: WordContext = {
    rels: relationships(zip, part),
    styles,
    numbering: wordNumbering(zip),
    titled: descendantsNamed(body, 'pStyle').some((style) => styles.get(attribute(style, 'val') ?? '') === 'title'),
  };
  const out = new MarkdownBlocks(baseUrl);
  const lists: ListLevel[] = [];
  const closeLists = (above = -1) => {
    while (lists.length > 0 && lists.at(-1)!.level > above) out.addHtml(`</li></${lists.pop()!.tag}>`);
  };
  const walk = (container: XmlElement) => {
    for (const child of container.children) {
      if (!isElement(child)) continue;
      const name = localName(child);
      if (name === 'sdt' || name === 'sdtContent' || name === 'ins') walk(child);
      else if (name === 'tbl') {
        closeLists();
        out.addMarkdown(gfmTable(wordTableRows(child)));
      } else if (name === 'p') {
        const props = childNamed(child, 'pPr');
        const inline = wordInline(child, context);
        const numbered = props && childNamed(props, 'numPr');
        const numId = numbered && childNamed(numbered, 'numId');
        const ilvl = numbered && childNamed(numbered, 'ilvl');
        if (numId && attribute(numId, 'val') !== '0') {
          const level = Number((ilvl && attribute(ilvl, 'val')) ?? 0) || 0;
          const tag = context.numbering.get(attribute(numId, 'val') ?? '')?.get(String(level)) ?? 'ul';
          closeLists(level);
          const top = lists.at(-1);
          if (top?.level === level && top.tag !== tag) closeLists(level - 1);
          if (lists.at(-1)?.level === level) out.addHtml(`</li><li>${inline}`);
          else {
            out.addHtml(`<${tag}><li>${inline}`);
            lists.push({ tag, level });
          }
          continue;
        }
        closeLists();
        if (inline.replace(/<br>/g, '').trim() === '') continue;
        const heading = headingLevel(child, props, context);
        out.addHtml(heading > 0 ? `<h${heading}>${inline}</h${heading}>` : `<p>${inline}</p>`);
      }
    }
  };
  walk(body);
  closeLists();
  return out.markdown();
}

function wordTableRows(table: XmlElement): string[][] {
  return childrenNamed(table, 'tr').map((row) =>
    childrenNamed(row, 'tc').map((cell) =>
      descendantsNamed(cell, 'p')
        .map((paragraph) =>
          descendantsNamed(paragraph, 't')
            .map((text) => textOf(text))
            .join(''),
        )
        .filter((text) => text.trim() !== '')
        .join(' '),
    ),
  );
}

// ---- pptx ----------------------------------------------------------------------------------------------------------

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
const LIST_PLACEHOLDERS = new Set(['body', 'obj', '']);

function placeholderType(shape: XmlElement): string | undefined {
  const ph = descendantNamed(childNamed(shape, 'nvSpPr') ?? shape, 'ph');
  return ph ? (attribute(ph, 'type') ?? '') : undefined;
}

/** A DrawingML paragraph's runs as inline HTML, with its links. */
function drawingInline(paragraph: XmlElement, rels: Map<string, Relationship>): string {
  let html = '';
  for (const run of paragraph.children) {
    if (!isElement(run)) continue;
    const name = localName(run);
    if (name === 'br') html += '<br>';
    if (name !== 'r' && name !== 'fld') continue;
    const text = escapeHtml(textOf(childNamed(run, 't') ?? run));
    const click = descendantNamed(childNamed(run, 'rPr') ?? run, 'hlinkClick');
    html += htmlLink(text, click && externalLink(rels, relationshipId(click)));
  }
  return html;
}

function paragraphsOf(body: XmlElement, rels: Map<string, Relationship>): string[] {
  return childrenNamed(body, 'p')
    .map((paragraph) => drawingInline(paragraph, rels))
    .filter((html) => html.replace(/<br>/g, '').trim() !== '');
}

/** A slide's (or a notes page's) shapes in order, groups opened. */
function shapesOf(tree: XmlElement): XmlElement[] {
  return tree.children.flatMap((child) => {
    if (!isElement(child)) return [];
    const name = localName(child);
    if (name === 'grpSp') return shapesOf(child);
    return name === 'sp' || name === 'graphicFrame' ? [child] : [];
  });
}

function slideTree(zip: ZipArchive, part: string): XmlElement | undefined {
  const root = parseXml(zip.text(part) ?? '');
  return root && descendantNamed(root, 'spTree');
}

/** A .pptx's slides, each `## Slide N: title` with its text, tables and notes. */
export function readPptx(zip: ZipArchive, part: string, baseUrl: string): { markdown: string; slides: number } {
  const root = parseXml(zip.text(part) ?? '');
  const rels = relationships(zip, part);
  const list = root && descendantNamed(root, 'sldIdLst');
  const slideParts = (list ? childrenNamed(list, 'sldId') : [])
    .map((slide) => rels.get(relationshipId(slide) ?? ''))
    .filter((rel): rel is Relationship => rel !== undefined && !rel.external && rel.type.endsWith('/slide'))
    .map((rel) => rel.target);
  const sections = slideParts.map((slidePart, index) => {
    const slideRels = relationships(zip, slidePart);
    const tree = slideTree(zip, slidePart);
    const out = new MarkdownBlocks(baseUrl);
    let title = '';
    for (const shape of tree ? shapesOf(tree) : []) {
      const table = descendantNamed(shape, 'tbl');
      if (table) {
        const rows = childrenNamed(table, 'tr').map((row) =>
          childrenNamed(row, 'tc').map((cell) => descendantsNamed(cell, 't').map(textOf).join(' ')),
        );
        out.addMarkdown(gfmTable(rows));
        continue;
      }
      const body = childNamed(shape, 'txBody');
      if (!body) continue;
      const type = placeholderType(shape);
      const paragraphs = paragraphsOf(body, slideRels);
      if (type !== undefined && TITLE_PLACEHOLDERS.has(type) && title === '') {
        title = paragraphs.map((html) => html.replace(/<[^>]+>/g, '')).join(' ');
      } else if (type !== undefined && LIST_PLACEHOLDERS.has(type) && paragraphs.length > 1) {
        out.addHtml(`<ul>${paragraphs.map((html) => `<li>${html}</li>`).join('')}</ul>`);
      } else {
        out.addHtml(paragraphs.map((html) => `<p>${html}</p>`).join(''));
      }
    }
    const notes = [...slideRels.values()].find((rel) => rel.type.endsWith('/notesSlide') && !rel.external);
    const notesTree = notes && slideTree(zip, notes.target);
    const noteText = (notesTree ? shapesOf(notesTree) : [])
      .filter((shape) => placeholderType(shape) === 'body')
      .flatMap((shape) => paragraphsOf(childNamed(shape, 'txBody') ?? shape, slideRels));
    if (noteText.length > 0) out.addHtml(`<p><strong>Notes:</strong> ${noteText.join('<br>')}</p>`);
    const heading = `## Slide ${index + 1}${title ? `: ${unescapeHtml(title)}` : ''}`;
    const text = out.markdown();
    return text === '' ? heading : `${heading}\n\n${text}`;
  });
  return { markdown: sections.join('\n\n'), slides: slideParts.length };
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[name]!);
}

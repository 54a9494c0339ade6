// OpenDocument (OASIS ODF 1.3) text and presentations as Markdown: .odt by its headings (outline level), paragraphs,
// lists (numbered when their list style numbers), links and tables; .odp as `## Slide N: title` sections with their
// text, tables and notes. Spreadsheets (.ods) are in sheets.ts. Metadata from meta.xml.
// Not handled: footnotes and annotations (left out), images and drawings' shapes (no text), tracked changes (the
// current text is read), list numbering styles beyond numbered-or-not.
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
  MarkdownBlocks,
  metadataOf,
  parseXml,
  textOf,
  type DocumentMetadata,
  type XmlElement,
} from './document-xml.js';
import { MAX_SHEET_COLUMNS, MAX_SHEET_ROWS } from './sheets.js';
import type { ZipArchive } from './zip.js';

export function odfMetadata(zip: ZipArchive): DocumentMetadata {
  const root = parseXml(zip.text('meta.xml') ?? '');
  const meta = root && descendantNamed(root, 'meta');
  if (!meta) return {};
  const field = (name: string) => {
    const element = childrenNamed(meta, name)[0];
    return element && textOf(element);
  };
  return metadataOf({
    title: field('title'),
    author: field('initial-creator') ?? field('creator'),
    created: field('creation-date'),
    modified: field('date'),
  });
}

/** The names of the list styles that number (their first level is a number style). */
function numberedListStyles(root: XmlElement): Set<string> {
  const numbered = new Set<string>();
  for (const style of descendantsNamed(root, 'list-style')) {
    const first = style.children.find(isElement);
    if (first?.name === 'text:list-level-style-number') numbered.add(attribute(style, 'name') ?? '');
  }
  return numbered;
}

/** Inline content of a paragraph or heading as HTML. */
function inline(node: XmlElement): string {
  let html = '';
  for (const child of node.children) {
    if (child.type === 'text') {
      html += escapeHtml((child as unknown as { data: string }).data);
      continue;
    }
    if (!isElement(child)) continue;
    switch (child.name) {
      case 'text:s':
        html += ' '.repeat(Math.min(100, Number(attribute(child, 'c') ?? 1) || 1));
        break;
      case 'text:tab':
        html += ' ';
        break;
      case 'text:line-break':
        html += '<br>';
        break;
      case 'text:a':
        html += htmlLink(inline(child), attribute(child, 'href'));
        break;
      case 'text:note':
      case 'office:annotation':
      case 'text:bookmark-ref':
        break;
      default:
        html += inline(child); // spans, fields, meta
    }
  }
  return html;
}

function cellText(cell: XmlElement): string {
  return childrenNamed(cell, 'p')
    .map((paragraph) => inline(paragraph).replace(/<[^>]+>/g, ' '))
    .join(' ')
    .replace(/&(amp|lt|gt|quot);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[name]!);
}

/** A table's rows, repeated rows and cells laid out within the sheet caps, trailing empty ones left out. */
export function odfTableRows(table: XmlElement): string[][] {
  const rows: string[][] = [];
  const rowElements = descendantsNamed(table, 'table-row');
  for (const rowElement of rowElements) {
    const row: string[] = [];
    for (const cell of rowElement.children) {
      if (!isElement(cell) || !/^table:(covered-)?table-cell$/.test(cell.name)) continue;
      const text = cellText(cell);
      const repeat = Math.min(Number(attribute(cell, 'number-columns-repeated') ?? 1) || 1, MAX_SHEET_COLUMNS);
      for (let i = 0; i < repeat && row.length < MAX_SHEET_COLUMNS; i++) row.push(text);
    }
    while (row.length > 0 && row.at(-1)!.trim() === '') row.pop();
    const repeat = row.length === 0 ? 1 : Number(attribute(rowElement, 'number-rows-repeated') ?? 1) || 1;
    for (let i = 0; i < repeat && rows.length < MAX_SHEET_ROWS; i++) rows.push(row);
  }
  while (rows.length > 0 && rows.at(-1)!.length === 0) rows.pop();
  return rows;
}

/** Block content (headings, paragraphs, lists, tables, sections) into `out`. */
function blocks(container: XmlElement, out: MarkdownBlocks, numbered: Set<string>): void {
  for (const child of container.children) {
    if (!isElement(child)) continue;
    switch (child.name) {
      case 'text:h': {
        const level = Math.min(6, Math.max(1, Number(attribute(child, 'outline-level') ?? 1) || 1));
        out.addHtml(`<h${level}>${inline(child)}</h${level}>`);
        break;
      }
      case 'text:p':
        out.addHtml(`<p>${inline(child)}</p>`);
        break;
      case 'text:list':
        out.addHtml(list(child, numbered));
        break;
      case 'table:table':
        out.addMarkdown(gfmTable(odfTableRows(child)));
        break;
      case 'text:section':
      case 'draw:frame':
      case 'draw:text-box':
        blocks(child, out, numbered);
        break;
      default:
    }
  }
}

function list(element: XmlElement, numbered: Set<string>, style = attribute(element, 'style-name')): string {
  const tag = numbered.has(style ?? '') ? 'ol' : 'ul';
  const items = childrenNamed(element, 'list-item').map((item) => {
    const parts = item.children.filter(isElement).map((child) => {
      if (child.name === 'text:list') return list(child, numbered, attribute(child, 'style-name') ?? style);
      return child.name === 'text:p' || child.name === 'text:h' ? inline(child) : '';
    });
    return `<li>${parts.join('<br>').replace(/<br>(<[uo]l>)/g, '$1')}</li>`;
  });
  return `<${tag}>${items.join('')}</${tag}>`;
}

function contentRoot(zip: ZipArchive): XmlElement | undefined {
  return parseXml(zip.text('content.xml') ?? '');
}

/** An .odt's text as Markdown. */
export function readOdt(zip: ZipArchive, baseUrl: string): string {
  const root = contentRoot(zip);
  const text = root && descendantNamed(root, 'text');
  if (!root || !text) return '';
  const out = new MarkdownBlocks(baseUrl);
  blocks(text, out, numberedListStyles(root));
  return out.markdown();
}

/** An .odp's pages as `## Slide N: title` sections with their notes. */
export function readOdp(zip: ZipArchive, baseUrl: string): { markdown: string; slides: number } {
  const root = contentRoot(zip);
  const presentation = root && descendantNamed(root, 'presentation');
  if (!root || !presentation) return { markdown: '', slides: 0 };
  const numbered = numberedListStyles(root);
  const pages = childrenNamed(presentation, 'page');
  const sections = pages.map((page, index) => {
    const out = new MarkdownBlocks(baseUrl);
    let title = '';
    for (const frame of childrenNamed(page, 'frame')) {
      if (attribute(frame, 'class') === 'title' && title === '') title = textOf(frame).replace(/\s+/g, ' ').trim();
      else blocks(frame, out, numbered);
    }
    const notes = childNamed(page, 'notes');
    const noteText = notes
      ? childrenNamed(notes, 'frame')
          .filter((frame) => attribute(frame, 'class') === 'notes')
          .flatMap((frame) => descendantsNamed(frame, 'p').map(inline))
          .filter((html) => html.trim() !== '')
      : [];
    if (noteText.length > 0) out.addHtml(`<p><strong>Notes:</strong> ${noteText.join('<br>')}</p>`);
    const heading = `## Slide ${index + 1}${title ? `: ${title}` : ''}`;
    const body = out.markdown();
    return body === '' ? heading : `${heading}\n\n${body}`;
  });
  return { markdown: sections.join('\n\n'), slides: pages.length };
}

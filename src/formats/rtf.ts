// Rich Text Format (RTF 1.9.1) as Markdown: paragraphs, headings by outline level (\outlinelevelN), links
// (HYPERLINK fields), tables (\intbl … \cell … \row) as GFM tables, and the \info group's title, author and dates. One
// pass over the text, linear in its size; groups nest at most MAX_GROUP_DEPTH deep (deeper ones are read flat).
// Characters: \'hh in the document's ANSI code page (Windows-1252 unless \ansicpgN names another TextDecoder
// knows), \uN with its \ucN fallback skipped, the named punctuation (\emdash, \lquote, …).
// Not handled: bold and italic (the words stay, unmarked), lists' numbering text (\pntext and \listtext are read as
// text), pictures and objects (skipped), footnotes, headers and footers (skipped), \bin data (skipped).
import { escapeHtml, gfmTable, htmlLink, MarkdownBlocks, metadataOf, type DocumentMetadata } from './document-xml.js';

const MAX_GROUP_DEPTH = 512;

// Destinations whose text is not the document's.
const SKIPPED = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'pict', 'object', 'header', 'headerl', 'headerr', 'headerf', 'footer',
  'footerl', 'footerr', 'footerf', 'footnote', 'listtable', 'listoverridetable', 'rsidtbl', 'generator', 'xmlnstbl',
  'themedata', 'colorschememapping', 'datastore', 'latentstyles', 'filetbl', 'revtbl', 'userprops', 'operator',
  'company', 'subject', 'keywords', 'comment', 'doccomm', 'category', 'manager', 'hlinkbase', 'template',
]); // prettier-ignore

const SYMBOLS: Record<string, string> = {
  emdash: '—', endash: '–', lquote: '‘', rquote: '’', ldblquote: '“', rdblquote: '”', bullet: '•', tab: ' ',
  emspace: ' ', enspace: ' ', qmspace: ' ', '~': ' ', _: '‑', '-': '',
}; // prettier-ignore

interface Group {
  /** What this group's text goes to: the body, a skipped destination, or a field's parts / an \info field. */
  sink: 'body' | 'skip' | 'fldinst' | 'fldrslt' | 'title' | 'author' | 'creatim' | 'revtim';
  uc: number;
  outline: number;
  /** A \field group: its instruction and result, read when it closes. */
  field?: { instruction: string; result: string };
}

export interface RtfDocument {
  readonly markdown: string;
  readonly metadata: DocumentMetadata;
}

export function readRtf(bytes: Uint8Array, baseUrl: string): RtfDocument {
  const source = new TextDecoder('latin1').decode(bytes);
  const codePage = /\\ansicpg(\d+)/.exec(source.slice(0, 2000))?.[1];
  let ansi: TextDecoder;
  try {
    ansi = new TextDecoder(`windows-${codePage ?? '1252'}`);
  } catch {
    ansi = new TextDecoder('windows-1252');
  }
  const out = new MarkdownBlocks(baseUrl);
  const info: Record<string, string> = {};
  const dates: Record<string, Record<string, number>> = { creatim: {}, revtim: {} };
  const stack: Group[] = [{ sink: 'body', uc: 1, outline: -1 }];
  let paragraph = '';
  let inTable = false;
  let cellText = '';
  let row: string[] = [];
  let table: string[][] = [];
  let skipChars = 0;
  let pendingBytes: number[] = [];

  const top = () => stack.at(-1)!;
  const fieldOf = () => [...stack].reverse().find((group) => group.field)?.field;
  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    const text = ansi.decode(new Uint8Array(pendingBytes));
    pendingBytes = [];
    emitText(text);
  };
  const emitText = (text: string) => {
    const group = top();
    if (group.sink === 'skip') return;
    if (group.sink === 'fldinst') fieldOf()!.instruction += text;
    else if (group.sink === 'fldrslt') fieldOf()!.result += text;
    else if (group.sink === 'body') {
      if (inTable) cellText += text;
      else paragraph += escapeHtml(text);
    } else if (group.sink === 'title' || group.sink === 'author') info[group.sink] = (info[group.sink] ?? '') + text;
  };
  const emitHtml = (html: string) => {
    if (inTable) cellText += html.replace(/<[^>]+>/g, '');
    else paragraph += html;
  };
  const flushTable = () => {
    if (table.length > 0) out.addMarkdown(gfmTable(table));
    table = [];
  };
  const endParagraph = () => {
    flushBytes();
    if (inTable) return;
    flushTable();
    if (paragraph.trim() !== '') {
      const level = top().outline;
      out.addHtml(
        level >= 0 ? `<h${Math.min(6, level + 1)}>${paragraph}</h${Math.min(6, level + 1)}>` : `<p>${paragraph}</p>`,
      );
    }
    paragraph = '';
  };

  let at = 0;
  while (at < source.length) {
    const char = source[at]!;
    if (char === '{') {
      flushBytes();
      const parent = top();
      if (stack.length < MAX_GROUP_DEPTH) stack.push({ sink: parent.sink, uc: parent.uc, outline: parent.outline });
      at++;
    } else if (char === '}') {
      flushBytes();
      const closed = stack.length > 1 ? stack.pop()! : top();
      if (closed.field) {
        const url = /HYPERLINK\s+"([^"]+)"/i.exec(closed.field.instruction)?.[1];
        const group = top();
        if (group.sink === 'body') emitHtml(htmlLink(escapeHtml(closed.field.result), url));
        else if (group.sink === 'fldrslt') fieldOf()!.result += closed.field.result;
      }
      at++;
    } else if (char === '\\') {
      const match = /^\\(?:([a-z]{1,32})(-?\d{1,10})? ?|'([0-9a-f]{2})|(.))/is.exec(source.slice(at, at + 48));
      if (!match) {
        at++;
        continue;
      }
      at += match[0].length;
      const [, word, param, hex, symbol] = match;
      if (hex !== undefined) {
        if (skipChars > 0) skipChars--;
        else pendingBytes.push(parseInt(hex, 16));
        continue;
      }
      flushBytes();
      if (symbol !== undefined) {
        if (symbol === '*') {
          // An optional destination: skipped unless it is one read here (a field's instruction).
          if (!/^\s*\\fldinst/.test(source.slice(at, at + 12))) top().sink = 'skip';
        } else if (symbol === '\n' || symbol === '\r') endParagraph();
        else if (skipChars > 0) skipChars--;
        else emitText(SYMBOLS[symbol] ?? symbol);
        continue;
      }
      const value = param === undefined ? undefined : Number(param);
      const group = top();
      switch (word) {
        case 'par':
        case 'sect':
        case 'page':
          endParagraph();
          break;
        case 'pard':
          group.outline = -1;
          inTable = false;
          break;
        case 'outlinelevel':
          group.outline = value ?? 0;
          break;
        case 'intbl':
          inTable = true;
          break;
        case 'cell':
          row.push(cellText.trim());
          cellText = '';
          break;
        case 'row':
          table.push(row);
          row = [];
          inTable = false;
          break;
        case 'line':
          emitHtml('<br>');
          break;
        case 'uc':
          group.uc = value ?? 1;
          break;
        case 'u':
          emitText(String.fromCharCode(((value ?? 0) + 65536) % 65536));
          skipChars = group.uc;
          break;
        case 'bin':
          at += Math.max(0, value ?? 0);
          break;
        case 'field':
          group.field = { instruction: '', result: '' };
          break;
        case 'fldinst':
          group.sink = 'fldinst';
          break;
        case 'fldrslt':
          group.sink = group.sink === 'skip' ? 'skip' : 'fldrslt';
          break;
        case 'info':
          group.sink = 'skip'; // its text is none of the body's; its fields below are read
          break;
        case 'title':
        case 'author':
          group.sink = word;
          break;
        case 'creatim':
        case 'revtim':
          group.sink = word;
          break;
        case 'yr':
        case 'mo':
        case 'dy':
        case 'hr':
        case 'min':
          if (group.sink === 'creatim' || group.sink === 'revtim') dates[group.sink]![word] = value ?? 0;
          break;
        default:
          if (SKIPPED.has(word!)) group.sink = 'skip';
          else if (SYMBOLS[word!] !== undefined) emitText(SYMBOLS[word!]!);
      }
    } else {
      if (char !== '\n' && char !== '\r') {
        if (skipChars > 0) skipChars--;
        else pendingBytes.push(char.charCodeAt(0));
      }
      at++;
    }
  }
  endParagraph();
  if (row.length > 0) table.push(row);
  flushTable();
  return {
    markdown: out.markdown(),
    metadata: metadataOf({
      title: info.title,
      author: info.author,
      created: rtfDate(dates.creatim!),
      modified: rtfDate(dates.revtim!),
    }),
  };
}

function rtfDate(parts: Record<string, number>): string | undefined {
  if (!parts.yr) return undefined;
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${parts.yr}-${two(parts.mo || 1)}-${two(parts.dy || 1)}T${two(parts.hr)}:${two(parts.min)}:00`;
}

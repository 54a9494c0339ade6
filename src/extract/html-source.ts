// The source pre-pass of parseHtml: cuts what is never rendered — script and style bodies, comments, inline SVG,
// template content — from the HTML text before it is tokenized. On news pages these are often most of the bytes
// (inline JSON state, icon sprites), and skipping them here is cheaper than tokenizing them. Where each cut ends follows the HTML
// tokenizer (HTML §13.2.5): a cut that ends too late swallows the page after it, one that ends too early leaks code
// as text.
// Not handled: `<script` or `<!--` written inside a quoted attribute value is taken for the real thing (finding it
// would mean tokenizing every tag); MathML, whose text is rendered, is left to the parser.

// Where a cut may start: a comment or bogus comment (`<!`, `<?`, `</` not followed by a letter), an element whose
// content is never rendered, or an RCDATA element whose text must be kept whole (a `<!--` inside <title> is text,
// not a comment). A tag name ends at whitespace, `/` or `>`: `<script-x>` is another element.
const CUT_START =
  /<(?:(!--)|[!?]|\/(?![A-Za-z])|(script|style|svg|template|title|textarea|xmp|iframe|noembed|noframes)(?=[\t\n\f\r />]))/gi;
const COMMENT_END = /--!?>/g;
// Script data (HTML §13.2.5.4 and the escaped states after it): `</script` ends the element, except inside
// `<!-- … <script` (double-escaped), which old pages use to write a whole script element from a script.
const SCRIPT_TOKEN = /<!--|-->|<(\/?)script(?=[\t\n\f\r />])/gi;
// The end tag of each RAWTEXT or RCDATA element: its name followed by whitespace, `/` or `>`.
const END_TAG = new Map(
  ['style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes'].map((name) => [
    name,
    new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, 'gi'),
  ]),
);
// Elements whose text the tokenizer reads as text, not markup (HTML §13.2.5.2–3). <title> and <textarea> text stays
// (the reader sees it); <iframe>, <noembed> and <noframes> hold fallback no browser shows, so their text goes,
// their tags stay. htmlparser2 reads the first three as text but parses the others as markup, and ends none of them
// at `</title/>`: each gets a plain end tag, so the parser ends it where the browser does.
const KEEP_TEXT = new Set(['title', 'textarea', 'xmp']);
// Inside <svg>, the tags that matter: nested <svg>, the HTML integration points (<foreignObject>, <desc>, <title>:
// their content is HTML), comments, and the HTML tags that break out of foreign content (HTML §13.2.6.5), so that a
// page that forgets `</svg>` gets its text back where a browser does: the start tags the spec lists, and end tags
// of HTML elements — a browser closes the <svg> when an end tag matches an open HTML element; we cannot see which
// are open, so we take end tags of names that only HTML has.
const BREAKOUT_START =
  'b|big|blockquote|body|br|center|code|dd|div|dl|dt|em|embed|h[1-6]|head|hr|i|img|li|listing|menu|meta|nobr|ol|p|pre|ruby|s|small|span|strike|strong|sub|sup|table|tt|u|ul|var';
const BREAKOUT_END =
  'address|article|aside|b|blockquote|body|br|button|center|code|dd|details|div|dl|dt|em|fieldset|figcaption|figure|footer|form|h[1-6]|header|html|i|label|li|main|nav|ol|p|pre|section|small|span|strong|table|td|th|tr|u|ul';
const SVG_TOKEN = new RegExp(
  `<!--|<(svg|foreignobject|desc|title|${BREAKOUT_START})(?=[\\t\\n\\f\\r />])|<\\/(svg|foreignobject|desc|title|${BREAKOUT_END})(?=[\\t\\n\\f\\r />])`,
  'gi',
);
const INTEGRATION_POINTS = new Set(['foreignobject', 'desc', 'title']);
// A <template>'s content is parsed into a fragment of its own, never into the document (HTML §13.2.6.4.4): it is
// markup for scripts to stamp out, not text on the page. Templates nest. A declarative shadow root
// (`<template shadowrootmode>`) is the exception: the browser renders it.
const SHADOW_ROOT = /[\t\n\f\r /]shadowroot(?:mode)?[\t\n\f\r ]*=/i;
const TEMPLATE_TOKEN = /<!--|<(\/?)template(?=[\t\n\f\r />])/gi;

/** A `<style>` element the pre-pass cut: where it starts, its start tag's attributes and its CSS. */
export interface StyleSource {
  /** Offset of `<style` in the HTML. */
  readonly at: number;
  /** The start tag's text after the name (`media`, `nonce`…). */
  readonly attributes: string;
  /** Offsets of the CSS in the HTML: [start, end). */
  readonly start: number;
  readonly end: number;
}

/** A `<script>` element the pre-pass cut: its start tag's attributes and its text (structured-data.ts's JSON-LD). */
export interface ScriptSource {
  /** The start tag's text after the name (`type`, `src`…). */
  readonly attributes: string;
  /** Offsets of the script's text in the HTML: [start, end). */
  readonly start: number;
  readonly end: number;
}

/**
 * `html` without its comments, script and style bodies, inline SVG, template content and the fallback text of
 * iframe, noembed and noframes; everything else as written, as the runs of it that stay, in order: slices of `html`
 * and the end tags put back. The parser reads them one after another (parse.ts), so the page is never copied whole:
 * one string joined from the runs was flattened into a copy of the page when the tokenizer first read it (about a
 * byte per character of every page, alive for the whole parse). With `styles`, each `<style>` cut is listed there;
 * with `scripts`, each `<script>`.
 */
export function cutNeverRendered(html: string, styles?: StyleSource[], scripts?: ScriptSource[]): string[] {
  const pieces: string[] = [];
  let kept = 0;
  CUT_START.lastIndex = 0;
  for (let match = CUT_START.exec(html); match; match = CUT_START.exec(html)) {
    const start = match.index;
    const name = match[2]?.toLowerCase();
    // html[start, end) becomes html[start, keep) followed by `insert`.
    let keep = start;
    let insert = '';
    let end: number;
    if (match[1]) end = commentEnd(html, start + 4);
    else if (name === undefined) end = bogusCommentEnd(html, start + 2);
    else {
      const tag = startTagEnd(html, start + 1 + name.length);
      if (name === 'script') {
        end = scriptEnd(html, tag.end);
        // The script's text ends where its end tag starts; one never closed runs to the end of the file.
        if (scripts) {
          const close = html.lastIndexOf('</', end - 1);
          const isEndTag = close >= tag.end && html.slice(close + 2, close + 8).toLowerCase() === 'script';
          scripts.push({ attributes: html.slice(start + 7, tag.end - 1), start: tag.end, end: isEndTag ? close : end });
        }
      } else if (name === 'style') {
        const close = endTag(html, tag.end, name);
        // The sheets a browser applies are these (not `<style>` written in a script or a comment): hidden-css.ts
        // reads them here instead of scanning the page again.
        styles?.push({ at: start, attributes: html.slice(start + 6, tag.end), start: tag.end, end: close.start });
        end = close.end;
      }
      // A foreign element's `/>` closes it (HTML §13.2.6.5), unlike an HTML element's.
      else if (name === 'svg') end = tag.selfClosing ? tag.end : svgEnd(html, tag.end);
      // A declarative shadow root is rendered in place of its host's children: its content stays, unwrapped (the
      // stray `</template>` left behind is ignored by the parser).
      else if (name === 'template' && SHADOW_ROOT.test(html.slice(start, tag.end))) end = tag.end;
      else {
        // The element stays, with its text or without it (a <template> stays empty: extraction counts it as a
        // hidden block), and ends in a plain end tag.
        const close = name === 'template' ? templateEnd(html, tag.end) : endTag(html, tag.end, name);
        keep = KEEP_TEXT.has(name) ? close.start : tag.end;
        insert = `</${name}>`;
        end = close.end;
      }
    }
    CUT_START.lastIndex = end;
    // A cut that changes nothing (`<title>x</title>` as written) leaves the run of kept text unbroken: a page whose
    // only cuts are such is one run, `html` itself (issue 23: a 9 MB page stays one string, not two).
    if (keep + insert.length === end && html.startsWith(insert, keep)) continue;
    // Each run its own string: `run + insert` would be flattened into a copy of the run when read.
    if (keep > kept) pieces.push(html.slice(kept, keep));
    if (insert) pieces.push(insert);
    kept = end;
  }
  if (kept === 0) return [html];
  if (kept < html.length) pieces.push(html.slice(kept));
  return pieces;
}

/**
 * From after `<!--` to after the comment (HTML §13.2.5.43–52): `<!-->` and `<!--->` are whole empty comments, `-->`
 * and `--!>` end one, and one left open runs to the end of the file.
 */
function commentEnd(html: string, from: number): number {
  if (html.charCodeAt(from) === 0x3e) return from + 1;
  if (html.charCodeAt(from) === 0x2d && html.charCodeAt(from + 1) === 0x3e) return from + 2;
  COMMENT_END.lastIndex = from;
  return COMMENT_END.exec(html) ? COMMENT_END.lastIndex : html.length;
}

/** `<!x`, `<?x` and `</` + a non-letter are bogus comments, ended by the first `>` (HTML §13.2.5.41). */
function bogusCommentEnd(html: string, from: number): number {
  // `</>` is nothing at all, `</` at the end of the file is text: neither holds text to lose, so both are cut.
  const end = html.indexOf('>', from - 1);
  return end < 0 ? html.length : end + 1;
}

const enum Tag {
  BeforeName,
  Name,
  AfterName,
  BeforeValue,
  UnquotedValue,
}

/**
 * From after a tag name to after its `>`, through its attributes (HTML §13.2.5.32–40): a `>` inside a quoted value
 * does not end the tag; `/>` marks it self-closing unless the `/` is part of an unquoted value.
 */
function startTagEnd(html: string, from: number): { end: number; selfClosing: boolean } {
  let state = Tag.BeforeName;
  for (let i = from; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (c === 0x3e) return { end: i + 1, selfClosing: state !== Tag.UnquotedValue && html.charCodeAt(i - 1) === 0x2f };
    const space = c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
    if (state === Tag.UnquotedValue) {
      if (space) state = Tag.BeforeName;
    } else if (state === Tag.BeforeValue) {
      if (c === 0x22 || c === 0x27) {
        const close = html.indexOf(c === 0x22 ? '"' : "'", i + 1);
        if (close < 0) return { end: html.length, selfClosing: false };
        i = close;
        state = Tag.BeforeName;
      } else if (!space) state = Tag.UnquotedValue;
    } else if (c === 0x3d && state !== Tag.BeforeName) state = Tag.BeforeValue;
    else if (space) {
      if (state === Tag.Name) state = Tag.AfterName;
    } else if (c === 0x2f) state = Tag.BeforeName;
    // Any other character goes on an attribute name; `=` may start one (HTML §13.2.5.32).
    else state = Tag.Name;
  }
  return { end: html.length, selfClosing: false };
}

/** From after a RAWTEXT/RCDATA start tag: where its end tag starts and ends (both the end of the file without one). */
function endTag(html: string, from: number, name: string): { start: number; end: number } {
  const closer = END_TAG.get(name)!;
  closer.lastIndex = from;
  const match = closer.exec(html);
  if (!match) return { start: html.length, end: html.length };
  return { start: match.index, end: startTagEnd(html, match.index + 2 + name.length).end };
}

function scriptEnd(html: string, from: number): number {
  let escaped = false;
  let doubleEscaped = false;
  SCRIPT_TOKEN.lastIndex = from;
  for (let match = SCRIPT_TOKEN.exec(html); match; match = SCRIPT_TOKEN.exec(html)) {
    const token = match[0];
    if (token === '<!--') {
      escaped = true;
      // `<!-->` opens and closes at once: its dashes serve both.
      SCRIPT_TOKEN.lastIndex = match.index + 2;
    } else if (token === '-->') {
      escaped = doubleEscaped = false;
    } else if (match[1]) {
      if (!doubleEscaped) return startTagEnd(html, match.index + 8).end;
      doubleEscaped = false;
    } else if (escaped) doubleEscaped = true;
  }
  return html.length;
}

/**
 * The matches of `token` (a global pattern that also matches `<!--`) from `from` on, each comment stepped over whole:
 * inside <svg> and <template> a comment hides the tags in it. The caller moves `token.lastIndex` past what it reads
 * before asking for the next match.
 */
function* tagsOutsideComments(html: string, token: RegExp, from: number): Generator<RegExpExecArray> {
  token.lastIndex = from;
  for (let match = token.exec(html); match; match = token.exec(html)) {
    if (match[0] === '<!--') token.lastIndex = commentEnd(html, match.index + 4);
    else yield match;
  }
}

function svgEnd(html: string, from: number): number {
  let depth = 1;
  let integration = 0;
  for (const match of tagsOutsideComments(html, SVG_TOKEN, from)) {
    const closing = match[2] !== undefined;
    const name = (match[1] ?? match[2]!).toLowerCase();
    const tag = startTagEnd(html, match.index + match[0].length);
    if (name === 'svg') {
      if (closing && --depth === 0) return tag.end;
      if (!closing && !tag.selfClosing) depth++;
    } else if (INTEGRATION_POINTS.has(name)) {
      if (closing) integration = Math.max(0, integration - 1);
      else if (!tag.selfClosing) integration++;
    } else if (integration === 0) return match.index;
    SVG_TOKEN.lastIndex = tag.end;
  }
  return html.length;
}

function templateEnd(html: string, from: number): { start: number; end: number } {
  let depth = 1;
  for (const match of tagsOutsideComments(html, TEMPLATE_TOKEN, from)) {
    const end = startTagEnd(html, match.index + match[0].length).end;
    if (match[1] && --depth === 0) return { start: match.index, end };
    if (!match[1]) depth++;
    TEMPLATE_TOKEN.lastIndex = end;
  }
  return { start: html.length, end: html.length };
}

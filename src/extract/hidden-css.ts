// CSS that hides text: the declarations that make a box invisible (shared by inline `style` attributes and
// `<style>` rules), and the page's own `<style>` rules whose selector is one tag, class or id.
// Hand-written rather than a CSS parser: we read only rule preludes and declaration lists, skip the at-rules we do not
// apply, and never build a cascade — a few regexes over at most MAX_SHEET_CHARS. postcss and cssstyle sit in
// node_modules only as dev dependencies of the baseline benchmark, and a full parser would cost more than the page's
// whole extraction on pages that inline hundreds of KB of CSS.
// Not handled: external style sheets (never fetched), selectors beyond one simple selector, the cascade order between
// a hiding rule and a later rule of equal weight (a possible reveal is enough to keep the element, see below).

import { cutNeverRendered, type StyleSource } from './html-source.js';

/** A declaration block, property (lower case) → value (trimmed, `!important` removed). Later declarations win. */
export type Declarations = Map<string, string>;

export function parseDeclarations(text: string): Declarations {
  const declarations: Declarations = new Map();
  // A `;` inside url(data:…;base64,…) splits a value; the piece after it has no `prop:` shape or a property we ignore.
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    const value = part
      .slice(colon + 1)
      .replace(/!\s*important\s*$/i, '')
      .trim()
      .toLowerCase();
    if (property && value) declarations.set(property, value);
  }
  return declarations;
}

/** A length in px, ems and rems at the 16px default; undefined for %, calc() and anything else. */
function lengthPx(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^(-?(?:\d+\.?\d*|\.\d+))(px|em|rem|pt|vw|vh)?$/.exec(value);
  if (!match) return undefined;
  const n = Number(match[1]);
  const unit = match[2];
  if (unit === undefined) return n === 0 ? 0 : undefined;
  if (unit === 'em' || unit === 'rem') return n * 16;
  if (unit === 'pt') return (n * 4) / 3;
  if (unit === 'vw' || unit === 'vh') return n * 10; // one viewport is at least ~1000px wide on a desktop
  return n;
}

// Off-screen: the classic "move it out of the viewport" tricks (skip links, image replacement, injected text).
// No layout places readable text 999px or more to the left of or above its containing block: negative offsets in
// real layouts pull a box over its neighbour by tens or a few hundred px. -999px is also the smallest of the values
// hiding recipes use (-999px, -9999px, -10000px, -999em, -9999em).
const OFF_SCREEN_PX = -999;

function farNegative(value: string | undefined): boolean {
  const px = lengthPx(value);
  return px !== undefined && px <= OFF_SCREEN_PX;
}

function isZero(value: string | undefined): boolean {
  return value !== undefined && /^-?0*\.?0*(?:px|em|rem|pt|%)?$/.test(value) && /0/.test(value);
}

const OPACITY_ZERO = /^(?:0*\.?0+|0*\.?0+%)$/;

function positioned(d: Declarations): boolean {
  const position = d.get('position');
  return position === 'absolute' || position === 'fixed';
}

/** `rect(top, right, bottom, left)` of zero area: rect(0 0 0 0), rect(0,0,0,0), rect(1px,1px,1px,1px). */
function zeroClip(value: string | undefined): boolean {
  const match = value === undefined ? null : /^rect\(([^)]*)\)$/.exec(value);
  if (!match) return false;
  const sides = match[1]!
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(lengthPx);
  if (sides.length !== 4 || sides.some((side) => side === undefined)) return false;
  const [top, right, bottom, left] = sides as number[];
  return bottom! <= top! || right! <= left!;
}

/** clip-path that leaves no area: inset(50%) or more, circle(0), ellipse(0 0). */
function zeroClipPath(value: string | undefined): boolean {
  if (value === undefined) return false;
  const inset = /^inset\(\s*(\d+(?:\.\d+)?)%\s*\)$/.exec(value);
  if (inset) return Number(inset[1]) >= 50;
  return /^(?:circle\(\s*0(?:px|%)?\s*(?:at\b[^)]*)?\)|ellipse\(\s*0(?:px|%)?\s+0(?:px|%)?\s*(?:at\b[^)]*)?\))$/.test(
    value,
  );
}

// Colour names a hiding recipe would use; anything else is left alone (unknown means not hidden).
const NAMED: Record<string, string> = {
  white: 'ffffff', black: '000000', red: 'ff0000', green: '008000', blue: '0000ff', yellow: 'ffff00',
  gray: '808080', grey: '808080', silver: 'c0c0c0', navy: '000080', maroon: '800000', purple: '800080',
  teal: '008080', olive: '808000', lime: '00ff00', aqua: '00ffff', cyan: '00ffff', fuchsia: 'ff00ff',
  magenta: 'ff00ff', orange: 'ffa500',
}; // prettier-ignore

/** `#fff`, `#ffffff`, `#ffffffff`, rgb()/rgba() (alpha 1), a basic name → 'rrggbb'; 'transparent' for alpha 0. */
export function normaliseColour(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === 'transparent') return 'transparent';
  const named = NAMED[value];
  if (named) return named;
  const hex = /^#([\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? hex.replace(/./g, '$&$&') : hex; // #abc → aabbcc
    const alpha = full.slice(6);
    if (alpha === '00') return 'transparent';
    return alpha === '' || alpha === 'ff' ? full.slice(0, 6) : undefined;
  }
  const rgb = /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})\s*(?:[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
  if (rgb) {
    const alpha = rgb[4];
    if (alpha !== undefined && OPACITY_ZERO.test(alpha)) return 'transparent';
    if (alpha !== undefined && alpha !== '1' && alpha !== '100%' && !/^1\.0*$/.test(alpha)) return undefined;
    // Numbers read one by one, not as an array: arrays of small integers and of doubles are two kinds to V8, and
    // the optimized declaration reader was thrown away at the first colour that gave it the other.
    const red = Number(rgb[1]);
    const green = Number(rgb[2]);
    const blue = Number(rgb[3]);
    if (red > 255 || green > 255 || blue > 255) return undefined;
    return hexByte(red) + hexByte(green) + hexByte(blue);
  }
  return undefined;
}

function hexByte(value: number): string {
  return value.toString(16).padStart(2, '0');
}

/** The background colour when the background is one plain colour (an image or gradient may contrast). */
function backgroundColour(d: Declarations): string | undefined {
  const background = d.get('background-color') ?? d.get('background');
  if (background === undefined || /url\(|gradient\(/.test(background)) return undefined;
  return normaliseColour(background);
}

/** Text painted some other way than its `color`: gradient text (background-clip:text), strokes, shadows. */
function textPaintedOtherwise(d: Declarations): boolean {
  return (
    d.has('-webkit-text-fill-color') ||
    d.has('-webkit-text-stroke') ||
    /\btext\b/.test(d.get('background-clip') ?? d.get('-webkit-background-clip') ?? '') ||
    (d.get('text-shadow') ?? 'none') !== 'none'
  );
}

/**
 * An `animation` ends somewhere we cannot see: the opacity or visibility it starts from is a fade-in, not a hiding.
 * In a style sheet a `transition` says the same: the rule is the start state a script's class change moves away from
 * (lazy-loaded figures fading in); inline, a transition changes nothing until a script rewrites the style.
 */
function animated(d: Declarations, fromSheet: boolean): boolean {
  const animation = d.get('animation') ?? d.get('animation-name');
  if (animation !== undefined && animation !== 'none') return true;
  return fromSheet && (d.has('transition') || d.has('transition-property') || d.has('-webkit-transition'));
}

/**
 * Why a declaration block hides its element, or undefined when it does not. The reasons are short labels for logs
 * and traces. `fromSheet` leaves out `font-size:0`: in style sheets it is the inline-block whitespace hack, with the
 * children setting their own size in rules we cannot match.
 */
export function hidingDeclarations(d: Declarations, fromSheet = false): string | undefined {
  const display = d.get('display');
  if (display === 'none') return 'display:none';
  const visibility = d.get('visibility');
  if ((visibility === 'hidden' || visibility === 'collapse') && !animated(d, fromSheet)) return 'visibility:hidden';
  const opacity = d.get('opacity');
  if (opacity !== undefined && OPACITY_ZERO.test(opacity) && !animated(d, fromSheet)) return 'opacity:0';
  if (!fromSheet && isZero(d.get('font-size'))) return 'font-size:0';
  const overflow = d.get('overflow');
  if (
    overflow === 'hidden' &&
    ['width', 'height', 'max-width', 'max-height'].some((property) => isZero(d.get(property)))
  ) {
    return 'zero size';
  }
  if (farNegative(d.get('text-indent'))) return 'off-screen';
  if (positioned(d) && (farNegative(d.get('left')) || farNegative(d.get('top')) || farNegative(d.get('right')))) {
    return 'off-screen';
  }
  // `clip` applies to absolutely positioned boxes only (CSS 2.1 §11.1.2); `clip-path` to every box.
  if (positioned(d) && zeroClip(d.get('clip'))) return 'clip';
  if (zeroClipPath(d.get('clip-path'))) return 'clip';
  const colour = normaliseColour(d.get('color'));
  if (colour !== undefined && !textPaintedOtherwise(d)) {
    if (colour === 'transparent') return 'transparent text';
    if (colour === backgroundColour(d)) return 'same colour as background';
  }
  return undefined;
}

/**
 * A declaration block that can show again what another one hid: a state rule such as `.panel.active{display:block}`,
 * an accordion opening with `max-height`, an undone clip. Offsets (`left:0`) are not counted: they show skip links and
 * menus, which are as well dropped, and appear in too many rules to read them all.
 */
function reveals(d: Declarations): boolean {
  const display = d.get('display');
  if (display !== undefined && display !== 'none') return true;
  if (d.get('visibility') === 'visible') return true;
  const opacity = d.get('opacity');
  if (opacity !== undefined && !OPACITY_ZERO.test(opacity)) return true;
  const maxHeight = d.get('max-height');
  if (maxHeight !== undefined && !isZero(maxHeight)) return true;
  return d.get('clip') === 'auto' || d.get('clip-path') === 'none';
}

/** What a page's `<style>` sheets hide: by simple selector ('div', '.name', '#name') → reason. */
export interface HidingSheet {
  /** Simple selectors that hide, minus those some other rule may show again. */
  readonly hides: ReadonlyMap<string, string>;
  /** Whether a rule that may show an element (see `reveals`) names this class or id ('.name', '#name'). */
  readonly revealed: { has(key: string): boolean };
}

export const EMPTY_SHEET: HidingSheet = { hides: new Map(), revealed: new Set() };

/** Bound on the CSS read per page: inline sheets are usually tens of KB; this keeps a hostile page cheap. */
export const MAX_SHEET_CHARS = 512 * 1024;

// `media` other than all/screen (print sheets hide navigation; width queries apply to some screens only).
const SCREEN_MEDIA = /^\s*(?:all|screen)?\s*$/i;
const SIMPLE_SELECTOR = /^(?:[a-z][a-z\d-]*|[.#](?:-?[_a-z]|\\.)(?:[\w-]|\\.)*)$/i;
// Shown only while a pointer or the keyboard focus is on it: still hidden for reading.
const USER_ACTION = /:(?:hover|focus|focus-within|focus-visible|active)\b/i;
// At-rules whose blocks hold style rules that apply conditionally: read for reveals only.
const CONDITIONAL_AT_RULE = /^@(?:media|supports|container|layer|document|-moz-document)\b/i;
// Cheap tests on a rule's body before its declarations are read: pages inline hundreds of KB of CSS, and most rules
// can neither hide nor reveal. HIDE_HINT finds every body `hidingDeclarations` can match (the colour pair apart).
const HIDE_HINT =
  /display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*[0.]|(?:left|top|right|indent)\s*:\s*-\d{3}|rect\(|inset\(|circle\(|ellipse\(|(?<![\w-])color\s*:\s*(?:transparent|rgba|hsla)/i;
// With `background` in the body (a plain substring test first): the colour pair `hidingDeclarations` compares.
const OWN_COLOUR = /(?<![\w-])color\s*:/i;
// A superset of `reveals`: a rule it matches counts as revealing without reading its declarations (erring to keep).
const REVEAL_HINT = /display\s*:\s*(?!none)|visibility\s*:\s*visible|opacity|max-height|clip/i;

function unescape(token: string): string {
  return token.replace(/\\(.)/g, '$1');
}

/** '.md:block' → '.md\\:block': a class or id as the CSS text spells it. */
function cssSpelling(key: string): string {
  return key[0] + key.slice(1).replace(/[^\w-]/g, '\\$&');
}

/**
 * Whether `key` ('.name', '#name' or a tag) appears as a whole token in `preludes`. A class is named when `.name` is
 * not followed by more name characters; a tag when it starts a compound.
 */
function namedIn(preludes: string, key: string): boolean {
  if (key[0] !== '.' && key[0] !== '#') {
    return new RegExp(`(?:^|[\\s>+~(,])${key}(?![\\w-])`, 'i').test(preludes);
  }
  const spelled = cssSpelling(key);
  for (let at = preludes.indexOf(spelled); at >= 0; at = preludes.indexOf(spelled, at + 1)) {
    if (!/[\w\\-]/.test(preludes[at + spelled.length] ?? '')) return true;
  }
  return false;
}

// How far before a <style> its <noscript> is looked for: plugins write `<noscript><style>` together, and a bounded
// look keeps pages with many sheets linear.
const NOSCRIPT_REACH = 256;

function insideNoscript(html: string, at: number): boolean {
  const before = html.slice(Math.max(0, at - NOSCRIPT_REACH), at).toLowerCase();
  return before.lastIndexOf('<noscript') > before.lastIndexOf('</noscript');
}

function stylesOf(html: string): StyleSource[] {
  const styles: StyleSource[] = [];
  cutNeverRendered(html, styles);
  return styles;
}

/**
 * Reads the hiding rules of a page's `<style>` elements: `styles` as parseHtml's pre-pass found them (pass the same
 * list to `parseHtml(html, { styles })`); without it, the pre-pass runs here for them.
 */
export function readHidingSheet(html: string, styles: readonly StyleSource[] = stylesOf(html)): HidingSheet {
  const reader = new SheetReader();
  let budget = MAX_SHEET_CHARS;
  for (const style of styles) {
    if (budget <= 0) break;
    const media = /\bmedia\s*=\s*["']?([^"'>]*)/i.exec(style.attributes)?.[1];
    if (media !== undefined && !SCREEN_MEDIA.test(media)) continue;
    // A sheet inside <noscript> applies only without scripts: lazy-loading plugins hide their images there and show
    // a <noscript> copy instead. A browser reading the page runs scripts and ignores it.
    if (insideNoscript(html, style.at)) continue;
    // Each sheet on its own, as a browser parses it: an unclosed brace in one does not swallow the next.
    const to = Math.min(style.end, style.start + budget);
    budget -= to - style.start;
    walkRules(html.slice(style.start, to), reader);
  }
  const { hides, revealing: preludes } = reader;
  if (hides.size === 0) return EMPTY_SHEET;
  const memo = new Map<string, boolean>();
  const revealed = {
    has(key: string): boolean {
      let named = memo.get(key);
      if (named === undefined) memo.set(key, (named = namedIn(preludes, key)));
      return named;
    },
  };
  for (const key of [...hides.keys()]) if (revealed.has(key)) hides.delete(key);
  return hides.size === 0 ? EMPTY_SHEET : { hides, revealed };
}

/**
 * What one page's style rules hide and which selectors may show again. One class with one `rule` method, not a
 * closure per page and a prelude closure per rule: the walker's call site stays monomorphic, so V8 optimizes it once
 * (a fresh closure per page deoptimized the walker on every new page while it warmed up).
 */
class SheetReader {
  readonly hides = new Map<string, string>();
  /**
   * The selectors of revealing rules, one per line: searched for the few names that matter, never tokenized. A string
   * from the start, not an array of them: an empty array changes shape when its first string comes, which threw away
   * the optimized walk of a page's first sheet.
   */
  revealing = '';

  /** The rule `text[preludeFrom, braceAt)` `{` `text[braceAt + 1, bodyEnd)` `}`. */
  rule(text: string, preludeFrom: number, braceAt: number, bodyEnd: number, conditional: boolean): void {
    const body = text.slice(braceAt + 1, bodyEnd);
    let reason: string | undefined;
    if (HIDE_HINT.test(body) || (body.includes('background') && OWN_COLOUR.test(body))) {
      const declarations = parseDeclarations(body);
      reason = hidingDeclarations(declarations, true);
      if (reason === undefined && !reveals(declarations)) return;
    } else if (!REVEAL_HINT.test(body)) {
      return;
    }
    // After the last `;`: a statement at-rule (@import, @charset) may precede the prelude.
    const prelude = text.slice(preludeFrom, braceAt);
    for (const raw of prelude.slice(prelude.lastIndexOf(';') + 1).split(',')) {
      const selector = raw.trim();
      if (reason === undefined) {
        if (!USER_ACTION.test(selector)) this.revealing += `${selector}\n`;
      } else if (!conditional && SIMPLE_SELECTOR.test(selector)) {
        // Class and id names match case-sensitively, type selectors in any case.
        const named = selector[0] === '.' || selector[0] === '#';
        this.hides.set(named ? selector[0] + unescape(selector.slice(1)) : selector.toLowerCase(), reason);
      }
    }
  }
}

// walkRules' open block, besides a rule's prelude start (≥ 0).
const NO_BLOCK = -1;
const SKIPPED_BLOCK = -2;

// Most rules are `prelude{declarations}` with no quote, nested block or at-rule: one step each (plainRules).
const PLAIN_RULE = /\s*[^{}"'@\s][^{}"'@]*\{[^{}"']*\}/y;

/**
 * Reads the plain rules that start at `start`, one after another, and returns where the first other text starts.
 * Tested, not matched: the rule's one `{` splits it, and the prelude, which most rules never need, is cut only when
 * the body may hide or reveal (the match arrays of every rule of every sheet were a twelfth of what extraction
 * allocated on news pages). A loop of its own, apart from walkRules' rarer steps: V8 optimizes it on a page's first
 * sheet and has no path left unseen to throw that away for.
 */
function plainRules(text: string, start: number, reader: SheetReader, conditional: boolean): number {
  for (;;) {
    PLAIN_RULE.lastIndex = start;
    if (!PLAIN_RULE.test(text)) return start;
    const end = PLAIN_RULE.lastIndex;
    reader.rule(text, start, text.indexOf('{', start), end - 1, conditional);
    start = end;
  }
}

/**
 * Calls `reader.rule` for each style rule, top level and inside conditional at-rules; other at-rules (@font-face,
 * @keyframes, @page) and nested blocks are skipped. Strings are skipped so a brace in `content: "{"` does not count.
 */
function walkRules(css: string, reader: SheetReader): void {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const SPECIAL = /[{}"']/g;
  // Open blocks: conditional at-rules holding rules, then at most one style rule (its prelude's start and `{`) or
  // skipped block, numbers only so the loop's state keeps one shape.
  let ruleLists = 0;
  let inner = NO_BLOCK;
  let innerBrace = 0;
  let innerDepth = 0;
  let start = 0;
  for (;;) {
    if (inner === NO_BLOCK) start = plainRules(text, start, reader, ruleLists > 0);
    SPECIAL.lastIndex = Math.max(SPECIAL.lastIndex, start);
    if (!SPECIAL.test(text)) return;
    const at = SPECIAL.lastIndex - 1;
    const char = text.charCodeAt(at);
    if (char === 34 || char === 39) {
      // 34 `"`, 39 `'`
      const end = text.indexOf(char === 34 ? '"' : "'", at + 1);
      if (end < 0) return;
      SPECIAL.lastIndex = end + 1;
      continue;
    }
    if (char === 123) {
      // 123: `{`
      if (inner !== NO_BLOCK) {
        innerDepth += 1; // a block nested in a rule body or in a skipped at-rule
        continue;
      }
      // After the last `;`: a statement at-rule (@import, @charset) may precede the prelude.
      let preludeStart = at;
      while (preludeStart > start && text.charCodeAt(preludeStart - 1) !== 59) preludeStart--; // 59: `;`
      // The step runs once on every rule, so V8 has seen it before a sheet with space before a selector needs it.
      let first = preludeStart - 1;
      do first++;
      while (first < at && text.charCodeAt(first) <= 32);
      if (text.charCodeAt(first) !== 64) {
        // 64: `@`
        inner = first;
        innerBrace = at;
      } else if (CONDITIONAL_AT_RULE.test(text.slice(first, at))) ruleLists += 1;
      else inner = SKIPPED_BLOCK;
    } else if (inner === NO_BLOCK) {
      if (ruleLists > 0) ruleLists -= 1;
    } else if (innerDepth > 0) {
      innerDepth -= 1;
    } else {
      if (inner !== SKIPPED_BLOCK) reader.rule(text, inner, innerBrace, at, ruleLists > 0);
      inner = NO_BLOCK;
    }
    start = at + 1;
  }
}

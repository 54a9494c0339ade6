// Output hygiene (issue 10 §7): every text a tool returns is free of characters a human reader cannot see but a
// model still reads, or that make a terminal or a Markdown viewer show something other than the text. Pages use
// them to hide instructions from the person watching the agent (prompt injection), to smuggle data (ASCII in tag
// characters, bits in zero-width characters), to reorder what a reviewer sees (Trojan Source, CVE-2021-42574), or to
// drive a terminal (ANSI escape sequences start with ESC, U+001B).
//
// Removed:
//   - C0 and C1 controls, DEL (Unicode "Cc"), except TAB, LF and CR. VT, FF, NEL (U+0085) and the Unicode line and
//     paragraph separators U+2028/U+2029 are line breaks, and become LF rather than gluing two lines together.
//   - Bidi controls: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069 (UAX #9 §2), and the marks
//     LRM U+200E, RLM U+200F, ALM U+061C. The marks only move neutral characters on screen; a model reads the logical
//     order, where they carry nothing, and a mark is as invisible as the rest.
//   - Unicode tag characters U+E0000–U+E007F ("ASCII smuggling"), except inside the three RGI emoji tag sequences
//     (the flags of England, Scotland and Wales, UTS #51 §2.7), which are kept whole.
//   - Invisible format characters: soft hyphen U+00AD, Mongolian vowel separator U+180E, zero-width space U+200B,
//     word joiner and invisible operators U+2060–U+2064, deprecated format characters U+206A–U+206F, the BOM /
//     zero-width no-break space U+FEFF, interlinear annotation controls U+FFF9–U+FFFB.
//   - Lone surrogates (malformed UTF-16) become U+FFFD, as an encoder would.
// Kept where they mean something, removed elsewhere:
//   - ZWNJ U+200C and ZWJ U+200D: between two letters of a script that shapes with them (Persian "می‌خواهم", Indic
//     conjuncts after a virama) and, for ZWJ, between two emoji (👩‍💻, 🏳️‍🌈). A run of them keeps only its first.
//   - Variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF choose a glyph (emoji vs text style, CJK ideographic
//     variants): one after a character is kept, the rest of a run goes (a run after one emoji can hide any bytes).
// Not handled: characters that are visible but look alike (homoglyphs), Hangul fillers, private-use characters
// (icon fonts), and noncharacters.

/* eslint-disable no-control-regex -- matching control characters is what this module is for */

/** Invisible format characters that are removed wherever they stand (see the list above). */
export const INVISIBLE_CHARS = /[\u00AD\u180E\u200B\u2060-\u2064\u206A-\u206F\uFEFF\uFFF9-\uFFFB]/g;

/** Bidi embedding, override and isolate controls, and the three bidi marks. */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** C0/C1 controls and DEL, except TAB, LF, CR and the line breaks VT, FF, NEL (handled by LINE_BREAKS). */
export const CONTROL_CHARS = /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F]/g;

// The three removal sets as one pattern: one pass over the text instead of three.
const REMOVED = new RegExp(`${CONTROL_CHARS.source}|${BIDI_CONTROLS.source}|${INVISIBLE_CHARS.source}`, 'g');

const LINE_BREAKS = /[\u000B\u000C\u0085\u2028\u2029]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// A tag run, with the black flag before it when there is one: 🏴 + g b e n g + CANCEL TAG is England's flag.
const TAG_RUN = /(\u{1F3F4})?([\u{E0000}-\u{E007F}]+)/gu;
const RGI_TAG_SEQUENCES = new Set(['gbeng', 'gbsct', 'gbwls']);

const JOINERS = /[\u200C\u200D]+/g;
const VARIATION_RUN = /([\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF])(?:[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF])+/g;

// Scripts whose shaping uses ZWNJ/ZWJ (The Unicode Standard §23.2, "Cursive Connection and Ligatures"): Arabic and
// its relatives, Syriac, N'Ko, Mongolian, and the Brahmic scripts of South and South-East Asia.
const JOINING_SCRIPT =
  /[\p{scx=Arab}\p{scx=Syrc}\p{scx=Nkoo}\p{scx=Mong}\p{scx=Thaa}\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}\p{scx=Mymr}\p{scx=Khmr}\p{scx=Tibt}]/u;
const EMOJI_BEFORE_ZWJ = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const EMOJI = /\p{Extended_Pictographic}/u;

// One quick test before any rewriting: most text has none of these, and a page can be megabytes. Emoji alone (a
// surrogate pair, one variation selector) stay on the fast path.
const SUSPECT_BMP =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/u;
// Tag characters and the supplementary variation selectors all have the high surrogate U+DB40.
const hasSuspectAstral = (text: string): boolean => text.includes('\uDB40') || /[\uFE00-\uFE0F]{2}/.test(text);

// String.prototype.isWellFormed (ES2024, Node 20) is native and fast; the ES2023 lib we compile against lacks it.
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The code point that ends just before `index`, or undefined at the start. */
function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}

function keepJoiner(joiner: string, before: number | undefined, after: number | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  const previous = String.fromCodePoint(before);
  const next = String.fromCodePoint(after);
  if (JOINING_SCRIPT.test(previous) && JOINING_SCRIPT.test(next)) return true;
  return joiner === '\u200D' && EMOJI_BEFORE_ZWJ.test(previous) && EMOJI.test(next);
}

/**
 * Text without controls, bidi controls, tag characters and invisible format characters (the rules above).
 * Idempotent, and the identity on text that has none of them.
 */
export function cleanText(text: string): string {
  if (!SUSPECT_BMP.test(text) && !hasSuspectAstral(text) && isWellFormed(text)) return text;
  let clean = text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(LINE_BREAKS, '\n')
    .replace(REMOVED, '')
    .replace(TAG_RUN, (run, flag: string | undefined, tags: string) => {
      // An RGI tag sequence is at most 7 tag characters (14 UTF-16 units); a longer run is never a flag, and
      // spreading a huge one into fromCodePoint would overflow the stack.
      if (!flag || tags.length > 14) return flag ?? '';
      const letters = String.fromCodePoint(...Array.from(tags, (c) => c.codePointAt(0)! - 0xe0000));
      // The sequence is its tag letters and one CANCEL TAG (U+E007F, here the DEL it maps to) at the end.
      return letters.endsWith('\u007F') && RGI_TAG_SEQUENCES.has(letters.slice(0, -1)) ? run : flag;
    })
    .replace(VARIATION_RUN, '$1');
  if (clean.includes('\u200C') || clean.includes('\u200D')) {
    clean = clean.replace(JOINERS, (run, offset: number, whole: string) =>
      keepJoiner(run[0]!, codePointBefore(whole, offset), whole.codePointAt(offset + run.length)) ? run[0]! : '',
    );
  }
  return clean;
}

/** Every string inside a JSON-like value cleaned (object keys too); other values as they are. */
export function cleanStrings<T>(value: T): T {
  if (typeof value === 'string') return cleanText(value) as T;
  if (Array.isArray(value)) return value.map((item) => cleanStrings(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[cleanText(key)] = cleanStrings(item);
    return out as T;
  }
  return value;
}

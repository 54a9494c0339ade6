// A line that is only a date: "23.10.2018", "Veröffentlichung: 2. Februar 2022", "opublikowano: 2021-04-29 17:13",
// "November 18, 2019 12:01 PM", "Registered: 2012-09-03". The page's own metadata (a dateline, a post's or a member's
// date), set as a block of its own; the ground truths of all three evaluation sets leave such lines out, and a date
// inside a sentence is not a line (issue 24, fourth pass; docs/benchmarks.md).

// Month names, long and short, standalone and in a date (Polish "stycznia", Czech "ledna"), from the runtime's own
// locale data for the languages of the evaluation sets and their neighbours: no list of ours to keep.
const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'da', 'nb', 'fi', 'cs', 'sk', 'tr', 'ro', 'hu'];

function monthNames(): string[] {
  const names = new Set<string>();
  for (const locale of LOCALES) {
    for (const month of ['long', 'short'] as const) {
      const standalone = new Intl.DateTimeFormat(locale, { month });
      const inDate = new Intl.DateTimeFormat(locale, { month, day: 'numeric' });
      for (let index = 0; index < 12; index++) {
        const date = new Date(Date.UTC(2020, index, 15));
        names.add(standalone.format(date));
        for (const part of inDate.formatToParts(date)) if (part.type === 'month') names.add(part.value);
      }
    }
  }
  return [...names]
    .map((name) => name.toLowerCase().replace(/\.$/, ''))
    .filter((name) => /^\p{L}{3,}$/u.test(name))
    .sort((a, b) => b.length - a.length);
}

/** The month names DATE matches, lower case, longest first. */
export const MONTH_NAMES: readonly string[] = monthNames();

// DATE reads lower-cased text, so it has no `i` flag: compiling some 330 names case-insensitively (the Unicode case
// folding of every letter) took ~50 ms of CPU at a worker's first date line, three times the plain compile, on every
// worker. Lower-cased text differs from what `/iu` matched in one letter only, `ſ` (long s), which folds to `s`:
// isDateLine folds it first (date-line.test.ts checks every code point against the names' letters).
const MONTH = `(?:${MONTH_NAMES.join('|')})\\.?`;
const DATE = new RegExp(
  [
    String.raw`\d{4}-\d{2}-\d{2}(?:[ Tt][\d:.+]+)?`, // ISO, with a time
    String.raw`\d{1,2}\.\s?\d{1,2}\.\s?\d{2,4}`, // 23.10.2018
    String.raw`\d{1,2}/\d{1,2}/\d{2,4}`, // 10/23/2018
    String.raw`\d{1,2}\.?\s+(?:de\s+)?${MONTH}\s+(?:de\s+)?\d{4}`, // 2. Februar 2022, 4 de mayo de 2022
    String.raw`${MONTH}\s+\d{1,2},?\s+\d{4}`, // November 18, 2019
  ].join('|'),
  'gu',
);
const TIME = /\b\d{1,2}[:.]\d{2}(?::\d{2})?\s*(?:uhr|h|am|pm)?(?=\s|$|[^\p{L}\p{N}])/giu;
// A label before the date ("Veröffentlichung:", "Published on:", "opublikowano:"): a few words and a colon.
const LABEL = /^[\p{L}\s-]{0,25}:/u;
const SEPARATORS = /[\s|,·•–—/()-]+/g;

/** Longest text a date line holds (a label, a date, a time). */
export const DATE_LINE_MAX_CHARS = 90;

/** Whether `text` (collapsed) is a date and nothing else but a label, a time and separators. */
export function isDateLine(text: string): boolean {
  if (text.length === 0 || text.length > DATE_LINE_MAX_CHARS || !/\d/.test(text)) return false;
  const lower = text.trim().toLowerCase();
  const plain = lower.includes('ſ') ? lower.replaceAll('ſ', 's') : lower; // as `/iu` matched it (DATE)
  const withoutDate = plain.replace(DATE, '');
  if (withoutDate === plain) return false;
  return withoutDate.replace(TIME, '').replace(LABEL, '').replace(SEPARATORS, '').length === 0;
}

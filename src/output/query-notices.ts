// The sentences of `query` (issue 26 item 3): a passage's heading and the note after the answer, re-exported by
// notices.ts.
import { quoteInput } from '../quote.js';

/** The heading line above one passage of a query's answer: its heading path, and its part of a long section. */
export function passageHeading(path: readonly string[], part: number, parts: number, title?: string): string {
  const where = path.length > 0 ? path.join(' › ') : (title ?? 'Opening of the page');
  return parts > 1 ? `${where} (part ${part} of ${parts})` : where;
}

export interface QueryNoteFacts {
  readonly query: string;
  readonly shown: number;
  readonly passageCount: number;
  readonly sectionCount: number;
  readonly sectionsLeftOut: number;
  /** The headings of the first sections left out (src/extract/rank-passages.ts LEFT_OUT_HEADINGS). */
  readonly leftOutHeadings: readonly string[];
  /** How many left-out sections have a heading: the named ones and the rest. */
  readonly leftOutHeadingCount: number;
  /** No passage had a word of the query: the page's opening is shown. */
  readonly nothingMatched: boolean;
  /** The page has headings `section` can name (an HTML page with more than one section). */
  readonly canReadSection: boolean;
}

/** The one line after a query's answer: what was left out and how to read it. */
export function queryNote(facts: QueryNoteFacts): string {
  const asked = `query "${quoteInput(facts.query, 100)}"`;
  const whole = 'call again without query for the whole page';
  if (facts.nothingMatched) {
    return `<note>No passage of the page has a word of ${asked}, so its opening is shown; ${whole}.</note>`;
  }
  const leftOut = facts.passageCount - facts.shown;
  if (leftOut === 0) return `<note>${asked}: the whole page is shown, best-answering passage first.</note>`;
  const named = facts.leftOutHeadings.map((heading) => `"${quoteInput(heading, 80)}"`);
  const more = facts.leftOutHeadingCount - named.length;
  const list = named.length === 0 ? '' : ` (${named.join(', ')}${more > 0 ? `, … and ${more} more` : ''})`;
  const sections =
    facts.sectionsLeftOut > 0
      ? `, ${facts.sectionsLeftOut} of ${facts.sectionCount} sections not shown at all${list}`
      : '';
  const how = facts.canReadSection
    ? `read a section whole with section="<its heading>" (one named here, or the last part of a path above), or ${whole}`
    : whole;
  return (
    `<note>${facts.shown} of ${facts.passageCount} passages shown for ${asked}, best first; ` +
    `${leftOut} left out${sections}: ${how}.</note>`
  );
}

// A query's answer (src/extract/rank-passages.ts, read by the engine: PageContent.answer) as the Markdown an agent
// reads: each passage, best first, under a heading that is its heading path, then one line saying what was left out
// and how to read it. fetch, read_url and each page of a crawl present it the same way.
import type { PageContent } from '../engine/page-content.js';
import { passageHeading, queryNote } from './notices.js';

/**
 * The answer's passages, each under its path heading at `level` (2 in a page's text; 3 in a crawl, whose pages are
 * level 2), best first.
 */
export function answerPassages(answer: NonNullable<PageContent['answer']>, level = 2): string {
  const marks = '#'.repeat(level);
  return answer.passages
    .map((passage) => {
      const heading = passageHeading(passage.path, passage.part, passage.parts, answer.title);
      return `${marks} ${heading}\n\n${passage.text}`;
    })
    .join('\n\n');
}

/** The line after the answer: how many passages and sections were left out, and how to read them. */
export function answerNote(page: Pick<PageContent, 'answer' | 'kind'>): string {
  const answer = page.answer;
  if (!answer) return '';
  return queryNote({
    query: answer.query,
    shown: answer.passages.length,
    passageCount: answer.passageCount,
    sectionCount: answer.sectionCount,
    sectionsLeftOut: answer.sectionsLeftOut,
    leftOutHeadings: answer.leftOutHeadings,
    leftOutHeadingCount: answer.leftOutHeadingCount,
    nothingMatched: answer.matched === 0,
    canReadSection: page.kind === 'html' && answer.sectionCount > 1,
  });
}

/** What a reading tool shows of a page: the answer to its query with the note, else its content as it is. */
export function pageBody(page: PageContent, level = 2): string {
  return page.answer ? `${answerPassages(page.answer, level)}\n\n${answerNote(page)}` : page.content;
}

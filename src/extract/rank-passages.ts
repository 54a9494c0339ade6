// `query` (issue 26 item 3): the passages of a page's Markdown (passages.ts) that best answer a query, ranked by
// BM25+ (MiniSearch: MIT, no dependencies, ESM; its scoring, not ours) over each passage's text and its heading
// path, the path weighted more. Words are cut by Intl.Segmenter (ICU's word boundaries: spaces, and dictionaries for
// Chinese, Japanese, Thai and other scripts written without them), lower-cased, Latin letters stripped of their
// accents, and English function words dropped from the query; a word of five letters or more also matches as a
// prefix (install → installation), at a lower weight, a cheap stand-in for stemming in languages that add endings.
// Pure: runs in the extraction worker (src/workers/read-body.ts answerQueryBody).
//
// Not handled: synonyms and meaning (a query sharing no word with the answer does not find it); the heading path's
// words count for every passage under it.
import MiniSearch from 'minisearch';
import { splitPassages, type Passage } from './passages.js';

/** At most this many passages answer a query. */
export const QUERY_PASSAGES = 3;
/** A passage past the first scoring below this share of the best one is left out: it answers much less well. */
export const QUERY_RELATIVE_SCORE = 0.5;
/** At most this many headings of the sections left out are named (the count is always complete). */
export const LEFT_OUT_HEADINGS = 10;

export interface RankedPassage extends Passage {
  /** Its BM25+ score (higher answers better); 0 for the opening shown when nothing matched. */
  readonly score: number;
}

export interface QueryAnswer {
  readonly query: string;
  /** The page's title heading, which every path is under (left out of the paths). */
  readonly title?: string;
  /** The passages that answer best, best first; the page's first passage, score 0, when none has a query word. */
  readonly passages: readonly RankedPassage[];
  /** Passages with at least one word of the query. */
  readonly matched: number;
  readonly passageCount: number;
  readonly sectionCount: number;
  /** Sections none of whose passages is returned. */
  readonly sectionsLeftOut: number;
  /**
   * The headings of the first LEFT_OUT_HEADINGS sections left out, in document order (the text `section` takes; the
   * text before the first heading has none and is not named).
   */
  readonly leftOutHeadings: readonly string[];
  /** How many left-out sections have a heading (leftOutHeadings names the first LEFT_OUT_HEADINGS of them). */
  readonly leftOutHeadingCount: number;
}

// Function words of English that say nothing about what is asked ("how do I install it on linux"). Other languages'
// are left in: BM25's inverse document frequency already weighs a word found in every passage down.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my ' +
    'no not of on or our should so than that the their them then there these they this to was we were what when ' +
    'where which who whom why will with would you your about'
  ).split(' '),
);

const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });

/** The words of a text as Intl.Segmenter cuts them (punctuation and spaces left out). */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const segment of WORDS.segment(text)) if (segment.isWordLike) words.push(segment.segment);
  return words;
}

/** A word as it is indexed and looked up: lower case, a Latin letter without its accents. */
export function normaliseWord(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFKD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
}

/** The passages of `markdown` that best answer `query`, best first (QueryAnswer). */
export function rankPassages(markdown: string, query: string): QueryAnswer {
  const { title, passages, sectionCount, sectionHeadings } = splitPassages(markdown);
  const index = new MiniSearch<{ id: number; heading: string; text: string }>({
    fields: ['heading', 'text'],
    storeFields: [],
    tokenize: wordsOf,
    processTerm: normaliseWord,
    searchOptions: {
      boost: { heading: 2 },
      combineWith: 'OR',
      prefix: (term) => [...term].length >= 5,
      processTerm: (term) => {
        const word = normaliseWord(term);
        return STOP_WORDS.has(word) ? null : word;
      },
    },
  });
  index.addAll(passages.map((passage, id) => ({ id, heading: passage.path.join(' '), text: passage.text })));
  const results = index.search(query);
  const best = results[0]?.score ?? 0;
  const chosen = results
    .filter((result, rank) => rank < QUERY_PASSAGES && (rank === 0 || result.score >= best * QUERY_RELATIVE_SCORE))
    .map((result) => ({ ...passages[result.id as number]!, score: result.score }));
  const answered = chosen.length > 0 ? chosen : passages.slice(0, 1).map((passage) => ({ ...passage, score: 0 }));
  const shown = new Set(answered.map((passage) => passage.section));
  const headed = sectionHeadings.filter((heading, section) => heading !== undefined && !shown.has(section));
  return {
    query,
    ...(title !== undefined && { title }),
    passages: answered,
    matched: results.length,
    passageCount: passages.length,
    sectionCount,
    sectionsLeftOut: sectionCount - shown.size,
    leftOutHeadings: headed.slice(0, LEFT_OUT_HEADINGS) as string[],
    leftOutHeadingCount: headed.length,
  };
}

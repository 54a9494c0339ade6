// Builds the question set of `npm run bench:query` (issue 26 item 3) from the ground truth of the eval pages, once:
// bench/queries/{news,multilingual,modern}.json, kept in the repository. Run again only to rebuild it on purpose:
//
//   node bench/make-queries.mjs
//
// For each page, one answer sentence of its ground truth, drawn with a fixed seed (QUERY_SEED): a sentence of the
// article body (news), or a "with" snippet (multilingual, modern), of 8 to 45 words. Its question keeps about half of
// its content words — the words of three letters or more that are not English function words — in their order, at
// least 3 and at most 7, drawn with the same seed: a query an agent might write, sharing words with the answer but
// not all of them, and not its sentence. Only the ground truth is read, never our extraction, so the set does not
// follow what the ranking does.
import console from 'node:console';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modernPages, multiPages, newsPages } from './eval-pages.mjs';

const OUT = join(resolve(dirname(fileURLToPath(import.meta.url))), 'queries');
export const QUERY_SEED = 'web-reader-query-set-2026';

// The function words a question leaves out (English: most pages of the sets are; others' stay in as content words).
const FUNCTION_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has have him his how its may new now old see ' +
    'two way who did get let put say she too use that with from this they will would there their what about which ' +
    'when make like than then them these some could into more other were been also after said says just over such ' +
    'only most very even because while where those being does each both through during before between'
  ).split(' '),
);

/** mulberry32, seeded from the FNV-1a hash of the seed and a key: the same draws on every machine. */
function random(key) {
  let state = 0x811c9dc5;
  for (const char of `${QUERY_SEED}:${key}`) state = Math.imul(state ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });
const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });
const words = (text) => [...WORDS.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);

/** A sentence's question: about half its content words, in order, 3 to 7 of them; undefined if it has too few. */
function questionOf(sentence, next) {
  const content = words(sentence).filter(
    (word) => [...word].length >= 3 && !/^\d+$/.test(word) && !FUNCTION_WORDS.has(word.toLowerCase()),
  );
  const unique = [...new Map(content.map((word) => [word.toLowerCase(), word])).values()];
  if (unique.length < 4) return undefined;
  const keep = Math.min(7, Math.max(3, Math.round(unique.length / 2)));
  const picked = new Set();
  while (picked.size < keep) picked.add(Math.floor(next() * unique.length));
  return [...picked]
    .sort((a, b) => a - b)
    .map((i) => unique[i])
    .join(' ');
}

const isAnswerSized = (text) => {
  const count = words(text).length;
  return count >= 8 && count <= 45;
};

function questionFor(set, page, candidates) {
  const next = random(`${set}:${page.id}`);
  const usable = candidates.map((text) => text.replace(/\s+/g, ' ').trim()).filter(isAnswerSized);
  if (usable.length === 0) return undefined;
  const answer = usable[Math.floor(next() * usable.length)];
  const query = questionOf(answer, next);
  return query && { id: page.id, url: page.url, query, answer };
}

const sets = {
  news: () =>
    newsPages().map((page) =>
      questionFor(
        'news',
        page,
        page.expected.split(/\n+/).flatMap((paragraph) => [...SENTENCES.segment(paragraph)].map((s) => s.segment)),
      ),
    ),
  multilingual: () => multiPages().map((page) => questionFor('multilingual', page, page.with)),
  modern: () => modernPages().map((page) => questionFor('modern', page, page.with)),
};

mkdirSync(OUT, { recursive: true });
for (const [name, build] of Object.entries(sets)) {
  const questions = build().filter(Boolean);
  writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify({ seed: QUERY_SEED, questions }, null, 2)}\n`);
  console.log(`${name}: ${questions.length} questions`);
}

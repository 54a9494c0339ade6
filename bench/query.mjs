// `query` benchmark (issue 26 item 3): on the eval pages, with the question set of bench/queries/ (made once by
// bench/make-queries.mjs from a sentence of each page's ground truth), how often the passage holding the answer
// sentence is among those returned, and the tokens returned (the passages under their heading paths and the note
// line, as fetch shows them) against the tokens of the whole page's Markdown.
//
//   npm run bench:query                   every question of the three sets
//   npm run bench:query -- --limit 50     the first 50 questions of each set
//   npm run bench:query -- --misses       also list the questions whose answer was not returned
//   npm run bench:query -- --control      each page asked another page's question: what chance would return
//
// Each page is read as the engine reads it (dist/workers/read-body.js readHtmlWork: decode, extract, Markdown), then
// ranked by the worker's own function (dist/extract/rank-passages.js). The answer's passage: the passage of the whole
// page holding at least half of the answer's 3-word shingles (the most, if several); a question whose answer is in no
// passage (extraction missed it) is counted apart, not as a miss. Figures for each set, each half (A/B, the fixed
// split of eval-pages.mjs), and all together. The timer covers the ranking alone (split, index, search), wall and
// CPU time (this thread's, process.cpuUsage), medians per page.
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs, TextEncoder } from 'node:util';
import { halfOf, modernPages, multiPages, newsPages } from './eval-pages.mjs';
import { markdownToText } from './eval-score.mjs';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (path) => import(join(ROOT, 'dist', path));
const { readHtmlWork } = await dist('workers/read-body.js');
const { rankPassages } = await dist('extract/rank-passages.js');
const { splitPassages } = await dist('extract/passages.js');
const { answerPassages, answerNote } = await dist('output/answer-text.js');
const { countTokensAsync } = await dist('tokens.js');

const { values: args } = parseArgs({
  options: { limit: { type: 'string' }, misses: { type: 'boolean' }, control: { type: 'boolean' } },
});
const limit = args.limit ? Number(args.limit) : Infinity;

const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });
const wordsOf = (text) =>
  [...WORDS.segment(markdownToText(text).toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);

function shinglesOf(text) {
  const words = wordsOf(text);
  if (words.length < 3) return new Set(words);
  const set = new Set();
  for (let i = 0; i + 3 <= words.length; i++) set.add(words.slice(i, i + 3).join(' '));
  return set;
}

/** The passages (as `section:part`) holding at least half the answer's shingles, best first; [] when none does. */
function answerPassagesOf(markdown, answer) {
  const wanted = shinglesOf(answer);
  const scored = splitPassages(markdown).passages.map((passage) => {
    const have = shinglesOf(passage.text);
    let shared = 0;
    for (const shingle of wanted) if (have.has(shingle)) shared++;
    return { key: `${passage.section}:${passage.part}`, share: wanted.size === 0 ? 0 : shared / wanted.size };
  });
  return scored.filter((entry) => entry.share >= 0.5).sort((a, b) => b.share - a.share);
}

const SETS = {
  news: () => newsPages(),
  multilingual: () => multiPages(),
  modern: () => modernPages(),
};

function summary(rows) {
  const asked = rows.filter((row) => row.inPage);
  const found = asked.filter((row) => row.found).length;
  const ratios = asked.map((row) => row.returnedTokens / row.pageTokens);
  const returned = asked.reduce((sum, row) => sum + row.returnedTokens, 0);
  const whole = asked.reduce((sum, row) => sum + row.pageTokens, 0);
  return {
    questions: rows.length,
    answerable: asked.length,
    found,
    hitRate: asked.length === 0 ? 0 : found / asked.length,
    meanRatio: ratios.length === 0 ? 0 : ratios.reduce((a, b) => a + b, 0) / ratios.length,
    sumRatio: whole === 0 ? 0 : returned / whole,
    medianRankMs: median(asked.map((row) => row.rankMs)),
    medianRankCpuMs: median(asked.map((row) => row.rankCpuMs)),
  };
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;
function line(name, s) {
  return (
    `${name.padEnd(18)} ${String(s.questions).padStart(4)} questions, ${String(s.answerable).padStart(4)} with the ` +
    `answer in the page: returned ${pct(s.hitRate).padStart(7)} (${s.found}); tokens returned / whole page: mean ` +
    `${pct(s.meanRatio).padStart(7)}, summed ${pct(s.sumRatio).padStart(7)}; ranking median ${s.medianRankMs.toFixed(1)} ms (CPU ${s.medianRankCpuMs.toFixed(1)} ms)`
  );
}

const all = [];
const misses = [];
const started = performance.now();
for (const [set, pagesOf] of Object.entries(SETS)) {
  const { questions } = JSON.parse(readFileSync(join(ROOT, 'bench', 'queries', `${set}.json`), 'utf8'));
  const byId = new Map(pagesOf().map((page) => [page.id, page]));
  const rows = [];
  for (const question of questions.slice(0, limit)) {
    const page = byId.get(question.id);
    if (!page) continue;
    const html = page.load();
    const work = readHtmlWork({
      bytes: new TextEncoder().encode(html),
      contentType: 'text/html; charset=utf-8',
      baseUrl: page.url,
      article: {},
      withoutRaw: true,
    });
    const markdown = work.article?.content ?? '';
    const targets = answerPassagesOf(markdown, question.answer);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    // --control: each page asked another page's question, the figure a ranking that knew nothing would reach.
    const asked = args.control ? questions[(questions.indexOf(question) + 7) % questions.length].query : question.query;
    const answer = rankPassages(markdown, asked);
    const rankMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const rankCpuMs = (cpu.user + cpu.system) / 1000;
    const keys = new Set(answer.passages.map((passage) => `${passage.section}:${passage.part}`));
    const shown = `${answerPassages(answer)}\n\n${answerNote({ answer, kind: 'html' })}`;
    const row = {
      set,
      half: halfOf(question.id),
      inPage: targets.length > 0,
      found: targets.some((target) => keys.has(target.key)),
      returnedTokens: await countTokensAsync(shown),
      pageTokens: Math.max(1, await countTokensAsync(markdown)),
      rankMs,
      rankCpuMs,
    };
    rows.push(row);
    if (row.inPage && !row.found) misses.push({ set, id: question.id, query: question.query, answer: question.answer });
  }
  all.push(...rows);
  console.log(line(set, summary(rows)));
  for (const half of ['A', 'B']) console.log(line(`  half ${half}`, summary(rows.filter((r) => r.half === half))));
}
console.log(line('all', summary(all)));
for (const half of ['A', 'B']) console.log(line(`  half ${half}`, summary(all.filter((r) => r.half === half))));
console.log(
  `(${((performance.now() - started) / 1000).toFixed(0)} s, CPU ${(process.cpuUsage().user / 1e6).toFixed(0)} s user)`,
);
if (args.misses) for (const miss of misses) console.log(JSON.stringify(miss));

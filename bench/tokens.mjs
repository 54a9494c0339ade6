// Token counting benchmark (npm run bench:tokens): plain o200k (gpt-tokenizer, what src/tokens.ts wrapped before)
// against src/tokens.ts (long pre-tokens counted in bounded chunks), on inputs that made plain BPE super-linear and on
// ordinary prose. Each measurement runs in a fresh child process (no shared caches), interleaved old/new, repeated
// --runs times; the table shows medians. Also the longest event-loop pause while the async counter counts 10 MB.
//
//   npm run bench:tokens                 → a Markdown table on stdout
//   npm run bench:tokens -- --runs 5
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const EVAL = fileURLToPath(
  new URL('../../shared/eval/article-extraction-benchmark/ground-truth.json', import.meta.url),
);

/** Deterministic inputs: the same text in every process. */
function makeInput(name) {
  let seed = 3;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = (alphabet, length) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const han = Array.from({ length: 3000 }, (_, k) => String.fromCodePoint(0x4e00 + ((k * 7919) % 20000)));
  const prose = () => Object.values(JSON.parse(readFileSync(EVAL, 'utf8'))).map((entry) => entry.articleBody);
  switch (name) {
    case 'word-100k':
      return pick('abcdefghijklmnopqrstuvwxyz', 100_000);
    case 'cjk-run-20k':
      return pick(han, 20_000);
    case 'equals-100k':
      return '='.repeat(100_000);
    case 'prose-eval':
      return prose().join('\n\n');
    case 'prose-10mb':
      return prose().join('\n\n').repeat(30).slice(0, 10_000_000);
    default:
      throw new Error(`unknown input ${name}`);
  }
}

// Child mode: count one input with one counter and print JSON.
if (process.argv[2] === '--child') {
  const [, , , mode, name] = process.argv;
  const text = makeInput(name);
  const plain = await import('gpt-tokenizer/encoding/o200k_base');
  const ours = await import(pathToFileURL(`${root}dist/tokens.js`).href);
  await ours.loadTokenizer();
  const options = { disallowedSpecial: new Set() };
  plain.countTokens('warm up', options);
  ours.countTokens('warm up');
  let longestPause = 0;
  let tokens;
  const started = performance.now();
  if (mode === 'old') tokens = plain.countTokens(text, options);
  else if (mode === 'new') tokens = ours.countTokens(text);
  else {
    // The async counter, with a timer measuring how long the event loop goes unanswered.
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestPause = Math.max(longestPause, now - last);
      last = now;
    }, 1);
    tokens = await ours.countTokensAsync(text);
    clearInterval(timer);
  }
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ tokens, ms, longestPause, chars: text.length }));
  process.exit(0);
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const self = fileURLToPath(import.meta.url);
const child = (mode, name) =>
  JSON.parse(execFileSync(process.execPath, [self, '--child', mode, name], { encoding: 'utf8', timeout: 300_000 }));

const inputs = ['word-100k', 'cjk-run-20k', 'equals-100k', 'prose-eval', 'prose-10mb'];
const rows = [];
for (const name of inputs) {
  const old = [];
  const ours = [];
  let oldTokens;
  let newTokens;
  let chars;
  for (let run = 0; run < runs; run++) {
    try {
      const result = child('old', name);
      old.push(result.ms);
      oldTokens = result.tokens;
    } catch {
      old.push(Infinity); // past the child's 300 s limit
    }
    const result = child('new', name);
    ours.push(result.ms);
    newTokens = result.tokens;
    chars = result.chars;
  }
  const oldMs = median(old);
  const newMs = median(ours);
  rows.push(
    `| ${name} | ${chars.toLocaleString('en')} | ${Number.isFinite(oldMs) ? oldMs.toFixed(0) : '> 300000'} | ${newMs.toFixed(0)} | ` +
      `${Number.isFinite(oldMs) ? (oldMs / newMs).toFixed(1) : '—'} | ${oldTokens ?? '—'} | ${newTokens} |`,
  );
}
const pauses = Array.from({ length: runs }, () => child('async', 'prose-10mb').longestPause);

process.stdout.write(
  [
    `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); ${runs} runs each, fresh process per run, medians.`,
    '',
    '| input | characters | plain o200k ms | ours ms | speed-up | plain tokens | our tokens |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Longest event-loop pause while countTokensAsync counts 10 MB of prose: median ${median(pauses).toFixed(0)} ms ` +
      `(runs: ${pauses.map((p) => p.toFixed(0)).join(', ')}).`,
    '',
  ].join('\n'),
);

// Extraction benchmark: our pipeline (dist/extract) against the baseline @mozilla/readability + jsdom + turndown,
// in the same run, over the evaluation sets in ../shared/eval/ (scoring as its README describes): news,
// multilingual, and modern when present.
//
//   npm run bench:extract                      full sets, both pipelines
//   npm run bench:extract -- --limit 50        first 50 pages of each set
//   npm run bench:extract -- --only ours       skip the baseline while iterating
//   npm run bench:extract -- --dump DIR        write our text per page and the per-page scores to DIR
//   npm run bench:extract -- --only ours --save before.json      keep our per-page scores
//   npm run bench:extract -- --only ours --compare before.json   after a change: F1 per half before → after, and
//                                                                 the pages whose score changed
//   npm run bench:extract -- --sets news,modern                   only these sets (news, multilingual, modern)
//   WEB_READER_EVAL=DIR npm run bench:extract                     the sets elsewhere than ../shared/eval
//   node bench/extract.mjs --only ours --build DIR                 ours from another build's compiled src/extract
//                                                                 (a copy of its .bench-out/extract), same worker
//
// Every set is split into two fixed random halves, A and B (eval-pages.mjs `halfOf`: a seeded hash of the page id),
// and every figure is printed for the whole set and for each half, with a 95 % bootstrap interval (pages resampled
// with replacement, 1000 draws, seeded). The discipline (docs/benchmarks.md): a rule is kept only if it changes at
// least five pages and improves both halves; one that helps one half and costs the other is fitted to its pages.
//
// Each pipeline reads each set in its own child process, so a set's peak RSS (getrusage maxrss) is its own and one
// set's garbage never counts against the next. The child holds what the product's extraction does and no more: ours
// runs in a worker thread with the pool's resourceLimits (src/workers/pool.ts: an 8 MB young generation, a capped old one), and the
// child never sees the ground truth: it sends each page's Markdown back and the parent scores it. The baseline (jsdom) reads at most BASELINE_CHUNK pages per process:
// its heap grows page after page, and over the modern set one process ran out of a 4 GB heap. Pages are read,
// gunzipped and decoded one at a time outside the timed region; the timer covers HTML text → Markdown only.
import { spawn } from 'node:child_process';
import console from 'node:console';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { EVAL, halfOf, loadSource, MODERN, modernPages, MULTI, multiPages, NEWS, newsPages } from './eval-pages.mjs';
import { f1, markdownToText, normalizeSpace, pagePrecision, pageRecall, scoreMulti, scoreNews } from './eval-score.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run bench:extract` compiles src/extract (and the pool's worker limits) to: bench/tsconfig.json. */
const OUT = join(ROOT, '.bench-out/extract');

const { values: args } = parseArgs({
  options: {
    limit: { type: 'string' },
    only: { type: 'string' },
    dump: { type: 'string' },
    save: { type: 'string' },
    compare: { type: 'string' },
    sets: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    child: { type: 'string' },
    build: { type: 'string' },
  },
});
const limit = args.limit ? Number(args.limit) : Infinity;

// ---------------------------------------------------------------------------------------------------------------
// Inputs

// ---------------------------------------------------------------------------------------------------------------
// Scoring

/** A set's quality from its pages: news averages per-page precision and recall; the snippet sets sum counts. */
function quality(kind, pages) {
  if (pages.length === 0) return { precision: 0, recall: 0, f1: 0 };
  if (kind === 'shingles') {
    let precision = 0;
    let recall = 0;
    for (const p of pages) {
      precision += pagePrecision(p);
      recall += pageRecall(p);
    }
    precision /= pages.length;
    recall /= pages.length;
    return { precision, recall, f1: f1(precision, recall) };
  }
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const p of pages) {
    tp += p.tp;
    fp += p.fp;
    fn += p.fn;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  return { precision, recall, f1: f1(precision, recall) };
}

/** Seeded PRNG (mulberry32), so the bootstrap interval is the same on every run of the same scores. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BOOTSTRAP_DRAWS = 1000;

/** 95 % percentile bootstrap interval of F1: the pages resampled with replacement. */
function interval(kind, pages) {
  if (pages.length === 0) return [0, 0];
  const next = random(20261123);
  const f1s = [];
  const sample = new Array(pages.length);
  for (let draw = 0; draw < BOOTSTRAP_DRAWS; draw++) {
    for (let i = 0; i < pages.length; i++) sample[i] = pages[Math.floor(next() * pages.length)];
    f1s.push(quality(kind, sample).f1);
  }
  f1s.sort((a, b) => a - b);
  return [f1s[Math.floor(BOOTSTRAP_DRAWS * 0.025)], f1s[Math.floor(BOOTSTRAP_DRAWS * 0.975)]];
}

/** The scoring kind of each set: the news set's 4-token shingles, or the snippet counts. */
const SETS = {
  news: { kind: 'shingles', dir: NEWS, pages: () => newsPages(limit) },
  multilingual: { kind: 'snippets', dir: MULTI, pages: () => multiPages(limit) },
  modern: { kind: 'snippets', dir: MODERN, pages: () => modernPages(limit) },
};

// ---------------------------------------------------------------------------------------------------------------
// Pipelines (child side)

async function loadPipeline(name, buildDir) {
  if (name === 'ours') {
    // --build: another build's compiled src/extract (its .bench-out/extract), to compare builds in one run. A worker
    // does not see its process's argv, so the child hands the build over in workerData.
    const build = buildDir ? resolve(buildDir) : OUT;
    const { extractArticle } = await import(join(build, 'extract/extract-article.js'));
    return (html, url) => extractArticle(html, { baseUrl: url }).markdown;
  }
  if (name === 'baseline') {
    const { JSDOM, VirtualConsole } = await import('jsdom');
    const { Readability } = await import('@mozilla/readability');
    const { default: TurndownService } = await import('turndown');
    const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
    // Silence jsdom's CSS parse errors; they are noise, not failures.
    const virtualConsole = new VirtualConsole();
    return (html, url) => {
      const dom = new JSDOM(html, { url, virtualConsole });
      const article = new Readability(dom.window.document).parse();
      const markdown = article?.content ? turndown.turndown(article.content) : '';
      dom.window.close();
      return markdown;
    };
  }
  throw new Error(`unknown pipeline ${name}`);
}

/** Reads `list`'s pages one at a time and hands each page's Markdown and times to `emit`. */
async function extractPages(name, setName, list, emit, buildDir) {
  const extract = await loadPipeline(name, buildDir);
  for (const page of list) {
    const html = loadSource(page.source);
    // CPU time beside wall time: on a shared machine, wall time also counts waiting for a core.
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    let markdown;
    try {
      markdown = extract(html, page.url);
    } catch (error) {
      markdown = '';
      process.stderr.write(`${name} ${setName} ${page.id}: ${error?.stack ?? error}\n`);
    }
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    emit({ id: page.id, ms, cpuMs: (cpu.user + cpu.system) / 1000, markdown });
  }
}

/**
 * A child process: reads the pages its parent lists on stdin (id, URL, where the HTML is; no ground truth, which
 * the parent scores with) and writes one JSON line per page, then its peak RSS. Ours runs in a worker thread with the
 * product's resourceLimits (src/workers/pool.ts), as the engine's extraction does; the baseline in the main thread.
 */
async function runChild(name) {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const list = JSON.parse(input);
  const write = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
  if (name === 'ours') {
    const { workerResourceLimits } = await import(join(OUT, 'workers/pool.js'));
    const worker = new Worker(fileURLToPath(import.meta.url), {
      workerData: { name, setName: args.sets, list, build: args.build },
      resourceLimits: workerResourceLimits(), // MAX_RESPONSE_SIZE's default
      stdout: false,
    });
    worker.on('message', write);
    await new Promise((resolvePromise, reject) => {
      worker.on('error', reject);
      worker.on('exit', resolvePromise);
    });
  } else {
    await extractPages(name, args.sets, list, write, args.build);
  }
  write({ peakRssMb: process.resourceUsage().maxRSS / 1024 });
}

async function runWorker() {
  const { name, setName, list, build } = workerData;
  await extractPages(name, setName, list, (record) => parentPort.postMessage(record), build);
}

/** One page's record from its child: scored here against the ground truth, which the child never holds. */
function scorePage(kind, setName, page, result) {
  const text = markdownToText(result.markdown);
  const score = kind === 'shingles' ? scoreNews(page.expected, text) : scoreMulti(page, text);
  const record = { id: page.id, half: halfOf(page.id), ms: Math.round(result.ms * 10) / 10, ...score };
  // The modern set's secondary figure: its main_content against our text by the news rule, without a leading
  // title heading (the README's rule).
  if (setName === 'modern') {
    const shingle = scoreNews(page.expected, withoutTitleLine(text, page.title));
    record.type = page.type;
    record.shingles = shingle;
  }
  return record;
}

function withoutTitleLine(text, title) {
  if (!title) return text;
  const firstLine = /^\s*([^\n]*)\n?/.exec(text);
  return firstLine && normalizeSpace(firstLine[1]).toLowerCase() === normalizeSpace(title).toLowerCase()
    ? text.slice(firstLine[0].length)
    : text;
}

// ---------------------------------------------------------------------------------------------------------------
// Parent: spawn one child per pipeline, print the table.

// The baseline's pages per process (see the header).
const BASELINE_CHUNK = 100;
const BASELINE_HEAP_MB = 4096;

function runInChild(name, setName, pages) {
  const childArgs = [fileURLToPath(import.meta.url), '--child', name, '--sets', setName];
  if (args.build) childArgs.push('--build', args.build);
  const flags = name === 'baseline' ? [`--max-old-space-size=${BASELINE_HEAP_MB}`] : [];
  const { kind } = SETS[setName];
  const dumpDir = args.dump ? resolve(args.dump, name) : undefined;
  if (dumpDir) mkdirSync(dumpDir, { recursive: true });
  const byId = new Map(pages.map((page) => [page.id, page]));
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...flags, ...childArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
    const part = { kind, perPage: [], times: [], cpuTimes: [], peakRssMb: 0 };
    let pending = '';
    const take = (line) => {
      const result = JSON.parse(line);
      if (result.peakRssMb !== undefined) {
        part.peakRssMb = result.peakRssMb;
        return;
      }
      const page = byId.get(result.id);
      part.times.push(result.ms);
      part.cpuTimes.push(result.cpuMs);
      part.perPage.push(scorePage(kind, setName, page, result));
      if (dumpDir) writeFileSync(join(dumpDir, `${setName}-${page.id.replace(/[^\w.-]/g, '_')}.md`), result.markdown);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) if (line) take(line);
    });
    child.on('close', (code) =>
      code === 0 && part.perPage.length === pages.length
        ? resolvePromise(part)
        : reject(new Error(`${name} ${setName}: exit ${code}, ${part.perPage.length} of ${pages.length} pages`)),
    );
    child.stdin.end(JSON.stringify(pages.map(({ id, url, source }) => ({ id, url, source }))));
  });
}

/** One pipeline over the chosen sets: a child per set (per chunk of pages for the baseline), merged. */
async function runPipeline(name, setNames) {
  const result = { name, sets: {}, peakRssMb: 0 };
  for (const setName of setNames) {
    const pages = SETS[setName].pages();
    if (pages.length === 0) continue;
    const chunk = name === 'baseline' ? BASELINE_CHUNK : pages.length;
    const parts = [];
    for (let from = 0; from < pages.length; from += chunk) {
      parts.push(await runInChild(name, setName, pages.slice(from, from + chunk)));
    }
    const perPage = parts.flatMap((part) => part.perPage);
    const times = parts.flatMap((part) => part.times);
    const cpuTimes = parts.flatMap((part) => part.cpuTimes);
    const totalMs = times.reduce((a, b) => a + b, 0);
    const peakRssMb = Math.max(...parts.map((part) => part.peakRssMb));
    result.peakRssMb = Math.max(result.peakRssMb, peakRssMb);
    if (args.dump) {
      const dumpDir = resolve(args.dump, name);
      writeFileSync(join(dumpDir, `${setName}-scores.json`), JSON.stringify(perPage, null, 1));
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    result.sets[setName] = {
      kind: parts[0].kind,
      pages: perPage.length,
      perPage,
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
      medianCpuMs: cpuTimes[Math.floor(cpuTimes.length / 2)] ?? 0,
      cpuPagesPerSecond: (perPage.length / cpuTimes.reduce((a, b) => a + b, 0)) * 1000,
      pagesPerSecond: (perPage.length / totalMs) * 1000,
      totalMs,
      peakRssMb,
    };
  }
  return result;
}

function fmt(n, digits = 3) {
  return n.toFixed(digits);
}

const HALVES = [
  ['all', () => true],
  ['A', (p) => p.half === 'A'],
  ['B', (p) => p.half === 'B'],
];

/** One page's score as a number, for telling which pages a change moved and which way. */
function pageValue(kind, page) {
  if (kind === 'shingles') return f1(pagePrecision(page), pageRecall(page));
  return page.tp - page.fp; // snippets: one found "with" up, one found "without" down
}

function signed(n, digits = 3) {
  return (n >= 0 ? '+' : '−') + fmt(Math.abs(n), digits);
}

function printQuality(results) {
  console.log('| pipeline | set | half | pages | F1 | 95 % interval | precision | recall |');
  console.log('|---|---|---|---:|---:|---|---:|---:|');
  for (const r of results) {
    for (const [setName, s] of Object.entries(r.sets)) {
      for (const [half, inHalf] of HALVES) {
        const pages = s.perPage.filter(inHalf);
        const q = quality(s.kind, pages);
        const [lo, hi] = interval(s.kind, pages);
        console.log(
          `| ${r.name} | ${setName} | ${half} | ${pages.length} | ${fmt(q.f1)} | ${fmt(lo)}–${fmt(hi)} | ${fmt(q.precision)} | ${fmt(q.recall)} |`,
        );
      }
    }
  }
}

function printModernDetail(results) {
  const withModern = results.filter((r) => r.sets.modern);
  if (withModern.length === 0) return;
  console.log('');
  console.log('modern: snippet F1 by page type, and the secondary main_content shingle F1 (whole set)');
  console.log('| pipeline | type | pages | snippet F1 | shingle F1 |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of withModern) {
    const perPage = r.sets.modern.perPage;
    const types = ['all', ...new Set(perPage.map((p) => p.type))];
    for (const type of types) {
      const pages = type === 'all' ? perPage : perPage.filter((p) => p.type === type);
      const snippets = quality('snippets', pages).f1;
      const shingle = quality(
        'shingles',
        pages.map((p) => p.shingles),
      ).f1;
      console.log(`| ${r.name} | ${type} | ${pages.length} | ${fmt(snippets)} | ${fmt(shingle)} |`);
    }
  }
}

/** Before → after per half, and the pages that moved: the figures a rule is kept or dropped on. */
function printComparison(ours, saved) {
  console.log('');
  console.log(`against ${args.compare} (saved ${saved.savedAt}):`);
  console.log('| set | half | F1 before | F1 after | Δ F1 | pages changed | better | worse |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  const moved = [];
  for (const [setName, s] of Object.entries(ours.sets)) {
    const before = new Map((saved.sets[setName] ?? []).map((p) => [p.id, p]));
    for (const [half, inHalf] of HALVES) {
      const after = s.perPage.filter(inHalf).filter((p) => before.has(p.id));
      const old = after.map((p) => before.get(p.id));
      let better = 0;
      let worse = 0;
      for (const page of after) {
        const delta = pageValue(s.kind, page) - pageValue(s.kind, before.get(page.id));
        if (Math.abs(delta) < 1e-9) continue;
        if (delta > 0) better++;
        else worse++;
        if (half === 'all') moved.push({ setName, page, delta });
      }
      const a = quality(s.kind, after).f1;
      const b = quality(s.kind, old).f1;
      console.log(
        `| ${setName} | ${half} | ${fmt(b)} | ${fmt(a)} | ${signed(a - b, 4)} | ${better + worse} | ${better} | ${worse} |`,
      );
    }
  }
  if (moved.length === 0) return;
  console.log('');
  console.log('pages moved (page F1 for news, found "with" − found "without" for the snippet sets):');
  moved.sort((x, y) => x.delta - y.delta);
  for (const { setName, page, delta } of moved) {
    console.log(
      `  ${setName.padEnd(12)} ${page.half} ${signed(delta, setName === 'news' ? 3 : 0).padStart(7)}  ${page.id}`,
    );
  }
}

async function main() {
  if (!isMainThread) return runWorker();
  if (args.child) return runChild(args.child);
  if (args.help) {
    // The header comment of this file is the usage.
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    console.log(source.slice(0, source.indexOf('\nimport')).replace(/^\/\/ ?/gm, ''));
    return;
  }
  if (!existsSync(NEWS) || !existsSync(MULTI)) {
    console.error(`The evaluation sets are not at ${EVAL}: set WEB_READER_EVAL to the folder that holds them.`);
    process.exitCode = 2;
    return;
  }
  if (args.compare && !existsSync(args.compare)) {
    console.error(`--compare ${args.compare}: no such file; make one first with --save ${args.compare}.`);
    process.exitCode = 2;
    return;
  }
  const pipelines = args.only ? args.only.split(',') : ['ours', 'baseline'];
  console.log(`command: node bench/extract.mjs ${process.argv.slice(2).join(' ')}`.trim());
  console.log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, node ${process.version}`);
  const setNames = args.sets ? args.sets.split(',') : Object.keys(SETS);
  const unknown = setNames.filter((setName) => !SETS[setName]);
  if (unknown.length > 0) {
    console.error(`--sets: no set ${unknown.join(', ')} (the sets: ${Object.keys(SETS).join(', ')}).`);
    process.exitCode = 2;
    return;
  }
  // The sets read (`--sets`), each with its page count; a set that is not there is said to be so.
  const inputs = setNames.map((setName) => {
    const count = SETS[setName].pages().length;
    return `${SETS[setName].dir} (${count ? `${count} pages` : 'absent: not measured'})`;
  });
  console.log(`inputs:  ${inputs.join(', ')}`);
  console.log('halves:  A and B, fixed by a seeded hash of each page id (bench/eval-pages.mjs halfOf)');
  console.log('');
  const results = [];
  // Sequential, not parallel: on a small machine two children would slow each other down.
  for (const name of pipelines) results.push(await runPipeline(name, setNames));
  printQuality(results);
  printModernDetail(results);
  console.log('');
  const header =
    '| pipeline | set | pages | median ms/page | pages/s | median CPU ms/page | pages per CPU-s | peak RSS MB |';
  console.log(header);
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    for (const [setName, s] of Object.entries(r.sets)) {
      console.log(
        `| ${r.name} | ${setName} | ${s.pages} | ${fmt(s.medianMs, 1)} | ${fmt(s.pagesPerSecond, 1)} | ${fmt(s.medianCpuMs, 1)} | ${fmt(s.cpuPagesPerSecond, 1)} | ${fmt(s.peakRssMb, 0)} |`,
      );
    }
  }
  const ours = results.find((r) => r.name === 'ours');
  const base = results.find((r) => r.name === 'baseline');
  if (ours && base) {
    console.log('');
    console.log(
      '| set | F1 ours − baseline | pages/s ours ÷ baseline | median ms baseline ÷ ours | pages per CPU-s ours ÷ baseline | peak RSS ours ÷ baseline |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const setName of Object.keys(ours.sets)) {
      const o = ours.sets[setName];
      const b = base.sets[setName];
      const d = quality(o.kind, o.perPage).f1 - quality(b.kind, b.perPage).f1;
      console.log(
        `| ${setName} | ${signed(d)} | ${fmt(o.pagesPerSecond / b.pagesPerSecond, 1)}× | ${fmt(b.medianMs / o.medianMs, 1)}× | ${fmt(o.cpuPagesPerSecond / b.cpuPagesPerSecond, 1)}× | ${fmt(o.peakRssMb / b.peakRssMb, 2)} |`,
      );
    }
  }
  if (ours && args.compare) printComparison(ours, JSON.parse(readFileSync(args.compare, 'utf8')));
  if (ours && args.save) {
    const sets = Object.fromEntries(Object.entries(ours.sets).map(([name, s]) => [name, s.perPage]));
    writeFileSync(args.save, JSON.stringify({ savedAt: new Date().toISOString(), sets }));
    console.log(`\nper-page scores saved to ${args.save}`);
  }
}

await main();

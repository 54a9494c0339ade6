// Extraction benchmark: our pipeline (dist/extract) against the baseline @mozilla/readability + jsdom + turndown,
// in the same run, over both evaluation sets in ../shared/eval/ (scoring as its README describes).
//
//   npm run bench:extract                      full sets, both pipelines
//   npm run bench:extract -- --limit 50        first 50 pages of each set
//   npm run bench:extract -- --only ours       skip the baseline while iterating
//   npm run bench:extract -- --dump DIR        write our text per page and the per-page scores to DIR
//
// Each pipeline runs in its own child process so its peak RSS (getrusage maxrss) is its own. Pages are read,
// gunzipped and decoded one at a time outside the timed region; the timer covers HTML text → Markdown only.
import { spawn } from 'node:child_process';
import console from 'node:console';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { MULTI, multiPages, NEWS, newsPages } from './eval-pages.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    limit: { type: 'string' },
    only: { type: 'string' },
    dump: { type: 'string' },
    child: { type: 'string' },
  },
});
const limit = args.limit ? Number(args.limit) : Infinity;

// ---------------------------------------------------------------------------------------------------------------
// Inputs

// ---------------------------------------------------------------------------------------------------------------
// Scoring

/**
 * Markdown → plain text before scoring, the same for both pipelines: fence lines and table rule rows go; links
 * keep their text (targets dropped); heading `#`, quote `>` and list markers at line
 * start go; `|` becomes a space; emphasis delimiters (`*`, `_`, `~~`) at word edges and code backticks go; backslash
 * escapes become the bare character. Images go entirely (alt text included): they are not the article's text, and
 * Turndown's and our output treat them the same way.
 */
function markdownToText(markdown) {
  return markdown
    .replace(/^ {0,3}(?:```|~~~).*$/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '')
    .replace(/!\[(?:\\.|[^\]\\])*\]\((?:\\.|[^)\\])*\)/g, '')
    .replace(/\[((?:\\.|[^\]\\])*)\]\((?:\\.|[^)\\])*\)/g, '$1')
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/(^|[^\\])\|/gm, '$1 ')
    .replace(/~~|`+/g, '')
    .replace(/(^|[\s(["'])(?:\*{1,3}|_{1,3})(?=\S)/gm, '$1')
    .replace(/(\S)(?:\*{1,3}|_{1,3})(?=[\s).,;:!?"']|$)/gm, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~=])/g, '$1');
}

function shingles(text) {
  const tokens = text.toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) ?? [];
  const counts = new Map();
  for (let i = 0; i + 4 <= tokens.length; i++) {
    const key = tokens.slice(i, i + 4).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Per-page counts of the article-extraction-benchmark, normalised to sum to 1. */
function scoreNews(expected, extracted) {
  const want = shingles(expected);
  const got = shingles(extracted);
  let tp = 0;
  let gotTotal = 0;
  let wantTotal = 0;
  for (const n of want.values()) wantTotal += n;
  for (const [key, n] of got) {
    gotTotal += n;
    tp += Math.min(n, want.get(key) ?? 0);
  }
  const fp = gotTotal - tp;
  const fn = wantTotal - tp;
  const sum = tp + fp + fn;
  return sum === 0 ? { tp: 1, fp: 0, fn: 0 } : { tp: tp / sum, fp: fp / sum, fn: fn / sum };
}

// As the benchmark's evaluate.py: a page with nothing expected and nothing extracted is perfect.
function pagePrecision({ tp, fp, fn }) {
  if (fp === 0 && fn === 0) return 1;
  return tp + fp === 0 ? 0 : tp / (tp + fp);
}
function pageRecall({ tp, fp, fn }) {
  if (fp === 0 && fn === 0) return 1;
  return tp + fn === 0 ? 0 : tp / (tp + fn);
}

function normalizeSpace(text) {
  return text.replace(/\s+/g, ' ').trim();
}

function scoreMulti(page, extracted) {
  const text = normalizeSpace(extracted);
  const counts = { tp: 0, fn: 0, fp: 0, tn: 0 };
  for (const snippet of page.with) counts[text.includes(normalizeSpace(snippet)) ? 'tp' : 'fn']++;
  for (const snippet of page.without) counts[text.includes(normalizeSpace(snippet)) ? 'fp' : 'tn']++;
  return counts;
}

function f1(p, r) {
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

// ---------------------------------------------------------------------------------------------------------------
// Pipelines (child side)

async function loadPipeline(name) {
  if (name === 'ours') {
    const { extractArticle } = await import(
      join(ROOT, 'node_modules/.cache/web-reader-bench/extract/extract-article.js')
    );
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

async function runChild(name) {
  const extract = await loadPipeline(name);
  const result = { name, sets: {} };
  const dumpDir = args.dump ? resolve(args.dump, name) : undefined;
  if (dumpDir) mkdirSync(dumpDir, { recursive: true });
  for (const [setName, pages] of [
    ['news', newsPages(limit)],
    ['multilingual', multiPages(limit)],
  ]) {
    const times = [];
    // CPU time beside wall time: on a shared machine, wall time also counts waiting for a core.
    const cpuTimes = [];
    const perPage = [];
    let totalMs = 0;
    for (const page of pages) {
      const html = page.load();
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
      cpuTimes.push((cpu.user + cpu.system) / 1000);
      times.push(ms);
      totalMs += ms;
      const text = markdownToText(markdown);
      const score = setName === 'news' ? scoreNews(page.expected, text) : scoreMulti(page, text);
      perPage.push({ id: page.id, ms: Math.round(ms * 10) / 10, ...score });
      if (dumpDir) writeFileSync(join(dumpDir, `${setName}-${page.id.replace(/[^\w.-]/g, '_')}.md`), markdown);
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    let quality;
    if (setName === 'news') {
      const precision = perPage.reduce((s, p) => s + pagePrecision(p), 0) / perPage.length;
      const recall = perPage.reduce((s, p) => s + pageRecall(p), 0) / perPage.length;
      quality = { precision, recall, f1: f1(precision, recall) };
    } else {
      const sum = (k) => perPage.reduce((s, p) => s + p[k], 0);
      const precision = sum('tp') / (sum('tp') + sum('fp'));
      const recall = sum('tp') / (sum('tp') + sum('fn'));
      quality = { precision, recall, f1: f1(precision, recall) };
    }
    result.sets[setName] = {
      pages: pages.length,
      ...quality,
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
      medianCpuMs: cpuTimes[Math.floor(cpuTimes.length / 2)] ?? 0,
      cpuPagesPerSecond: (pages.length / cpuTimes.reduce((a, b) => a + b, 0)) * 1000,
      pagesPerSecond: (pages.length / totalMs) * 1000,
      totalMs,
    };
    if (dumpDir) writeFileSync(join(dumpDir, `${setName}-scores.json`), JSON.stringify(perPage, null, 1));
  }
  result.peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------------------------------------------------------
// Parent: spawn one child per pipeline, print the table.

function runInChild(name) {
  const childArgs = [fileURLToPath(import.meta.url), '--child', name];
  if (args.limit) childArgs.push('--limit', args.limit);
  if (args.dump) childArgs.push('--dump', args.dump);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, childArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code) =>
      code === 0 ? resolvePromise(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`${name} exit ${code}`)),
    );
  });
}

function fmt(n, digits = 3) {
  return n.toFixed(digits);
}

async function main() {
  if (args.child) return runChild(args.child);
  const pipelines = args.only ? args.only.split(',') : ['ours', 'baseline'];
  console.log(`command: node bench/extract.mjs ${process.argv.slice(2).join(' ')}`.trim());
  console.log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, node ${process.version}`);
  console.log(`inputs:  ${NEWS} (${newsPages(limit).length} pages), ${MULTI} (${multiPages(limit).length} pages)`);
  console.log('');
  const results = [];
  // Sequential, not parallel: on a small machine two children would slow each other down.
  for (const name of pipelines) results.push(await runInChild(name));
  const header =
    '| pipeline | set | pages | F1 | precision | recall | median ms/page | pages/s | median CPU ms/page | pages per CPU-s | peak RSS MB |';
  console.log(header);
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    for (const [setName, s] of Object.entries(r.sets)) {
      console.log(
        `| ${r.name} | ${setName} | ${s.pages} | ${fmt(s.f1)} | ${fmt(s.precision)} | ${fmt(s.recall)} | ${fmt(s.medianMs, 1)} | ${fmt(s.pagesPerSecond, 1)} | ${fmt(s.medianCpuMs, 1)} | ${fmt(s.cpuPagesPerSecond, 1)} | ${fmt(r.peakRssMb, 0)} |`,
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
      console.log(
        `| ${setName} | ${(o.f1 - b.f1 >= 0 ? '+' : '') + fmt(o.f1 - b.f1)} | ${fmt(o.pagesPerSecond / b.pagesPerSecond, 1)}× | ${fmt(b.medianMs / o.medianMs, 1)}× | ${fmt(o.cpuPagesPerSecond / b.cpuPagesPerSecond, 1)}× | ${fmt(ours.peakRssMb / base.peakRssMb, 2)} |`,
      );
    }
  }
}

await main();

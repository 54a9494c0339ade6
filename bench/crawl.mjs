// Crawl benchmark: pages/s and peak RSS crawling the generated 222-page loopback site (test/crawl-site.ts) with
// PER_DOMAIN_INTERVAL=0 and no Crawl-delay, beside the same pages read one by one (engine.readPage, what a client
// calling read_url per page gets) and extraction alone (the worker pool on the HTML), so the crawler's own cost —
// link extraction, normalisation, scope, robots, the budget's token counts — is visible.
//
//   npm run bench:crawl                 3 runs per mode
//   npm run bench:crawl -- --runs 5
//
// Each mode runs in its own child process (its own peak RSS, a cold engine and cache). All three use the same
// concurrency (MAX_CONCURRENT, default 3) and the same extraction pool. Generated pages are tiny, so a fourth child
// measures one real page's extraction (the eval news set) to set the crawler's cost against.
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NEWS, newsPages } from './eval-pages.mjs';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, child: { type: 'string' }, run: { type: 'string' } },
});
const RUNS = Number(args.runs);
const CACHE = '../node_modules/.cache/web-reader-bench-crawl';

async function inParallel(items, limit, task) {
  let next = 0;
  const workers = Array.from({ length: limit }, async () => {
    while (next < items.length) await task(items[next++]);
  });
  await Promise.all(workers);
}

// The extraction benchmark's single-page figure, measured here in the same run: the median time of one real page
// (the 91 news pages of ../shared/eval) through the same worker pool, so the crawler's per-page cost can be set
// against what a real page costs to extract.
async function realPageMedianMs() {
  if (!existsSync(NEWS)) return undefined;
  const { resolveConfig } = await import('../dist/config.js');
  const { createEngine } = await import('../dist/engine.js');
  const engine = createEngine(resolveConfig({ EXTRACT_TIMEOUT: '30000' }));
  const pages = newsPages().map((page) => page.load());
  await engine.extractArticle(pages[0], 'https://example.com/'); // start the workers outside the timer
  const times = [];
  for (const html of pages) {
    const start = performance.now();
    await engine.extractArticle(html, 'https://example.com/');
    times.push(performance.now() - start);
  }
  await engine.close();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function child(mode) {
  if (mode === 'real-extract') {
    process.stdout.write(JSON.stringify({ medianMs: (await realPageMedianMs()) ?? null }));
    return;
  }
  const { startFixtureServer } = await import(`${CACHE}/fixture-server.js`);
  const { addCrawlSite, PAGE_COUNT } = await import(`${CACHE}/crawl-site.js`);
  const { resolveConfig } = await import('../dist/config.js');
  const { createEngine } = await import('../dist/engine.js');
  const { runCrawl } = await import('../dist/tools/crawl-tool.js');
  const server = await startFixtureServer();
  addCrawlSite(server, {});
  const config = resolveConfig({
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    PER_DOMAIN_INTERVAL: '0',
    MAX_OUTPUT_TOKENS: '0',
    EXTRACT_TIMEOUT: '30000',
  });
  const engine = createEngine(config);
  // The pages the crawl reads: the generated ones, the slow page excluded from all modes (its 300 ms sleep is
  // the server's, not ours), and the sitemap orphan.
  const urls = [...Array.from({ length: PAGE_COUNT }, (_, i) => server.url(`/p/${i}`)), server.url('/p/orphan')];
  let pages = 0;
  let ms = 0;
  // CPU time of the whole process (main thread, extraction workers, and the fixture server, which serves the same
  // pages in every mode) over the timed region: wall time on a shared machine also counts waiting for a core.
  let cpuStart;
  const startCpu = () => (cpuStart = process.cpuUsage());
  if (mode === 'extract') {
    const html = new Map();
    await inParallel(urls, config.maxConcurrent, async (url) => {
      const { page } = await engine.loadPage(url);
      html.set(url, Buffer.from(page.body).toString('utf8'));
    });
    await engine.extractArticle(html.get(urls[0]), urls[0]); // start the workers outside the timer
    startCpu();
    const start = performance.now();
    await inParallel(urls, config.maxConcurrent, async (url) => {
      await engine.extractArticle(html.get(url), url);
      pages++;
    });
    ms = performance.now() - start;
  } else if (mode === 'read') {
    await engine.extractArticle('<p>warm</p>', urls[0]);
    startCpu();
    const start = performance.now();
    await inParallel(urls, config.maxConcurrent, async (url) => {
      await engine.readPage(url);
      pages++;
    });
    ms = performance.now() - start;
  } else {
    await engine.extractArticle('<p>warm</p>', urls[0]);
    // Loading the o200k vocabulary is a one-time start-up cost of the process (like starting the workers above),
    // not a per-page one: load it outside the timer.
    const { countTokens } = await import('../dist/tokens.js');
    countTokens('warm');
    startCpu();
    const start = performance.now();
    const { result } = await runCrawl(engine, {
      url: server.url('/p/0'),
      max_tokens: 10_000_000,
      max_pages: 10000,
      max_depth: 100,
      patterns: [],
      exclude_patterns: ['/slow-page'],
    });
    ms = performance.now() - start;
    pages = result.pages.length;
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  await engine.close();
  await server.close();
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ mode, pages, ms, cpuMs, rssMb }));
}

function main() {
  const script = fileURLToPath(import.meta.url);
  const results = {};
  // Modes interleaved run by run, so a change in the machine's load hits every mode alike.
  const modes = ['extract', 'read', 'crawl'];
  for (const mode of modes) results[mode] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const mode of modes) {
      const out = spawnSync(process.execPath, [script, '--child', mode], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`${mode} failed: ${out.stderr}`);
      results[mode].push(JSON.parse(out.stdout));
    }
  }
  console.log(
    `crawl benchmark: 222 pages, ${RUNS} runs per mode (interleaved), ${availableParallelism()} CPUs, ` +
      `Node ${process.version}\n`,
  );
  console.log(
    '| mode | pages | best ms | median ms | pages/s (median) | ms/page (median) | CPU ms/page (median) | peak RSS |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const perPage = {};
  const cpuPerPage = {};
  for (const [mode, runs] of Object.entries(results)) {
    const pages = runs[0].pages;
    perPage[mode] = median(runs.map((r) => r.ms)) / pages;
    cpuPerPage[mode] = median(runs.map((r) => r.cpuMs)) / pages;
    const best = Math.min(...runs.map((r) => r.ms));
    const rss = Math.max(...runs.map((r) => r.rssMb));
    console.log(
      `| ${mode} | ${pages} | ${best.toFixed(0)} | ${(perPage[mode] * pages).toFixed(0)} | ` +
        `${(1000 / perPage[mode]).toFixed(0)} | ${perPage[mode].toFixed(2)} | ${cpuPerPage[mode].toFixed(2)} | ` +
        `${rss.toFixed(0)} MB |`,
    );
  }
  // The crawler's own cost: crawl minus the same pages read one by one, run by run (each pair ran back to back).
  const overheads = results.crawl.map((r, i) => (r.ms - results.read[i].ms) / r.pages).sort((a, b) => a - b);
  const overhead = median(overheads);
  console.log(
    `\ncrawler overhead per page: median ${overhead.toFixed(2)} ms (runs: ${overheads[0].toFixed(2)} to ` +
      `${overheads.at(-1).toFixed(2)} ms) = ${((overhead / perPage.read) * 100).toFixed(1)} % of a single-page ` +
      `read, ${((overhead / perPage.extract) * 100).toFixed(1)} % of these tiny pages' extraction`,
  );
  const real = spawnSync(process.execPath, [script, '--child', 'real-extract'], { encoding: 'utf8' });
  const realMs = real.status === 0 ? JSON.parse(real.stdout).medianMs : null;
  if (realMs) {
    console.log(
      `real pages (../shared/eval news set, worker pool): median ${realMs.toFixed(2)} ms to extract one page; ` +
        `crawler overhead = ${((overhead / realMs) * 100).toFixed(1)} % of it`,
    );
  }
  const cpuOver = cpuPerPage.crawl - cpuPerPage.read;
  console.log(
    `crawler CPU per page (medians): ${cpuOver.toFixed(2)} ms = ${((cpuOver / cpuPerPage.read) * 100).toFixed(1)} % ` +
      `of a single-page read's CPU, ${((cpuOver / cpuPerPage.extract) * 100).toFixed(1)} % of extraction CPU`,
  );
}

if (args.child) await child(args.child);
else main();

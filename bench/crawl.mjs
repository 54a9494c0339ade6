// Crawl benchmark: pages/s and peak RSS of a whole-site crawl over loopback with PER_DOMAIN_INTERVAL=0 and no
// Crawl-delay, beside the same pages read one by one and extraction alone, so the crawler's own cost is visible.
//
// Two sites:
//   generated — the 222-page site of test/crawl-site.ts (tiny pages with cycles, duplicates, robots.txt, a
//               sitemap, a 500 page), the issue's benchmark site; the slow page is excluded from every mode
//               (its 300 ms sleep is the server's, not ours).
//   news      — the 91 real pages of ../shared/eval's news set served as a site (each page also links to two
//               more, a binary tree); their own links point to their real sites, out of scope, as on the web.
// Four modes, each in its own child process (a cold engine and cache, its own peak RSS), all with the same
// concurrency (MAX_CONCURRENT, default 3) and extraction pool:
//   extract   — the worker pool on each page's HTML (fetched beforehand, outside the timer)
//   read      — engine.readPage per page: fetch, guard, cache, extraction
//   read_url  — the read_url tool per page: readPage plus its header (word and exact token count)
//   crawl     — crawl from the start page with a budget large enough for the whole site
//
//   npm run bench:crawl                         3 runs per mode, both sites
//   npm run bench:crawl -- --runs 10 --site generated
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NEWS, newsPages } from './eval-pages.mjs';
import { median } from './median.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    site: { type: 'string', default: 'both' },
    child: { type: 'string' },
    mode: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const CACHE = '../node_modules/.cache/web-reader-bench-crawl';
const MODES = ['extract', 'read', 'read_url', 'crawl'];

async function inParallel(items, limit, task) {
  let next = 0;
  const workers = Array.from({ length: limit }, async () => {
    while (next < items.length) await task(items[next++]);
  });
  await Promise.all(workers);
}

// The extraction benchmark's single-page figure, measured here in the same run: the median time of one real page
// (the 91 news pages of ../shared/eval) through the same worker pool, one at a time.
async function realPageMedianMs() {
  const { resolveConfig } = await import('../dist/config.js');
  const { createEngine } = await import('../dist/engine/engine.js');
  const engine = createEngine(resolveConfig({ EXTRACT_TIMEOUT: '30000' }));
  const pages = newsPages().map((page) => page.load());
  await engine.extractArticle(pages[0], 'https://example.com/'); // start the worker outside the timer
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

/** Registers the site's routes; returns the URLs the crawl reads and the crawl's arguments. */
async function serveSite(site, server) {
  if (site === 'generated') {
    const { addCrawlSite, PAGE_COUNT } = await import(`${CACHE}/crawl-site.js`);
    addCrawlSite(server, {});
    // The pages the crawl reads: the generated ones and the sitemap orphan.
    const urls = [...Array.from({ length: PAGE_COUNT }, (_, i) => server.url(`/p/${i}`)), server.url('/p/orphan')];
    return { urls, crawl: { url: urls[0], exclude_patterns: ['/slow-page'] } };
  }
  const news = newsPages();
  const pages = news.map((page, i) => {
    const children = [2 * i + 1, 2 * i + 2].filter((child) => child < news.length);
    const links = children.map((child) => `<a href="${server.url(`/n/${child}`)}">Next: ${news[child].id}</a>`);
    // <base>: the page's own relative links resolve to its real site, as they would on the web.
    return page
      .load()
      .replace(/<head[^>]*>/i, (head) => `${head}<base href="${page.url}">`)
      .replace(/<\/body>/i, `<nav>${links.join(' ')}</nav></body>`);
  });
  server.route('/n/:index', (_req, res, params) => {
    const page = pages[Number(params.index)];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  const urls = pages.map((_, i) => server.url(`/n/${i}`));
  return { urls, crawl: { url: urls[0], exclude_patterns: [] } };
}

async function child(site, mode) {
  if (site === 'real-extract') {
    process.stdout.write(JSON.stringify({ medianMs: await realPageMedianMs() }));
    return;
  }
  const { startFixtureServer } = await import(`${CACHE}/fixture-server.js`);
  const { resolveConfig } = await import('../dist/config.js');
  const { createEngine } = await import('../dist/engine/engine.js');
  const { runCrawl } = await import('../dist/runs/crawl-run.js');
  const { readUrlTool } = await import('../dist/tools/read-url-tool.js');
  const { runTool } = await import('../dist/tools/run-tool.js');
  const { countTokens, loadTokenizer } = await import('../dist/tokens.js');
  const server = await startFixtureServer();
  const { urls, crawl } = await serveSite(site, server);
  const config = resolveConfig({
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    PER_DOMAIN_INTERVAL: '0',
    MAX_OUTPUT_TOKENS: '0',
    EXTRACT_TIMEOUT: '30000',
  });
  const engine = createEngine(config);
  // One-time start-up costs of a process, outside the timer: every extraction worker (~100 ms to boot; the pool
  // spawns them on demand and one warm-up page starts only the first) and the o200k vocabulary (~0.2 s).
  await Promise.all(
    Array.from({ length: availableParallelism() }, () => engine.extractArticle('<p>warm</p>', urls[0])),
  );
  await loadTokenizer();
  countTokens('warm');
  let pages = 0;
  let html;
  if (mode === 'extract') {
    html = new Map();
    await inParallel(urls, config.maxConcurrent, async (url) => {
      const { page } = await engine.loadPage(url);
      html.set(url, Buffer.from(page.body).toString('utf8'));
    });
  }
  // CPU time of the whole process (main thread, extraction workers, and the fixture server, which serves the same
  // pages in every mode) over the timed region: wall time on a shared machine also counts waiting for a core.
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  if (mode === 'extract') {
    await inParallel(urls, config.maxConcurrent, async (url) => {
      await engine.extractArticle(html.get(url), url);
      pages++;
    });
  } else if (mode === 'read') {
    await inParallel(urls, config.maxConcurrent, async (url) => {
      await engine.readPage(url);
      pages++;
    });
  } else if (mode === 'read_url') {
    await inParallel(urls, config.maxConcurrent, async (url) => {
      const output = await runTool(readUrlTool, { url, max_length: 0 }, { engine });
      if (output.isError) throw new Error(output.text);
      pages++;
    });
  } else {
    const { result } = await runCrawl(engine, {
      url: crawl.url,
      excludePatterns: crawl.exclude_patterns,
      maxTokens: 100_000_000,
      maxPages: 10000,
      maxDepth: 100,
      maxSeconds: 3600,
      patterns: [],
      reading: {},
    });
    pages = result.pages.length;
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  await engine.close();
  await server.close();
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ pages, ms, cpuMs: (cpu.user + cpu.system) / 1000, rssMb }));
}

function runChild(script, site, mode) {
  const out = spawnSync(process.execPath, [script, '--child', site, '--mode', mode], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${site} ${mode} failed: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

function report(site, results, realMs) {
  console.log(`\n## ${site} site (${results.crawl[0].pages} pages)\n`);
  console.log('| mode | best ms | median ms | pages/s (median) | ms/page (median) | CPU ms/page (median) | peak RSS |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const perPage = {};
  for (const [mode, runs] of Object.entries(results)) {
    const pages = runs[0].pages;
    perPage[mode] = median(runs.map((r) => r.ms)) / pages;
    const cpu = median(runs.map((r) => r.cpuMs)) / pages;
    console.log(
      `| ${mode} | ${Math.min(...runs.map((r) => r.ms)).toFixed(0)} | ${(perPage[mode] * pages).toFixed(0)} | ` +
        `${(1000 / perPage[mode]).toFixed(0)} | ${perPage[mode].toFixed(2)} | ${cpu.toFixed(2)} | ` +
        `${Math.max(...runs.map((r) => r.rssMb)).toFixed(0)} MB |`,
    );
  }
  // The crawler's cost per page, run by run (the modes of one run ran back to back): crawl minus read_url is the
  // crawler's own machinery (links, normalisation, scope, robots, sitemap, ordering, sections); crawl minus read
  // also counts the exact token count of each page, which read_url's header takes as well.
  for (const baseline of ['read_url', 'read']) {
    const overheads = results.crawl
      .map((r, i) => r.ms / r.pages - results[baseline][i].ms / results[baseline][i].pages)
      .sort((a, b) => a - b);
    const overhead = median(overheads);
    const share = realMs ? `, ${((overhead / realMs) * 100).toFixed(1)} % of extracting one real page` : '';
    console.log(
      `crawl − ${baseline}: median ${overhead.toFixed(2)} ms per page (runs ${overheads[0].toFixed(2)} to ` +
        `${overheads.at(-1).toFixed(2)})${share}`,
    );
  }
}

function main() {
  const script = fileURLToPath(import.meta.url);
  const hasNews = existsSync(NEWS);
  const sites = args.site === 'both' ? ['generated', ...(hasNews ? ['news'] : [])] : [args.site];
  const results = Object.fromEntries(sites.map((site) => [site, Object.fromEntries(MODES.map((m) => [m, []]))]));
  const realMsRuns = [];
  // Modes and sites interleaved run by run, so a change in the machine's load hits every mode alike.
  for (let run = 0; run < RUNS; run++) {
    for (const site of sites) for (const mode of MODES) results[site][mode].push(runChild(script, site, mode));
    if (hasNews) realMsRuns.push(runChild(script, 'real-extract', '').medianMs);
  }
  const realMs = hasNews ? median(realMsRuns) : undefined;
  console.log(
    `crawl benchmark: ${RUNS} runs per mode (interleaved), ${availableParallelism()} CPUs, Node ${process.version}` +
      (realMs
        ? `\none real page's extraction (news set, worker pool, median of run medians): ${realMs.toFixed(2)} ms`
        : ''),
  );
  for (const site of sites) report(site, results[site], realMs);
}

if (args.child) await child(args.child, args.mode);
else main();

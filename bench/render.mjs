// Rendering benchmark (npm run bench:render), issue 13: what a rendered page costs with headless Chromium behind the
// egress proxy (dist/browser/), on loopback pages that build their content with scripts.
//
//   npm run bench:render                        5 runs, 40 warm renders per run
//   npm run bench:render -- --runs 3 --pages 20
//
// Each run is its own child process with a fresh renderer, so it pays a browser launch:
//   cold      the first render, launch of Chromium and the proxy included;
//   warm      `--pages` renders one after the other on the running browser (a fresh context each);
//   parallel  the same number with RENDER_CONCURRENCY (default 2) renders in flight.
// Peak memory is sampled every 50 ms: Node's own RSS plus every process of the browser's tree (/proc), as RSS (which
// counts the pages Chromium's processes share once per process, so it overstates) and as PSS (shared pages divided
// among the processes sharing them: the honest total). Medians over runs.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { createServer } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median.mjs';

/* global setInterval, clearInterval */

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    pages: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '2' },
    child: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const PAGES = Number(args.pages);
const CONCURRENCY = Number(args.concurrency);

const PROSE =
  'An ordinary paragraph of prose that a reader would want, with enough words to look like an article body ' +
  'and not like navigation or boilerplate, so that extraction keeps it.';

const page = (title, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** The fixture pages: each builds its article with a script, as the pages that need rendering do. */
const PAGE_SOURCES = {
  '/inline': page(
    'Inline data',
    `<main id="app"></main><script>const items = ${JSON.stringify(Array.from({ length: 12 }, (_, i) => `${i}. ${PROSE}`))};` +
      'app.innerHTML = "<article><h1>Inline data</h1>" + items.map(t => "<p>" + t + "</p>").join("") + "</article>";</script>',
  ),
  '/fetched': page(
    'Fetched',
    '<main id="app">Loading…</main><script>fetch("/api/article").then(r => r.json()).then(d => {' +
      'app.innerHTML = "<article><h1>" + d.title + "</h1>" + d.paragraphs.map(t => "<p>" + t + "</p>").join("") + "</article>"; });</script>',
  ),
  '/spa': page(
    'SPA',
    '<nav><a href="#/a">A</a> <a href="#/b">B</a></nav><main id="view"></main><script>' +
      `const text = ${JSON.stringify(PROSE)};` +
      'function show() { const r = location.hash.slice(2) || "a"; view.innerHTML = "<article><h1>Route " + r + "</h1>" + ' +
      '"<p>" + text + "</p>".repeat(1) + "<p>" + text + "</p></article>"; } addEventListener("hashchange", show); show();</script>',
  ),
  '/static': page('Static', `<article><h1>Static</h1>${`<p>${PROSE}</p>`.repeat(12)}</article>`),
};
const PATHS = ['/inline', '/fetched', '/spa#/b', '/static'];

function startServer() {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/api/article') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ title: 'Fetched', paragraphs: Array.from({ length: 12 }, () => PROSE) }));
    }
    const html = PAGE_SOURCES[path];
    if (!html) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function child() {
  const { resolveConfig } = await import('../dist/config.js');
  const { createBrowserRenderer } = await import('../dist/browser/browser-renderer.js');
  const { processTree } = await import('../dist/browser/launch-browser.js');
  const server = await startServer();
  const hostPort = `127.0.0.1:${server.address().port}`;
  const renderer = createBrowserRenderer(
    resolveConfig({ ...process.env, ALLOW_PRIVATE_HOSTS: hostPort, RENDER_CONCURRENCY: String(CONCURRENCY) }),
  );
  let peak = 0;
  let peakPss = 0;
  const pssOf = (pid) => {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      return match ? Number(match[1]) * 1024 : 0;
    } catch {
      return 0; // the process ended while we looked
    }
  };
  const sample = () => {
    const browser = renderer.browserProcess();
    peak = Math.max(peak, process.memoryUsage().rss + (browser?.residentBytes ?? 0));
    const tree = browser?.pid ? processTree(browser.pid) : [];
    peakPss = Math.max(peakPss, pssOf(process.pid) + tree.reduce((sum, pid) => sum + pssOf(pid), 0));
  };
  const sampler = setInterval(sample, 50);
  const render = async (i) => {
    const result = await renderer.render(`http://${hostPort}${PATHS[i % PATHS.length]}`, { deadlineMs: 30000 });
    if (!/<h1>/.test(result.html)) throw new Error(`no content rendered for ${PATHS[i % PATHS.length]}`);
  };
  try {
    let start = performance.now();
    await render(0);
    const coldMs = performance.now() - start;
    sample();
    start = performance.now();
    for (let i = 0; i < PAGES; i++) await render(i);
    const warmMs = performance.now() - start;
    start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < PAGES) await render(next++);
      }),
    );
    const parallelMs = performance.now() - start;
    sample();
    console.log(JSON.stringify({ coldMs, warmMs, parallelMs, peakBytes: peak, peakPssBytes: peakPss }));
  } finally {
    clearInterval(sampler);
    await renderer.close();
    server.close();
  }
}

async function main() {
  const self = fileURLToPath(import.meta.url);
  const { resolveConfig } = await import('../dist/config.js');
  const { findBrowser } = await import('../dist/browser/find-browser.js');
  const browser = findBrowser(resolveConfig(process.env).chromiumPath);
  if (!browser) {
    console.error('No Chromium: apt-get install chromium, or set CHROMIUM_PATH.');
    process.exit(1);
  }
  const version = spawnSync(browser, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`command: npm run bench:render -- --runs ${RUNS} --pages ${PAGES} --concurrency ${CONCURRENCY}`);
  console.log(`inputs: ${PATHS.join(', ')} on 127.0.0.1 (scripted article pages, ~2 KB of text each), round-robin`);
  console.log(
    `machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `Node ${process.version}, ${version} (${browser}), load average at start ${loadavg()[0].toFixed(2)}`,
  );
  const results = [];
  for (let run = 0; run < RUNS; run++) {
    const out = spawnSync(
      process.execPath,
      [self, '--child', '--pages', String(PAGES), '--concurrency', String(CONCURRENCY)],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    if (out.status !== 0) throw new Error(`run ${run + 1} failed`);
    const result = JSON.parse(out.stdout.trim().split('\n').pop());
    results.push(result);
    console.log(
      `run ${run + 1}: cold ${result.coldMs.toFixed(0)} ms, warm ${((PAGES * 1000) / result.warmMs).toFixed(2)} pages/s, ` +
        `parallel ${((PAGES * 1000) / result.parallelMs).toFixed(2)} pages/s, peak RSS ${(result.peakBytes / 2 ** 20).toFixed(0)} MB, ` +
        `peak PSS ${(result.peakPssBytes / 2 ** 20).toFixed(0)} MB`,
    );
  }
  console.log(`load average at end ${loadavg()[0].toFixed(2)}`);
  console.log('');
  console.log('| measure (median of runs) | value |');
  console.log('| --- | ---: |');
  console.log(`| cold: first render, launch included | ${median(results.map((r) => r.coldMs)).toFixed(0)} ms |`);
  console.log(`| warm, one at a time | ${median(results.map((r) => (PAGES * 1000) / r.warmMs)).toFixed(2)} pages/s |`);
  console.log(
    `| warm, ${CONCURRENCY} in flight | ${median(results.map((r) => (PAGES * 1000) / r.parallelMs)).toFixed(2)} pages/s |`,
  );
  console.log(
    `| peak RSS, Node + browser tree | ${(median(results.map((r) => r.peakBytes)) / 2 ** 20).toFixed(0)} MB |`,
  );
}

if (args.child) await child();
else await main();

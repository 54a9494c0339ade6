// The RENDER_JS=auto decision on every evaluation page (npm run bench:render-auto), issue 23 item 6: how many pages
// of each set ../shared/eval holds `auto` would send to Chromium, which, and whether rendering them changes what is
// read (its F1).
//
//   npm run bench:render-auto                      the decision on every page, then a real render of each it renders
//   npm run bench:render-auto -- --decide-only     the decision only: no browser
//   npm run bench:render-auto -- --limit 50        the first 50 pages of each set
//
// The decision is the engine's own, taken as src/engine/read-page.ts takes it: the worker's HTML work on the page
// (dist/workers/read-body.js readHtmlWork, here in this process) gives the static read's outcome and whether the
// page looks script-built, and src/outcome.ts shouldRender('auto', …) decides. No browser is needed for it.
//
// Each page the rule renders is then rendered in headless Chromium (dist/browser/, the product's renderer) from a
// loopback server that answers its URL's path with the page's HTML, and the rendered DOM is read by the same work.
// Tests and benchmarks never reach the internet, so the page's own scripts from other origins do not load: the
// render runs the page's inline scripts and same-document ones only. Both reads are scored against the set's ground
// truth (bench/eval-score.mjs): news by 4-token shingles, the snippet sets by the "with" and "without" snippets.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';
import { parseArgs, TextEncoder } from 'node:util';
import { modernPages, multiPages, newsPages } from './eval-pages.mjs';
import { f1, markdownToText, pagePrecision, pageRecall, scoreMulti, scoreNews } from './eval-score.mjs';

const { values: args } = parseArgs({
  options: {
    limit: { type: 'string' },
    'decide-only': { type: 'boolean', default: false },
  },
});
const limit = args.limit ? Number(args.limit) : Infinity;

const { readHtmlWork } = await import('../dist/workers/read-body.js');
const { shouldRender } = await import('../dist/outcome.js');

const SETS = [
  ['news', 'shingles', () => newsPages(limit)],
  ['multilingual', 'snippets', () => multiPages(limit)],
  ['modern', 'snippets', () => modernPages(limit)],
];

/** The static read of HTML as the engine does it for fetch, read_url, web and crawl (the article). */
function readArticle(html, url) {
  return readHtmlWork({
    bytes: new TextEncoder().encode(html),
    contentType: 'text/html; charset=utf-8',
    baseUrl: url,
    article: {},
  });
}

/** src/engine/read-page.ts: the static read's outcome and script-built flag, then shouldRender. */
function autoRenders(work) {
  return shouldRender('auto', { outcome: work.emptyOutcome ?? 'ok', scriptBuilt: work.scriptBuilt });
}

/** One page's score: news as page F1 (and its counts), the snippet sets as their counts. */
function score(kind, page, work) {
  const text = markdownToText(work.article?.content ?? '');
  if (kind === 'shingles') {
    const counts = scoreNews(page.expected, text);
    return { ...counts, f1: f1(pagePrecision(counts), pageRecall(counts)) };
  }
  return scoreMulti(page, text);
}

function setF1(kind, scores) {
  if (scores.length === 0) return NaN;
  if (kind === 'shingles') {
    const precision = scores.reduce((sum, s) => sum + pagePrecision(s), 0) / scores.length;
    const recall = scores.reduce((sum, s) => sum + pageRecall(s), 0) / scores.length;
    return f1(precision, recall);
  }
  const sum = (key) => scores.reduce((total, s) => total + s[key], 0);
  const tp = sum('tp');
  const precision = tp + sum('fp') === 0 ? 0 : tp / (tp + sum('fp'));
  const recall = tp + sum('fn') === 0 ? 0 : tp / (tp + sum('fn'));
  return f1(precision, recall);
}

function shown(kind, s) {
  if (!s) return '—';
  return kind === 'shingles' ? `F1 ${s.f1.toFixed(3)}` : `with ${s.tp}/${s.tp + s.fn}, without ${s.fp}/${s.fp + s.tn}`;
}

/** A loopback server that answers one path at a time with one page's HTML (everything else: 404). */
async function startServer() {
  let current = { path: '', html: '' };
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path !== current.path) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(current.html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    hostPort: `127.0.0.1:${server.address().port}`,
    serve: (path, html) => (current = { path, html }),
    close: () => server.close(),
  };
}

async function startRenderer() {
  const { resolveConfig } = await import('../dist/config.js');
  const { findBrowser } = await import('../dist/browser/find-browser.js');
  const { createBrowserRenderer } = await import('../dist/browser/browser-renderer.js');
  const path = findBrowser(resolveConfig(process.env).chromiumPath);
  if (!path) throw new Error('No Chromium: apt-get install chromium, or set CHROMIUM_PATH (or pass --decide-only).');
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const server = await startServer();
  const renderer = createBrowserRenderer(resolveConfig({ ...process.env, ALLOW_PRIVATE_HOSTS: server.hostPort }));
  return {
    version,
    async render(page, html) {
      const path = new URL(page.url).pathname;
      server.serve(path, html);
      const started = performance.now();
      try {
        const result = await renderer.render(`http://${server.hostPort}${path}`, { deadlineMs: 30_000 });
        return { html: result.html, ms: performance.now() - started };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error), ms: performance.now() - started };
      }
    },
    async close() {
      await renderer.close();
      server.close();
    },
  };
}

async function main() {
  const renderer = args['decide-only'] ? undefined : await startRenderer();
  const extra = args.limit ? ` -- --limit ${args.limit}` : '';
  console.log(`command: npm run bench:render-auto${args['decide-only'] ? ' -- --decide-only' : extra}`);
  console.log(
    `load average at start ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}${renderer ? `, ${renderer.version}` : ''}`,
  );
  const summary = [];
  try {
    for (const [name, kind, listPages] of SETS) {
      const pages = listPages();
      if (pages.length === 0) continue;
      const rendered = [];
      for (const page of pages) {
        const html = page.load();
        const work = readArticle(html, page.url);
        if (!autoRenders(work)) continue;
        const entry = { page, outcome: work.emptyOutcome ?? 'ok', static: score(kind, page, work) };
        if (renderer) {
          const result = await renderer.render(page, html);
          entry.ms = result.ms;
          if (result.error) entry.error = result.error;
          else entry.rendered = score(kind, page, readArticle(result.html, page.url));
        }
        rendered.push(entry);
        console.log(
          `  ${name} ${page.id}: ${entry.outcome}; static ${shown(kind, entry.static)}` +
            (renderer
              ? `; rendered ${entry.error ? `failed (${entry.error})` : shown(kind, entry.rendered)} in ${Math.round(entry.ms)} ms`
              : '') +
            `  ${page.url}`,
        );
      }
      const done = rendered.filter((entry) => entry.rendered);
      summary.push({
        name,
        pages: pages.length,
        rendered: rendered.length,
        staticF1: setF1(kind, done.length ? done.map((e) => e.static) : rendered.map((e) => e.static)),
        renderedF1: setF1(
          kind,
          done.map((e) => e.rendered),
        ),
        moved: done.filter((e) => JSON.stringify(e.static) !== JSON.stringify(e.rendered)).length,
        failed: rendered.length - done.length,
        ms: rendered.map((e) => e.ms ?? 0).reduce((a, b) => a + b, 0),
      });
    }
  } finally {
    await renderer?.close();
  }
  console.log(
    `load average at end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log('');
  console.log(
    '| set | pages | rendered by auto | F1 of those, static | F1 of those, rendered | scores moved | render time |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const f = (n) => (Number.isNaN(n) ? '—' : n.toFixed(3));
  for (const s of summary) {
    const time = renderer ? `${(s.ms / 1000).toFixed(1)} s` : '—';
    const moved = renderer ? `${s.moved}${s.failed ? ` (${s.failed} failed)` : ''}` : '—';
    console.log(
      `| ${s.name} | ${s.pages} | ${s.rendered} | ${f(s.staticF1)} | ${renderer ? f(s.renderedF1) : '—'} | ${moved} | ${time} |`,
    );
  }
}

await main();

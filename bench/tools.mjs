// Tools benchmark (npm run bench:tools): pages per second and CPU per page of `links`, `web_scraper` and `fetch`
// through the library (the tools' real path: arguments, engine, worker pool, presentation), over the news set of
// ../shared/eval served from a loopback server, for this build and, with --base DIR, another build's dist/ in the same
// run. Each (build, tool) run is its own child process with a fresh cache and pool, runs are interleaved, and the
// report gives medians of wall time and of the child's CPU time (user + system), and their ratio to the base.
//
//   npm run bench:tools                                  this build only
//   npm run bench:tools -- --base /tmp/old --runs 5      against an older checkout (its dist/ built)
//   npm run bench:tools -- --pages 40 --tools links      fewer pages, one tool
import { spawn } from 'node:child_process';
import console from 'node:console';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { newsPages } from './eval-pages.mjs';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: '90' },
    tools: { type: 'string', default: 'links,web_scraper,fetch' },
    child: { type: 'string' },
    dist: { type: 'string' },
    origin: { type: 'string' },
  },
});

if (values.child) {
  // One run: read every page once with one tool, four calls at a time, then print wall and CPU time.
  const { createWebReader } = await import(pathToFileURL(resolve(values.dist, 'index.js')).href);
  const origin = values.origin;
  const reader = createWebReader({
    env: {
      ALLOW_PRIVATE_HOSTS: new URL(origin).host,
      PER_DOMAIN_INTERVAL: '0',
      MAX_CONCURRENT: '4',
      RENDER_JS: 'never',
      MAX_OUTPUT_TOKENS: '0',
    },
  });
  const count = Number(values.pages);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const output = await reader.call(values.child, { url: `${origin}/p/${index}` });
      if (output.isError) failed++;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - started;
  await reader.close();
  // The pool's workers are threads of this process: cpuUsage counts them too.
  process.stdout.write(JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000, failed }) + '\n');
  process.exit(0);
}

const pages = newsPages(Number(values.pages)).map((page) => ({ ...page, html: page.load() }));
const server = createServer((req, res) => {
  const index = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
  const page = pages[index];
  if (!page) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${server.address().port}`;

const builds = [{ name: 'this build', dist: resolve(ROOT, 'dist') }];
if (values.base) builds.push({ name: 'base', dist: resolve(values.base, 'dist') });
const tools = values.tools.split(',');

function runChild(dist, tool) {
  return new Promise((done, fail) => {
    const args = [fileURLToPath(import.meta.url), '--child', tool, '--dist', dist, '--origin', origin];
    const child = spawn(process.execPath, [...args, '--pages', String(pages.length)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? done(JSON.parse(out.trim().split('\n').pop())) : fail(new Error(out))));
  });
}

const results = new Map();
for (let run = 0; run < Number(values.runs); run++) {
  for (const tool of tools) {
    // Interleaved, and the order of builds alternates, so a noisy moment does not fall on one build only.
    const order = run % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      const result = await runChild(build.dist, tool);
      const key = `${tool}\t${build.name}`;
      results.set(key, [...(results.get(key) ?? []), result]);
    }
  }
}
server.close();

console.log(`${pages.length} news pages, ${values.runs} interleaved runs per build and tool, 4 calls at a time\n`);
console.log('| tool | build | pages/s (median) | CPU ms per page (median) | failed | wall ratio | CPU ratio |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const tool of tools) {
  const base = results.get(`${tool}\tbase`);
  for (const build of builds) {
    const list = results.get(`${tool}\t${build.name}`);
    const wall = median(list.map((r) => r.wallMs));
    const cpu = median(list.map((r) => r.cpuMs));
    const ratio = (value, field) => (base ? (value / median(base.map((r) => r[field]))).toFixed(2) + '×' : '');
    const perSecond = (pages.length / (wall / 1000)).toFixed(1);
    const failed = Math.max(...list.map((r) => r.failed));
    console.log(
      `| ${tool} | ${build.name} | ${perSecond} | ${(cpu / pages.length).toFixed(1)} | ${failed} | ${ratio(wall, 'wallMs')} | ${ratio(cpu, 'cpuMs')} |`,
    );
  }
}

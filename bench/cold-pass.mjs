// The benchmark's cold pass, alone: a fresh worker thread with the pool's resourceLimits reads the news pages once
// (as bench/extract.mjs --only ours --sets news does) and prints the pass's process CPU. Pages are loaded before the
// pass. For instruction counts: valgrind --tool=callgrind node bench/cold-pass.mjs [build dir] (default: this tree's
// .bench-out/extract). YOUNG_MB overrides the young generation, to measure it.
import console from 'node:console';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { newsPages } from './eval-pages.mjs';

const here = fileURLToPath(import.meta.url);
if (isMainThread) {
  const build = resolve(process.argv[2] ?? join(here, '../../.bench-out/extract'));
  const { workerResourceLimits } = await import(join(build, 'workers/pool.js'));
  const limits = workerResourceLimits();
  if (process.env.YOUNG_MB) limits.maxYoungGenerationSizeMb = Number(process.env.YOUNG_MB);
  const worker = new Worker(here, { workerData: { build }, resourceLimits: limits });
  worker.on('message', (m) => console.log(JSON.stringify(m)));
  await new Promise((done, fail) => (worker.on('exit', done), worker.on('error', fail)));
  console.log(JSON.stringify({ peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
} else {
  const { extractArticle } = await import(join(workerData.build, 'extract/extract-article.js'));
  const pages = newsPages(Number(process.env.LIMIT ?? Infinity)).map((page) => ({ url: page.url, html: page.load() }));
  const first = {};
  const cpu = process.cpuUsage();
  const ms = (u) => Math.round((u.user + u.system) / 1000);
  for (const [i, page] of pages.entries()) {
    extractArticle(page.html, { baseUrl: page.url });
    if (i === 0 || i === 9) first[`first${i + 1}`] = ms(process.cpuUsage(cpu));
  }
  parentPort.postMessage({ pages: pages.length, cpuMs: ms(process.cpuUsage(cpu)), ...first });
}

// Structured data's cost (issue 28 item 3): per page of the evaluation sets, main-content extraction alone and the
// structured data read (JSON-LD, OpenGraph, microdata, RDFa, tables: src/extract/structured-data.ts), interleaved
// (the order flips every page), CPU time beside wall time, and what the pages declare.
//
//   npm run bench:structured-data                 every page of the sets
//   npm run bench:structured-data -- --limit 150  the first 150 of each set
import console from 'node:console';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { modernPages, multiPages, newsPages } from './eval-pages.mjs';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { limit: { type: 'string' } } });
const limit = args.limit ? Number(args.limit) : Infinity;
const out = join(ROOT, '.bench-out/extract/extract');
const { extractArticle } = await import(join(out, 'extract-article.js'));
const { extractStructuredData } = await import(join(out, 'structured-data.js'));

const runs = {
  article: (html, url) => extractArticle(html, { baseUrl: url }),
  data: (html, url) => extractStructuredData(html, url),
};
const cpu = { article: [], data: [] };
const wall = { article: [], data: [] };
const kinds = {};
const sizes = [];
const pages = [...newsPages(limit), ...multiPages(limit), ...modernPages(limit)];
for (const [index, page] of pages.entries()) {
  const html = page.load();
  for (const name of index % 2 ? ['article', 'data'] : ['data', 'article']) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    const result = runs[name](html, page.url);
    wall[name].push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu[name].push((used.user + used.system) / 1000);
    if (name === 'data') {
      for (const kind of Object.keys(result)) kinds[kind] = (kinds[kind] ?? 0) + 1;
      sizes.push(JSON.stringify(result).length);
    }
  }
}
const total = (list) => list.reduce((a, b) => a + b, 0);
console.log(`${pages.length} pages`);
for (const name of ['article', 'data']) {
  console.log(
    `${name.padEnd(8)} median ${median(wall[name]).toFixed(2)} ms wall, ${median(cpu[name]).toFixed(2)} ms CPU; ` +
      `total ${Math.round(total(cpu[name]))} ms CPU`,
  );
}
console.log(`data / article, total CPU: ${(total(cpu.data) / total(cpu.article)).toFixed(2)}`);
console.log(`pages with each kind: ${JSON.stringify(kinds)}`);
console.log(`structured data as JSON: median ${median(sizes)} characters, largest ${Math.max(...sizes)}`);

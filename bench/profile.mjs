// Profiles our pipeline on a slice of the eval pages: node --cpu-prof bench/profile.mjs [N]
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { TextDecoder } from 'node:util';
import { URL } from 'node:url';
const { extractArticle } = await import('../node_modules/.cache/web-reader-bench/extract/extract-article.js');
const dir = new URL('../../shared/eval/article-extraction-benchmark/html', import.meta.url).pathname;
const files = readdirSync(dir).slice(0, Number(process.argv[2] ?? 30));
const pages = files.map((f) => new TextDecoder().decode(gunzipSync(readFileSync(`${dir}/${f}`))));
const t = performance.now();
const cpu = process.cpuUsage();
for (const html of pages) extractArticle(html, { baseUrl: 'https://example.com/a/b' });
const used = process.cpuUsage(cpu);
console.log(
  ((performance.now() - t) / pages.length).toFixed(1),
  'ms/page wall',
  ((used.user + used.system) / 1000 / pages.length).toFixed(1),
  'ms/page cpu',
);

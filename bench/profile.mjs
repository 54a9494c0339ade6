// Profiles our pipeline on a slice of the news eval pages: node --cpu-prof bench/profile.mjs [N]
// (after `npm run bench:extract -- --only ours --limit 1`, which compiles the extractor it loads).
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { newsPages } from './eval-pages.mjs';

const { extractArticle } = await import('../.bench-out/extract/extract/extract-article.js');
const pages = newsPages(Number(process.argv[2] ?? 30)).map((page) => page.load());
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

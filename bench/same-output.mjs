// Whether two builds of src/extract give the same output on every page of the evaluation sets: a change made for
// speed or memory must change nothing a reader gets. For each page of the three sets, `extractArticle` plain and with
// links and explain, and `extractLinks`, JSON-equal between the builds.
//
//   npx tsc -p bench/tsconfig.json && cp -r .bench-out/extract .bench-out/after    (and the same on main → before)
//   node bench/same-output.mjs .bench-out/before .bench-out/after
//
// Prints each page that differs and, last, `pages N differences D`; exits 1 when D > 0. The builds must sit inside
// the repository (their imports of htmlparser2 and the rest resolve from its node_modules).
import console from 'node:console';
import { resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { modernPages, multiPages, newsPages } from './eval-pages.mjs';

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node bench/same-output.mjs BEFORE_BUILD AFTER_BUILD (copies of .bench-out/extract)');
  process.exit(2);
}
const load = async (dir, file) => import(pathToFileURL(resolve(dir, 'extract', file)).href);
const [a, b] = await Promise.all([load(before, 'extract-article.js'), load(after, 'extract-article.js')]);
const [la, lb] = await Promise.all([load(before, 'links.js'), load(after, 'links.js')]);

let pages = 0;
let differences = 0;
for (const set of [newsPages(), multiPages(), modernPages()]) {
  for (const page of set) {
    const html = page.load();
    for (const options of [{ baseUrl: page.url }, { baseUrl: page.url, withLinks: true, explain: true }]) {
      if (JSON.stringify(a.extractArticle(html, options)) !== JSON.stringify(b.extractArticle(html, options))) {
        differences++;
        console.log('differs: extractArticle', options.explain ? '(links, explain)' : '', page.id);
      }
    }
    if (JSON.stringify(la.extractLinks(html, page.url)) !== JSON.stringify(lb.extractLinks(html, page.url))) {
      differences++;
      console.log('differs: extractLinks', page.id);
    }
    pages++;
  }
}
console.log('pages', pages, 'differences', differences);
if (differences > 0) process.exitCode = 1;

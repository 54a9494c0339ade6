// Memory benchmark (npm run bench:memory): the peak resident memory a read adds, for pages whose size is the point —
// a 9 MB single-line HTML page through `fetch`, a page of 200,000 anchors through `links`, and four 9 MB pages
// read at once through `fetch`. Issue 23 item 8: memory proportional to what is kept, not to what was read.
//
// A loopback server serves the pages; each (build, case) runs in a child process of its own (bench/memory-child.mjs)
// that reads through the library of one build's dist/ and reports its peak RSS (VmHWM, worker threads included)
// over its RSS just before the call. Runs are interleaved (this build, then the other, case by case) and medians
// reported, with wall and CPU time beside them.
//
//   npm run bench:memory                               → this worktree's dist/, 5 runs of each case
//   npm run bench:memory -- --base /work/base/dist     → and another build's dist/ (e.g. before a change), interleaved
//                                                        (--base again for more builds, all in the same run)
//   npm run bench:memory -- --runs 3 --case fetch-9mb
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median.mjs';

const print = (line = '') => process.stdout.write(`${line}\n`);

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    base: { type: 'string', multiple: true },
    dist: { type: 'string' },
    case: { type: 'string', multiple: true },
  },
});
const runs = Number(values.runs);
const root = fileURLToPath(new URL('../', import.meta.url));
const builds = [
  ...(values.base ?? []).map((dist) => ({ name: `base (${dist})`, dist })),
  { name: `this (${values.dist ?? 'dist'})`, dist: values.dist ?? `${root}dist` },
];

/** A 9 MB page on one line: 9 MB of article paragraphs with a link in each, no newline anywhere. */
function bigPage() {
  const parts = ['<!doctype html><html><head><title>One long line</title></head><body><main>'];
  let size = parts[0].length;
  for (let n = 0; size < 9 * 1024 * 1024; n += 1) {
    const part =
      `<div class="post"><h2>Entry ${n}</h2><p>Paragraph ${n} of a page that is one line long, with words ` +
      `enough to be read as an article by the extractor, and <a href="/entry/${n}">a link to entry ${n}</a> ` +
      `inside it, and some more words after the link so that the paragraph is text.</p></div>`;
    parts.push(part);
    size += part.length;
  }
  parts.push('</main></body></html>');
  return parts.join('');
}

/** 200,000 anchors, each to a page of the same site, in a list. */
function anchorsPage() {
  const parts = ['<!doctype html><html><head><title>Anchors</title></head><body><ul>'];
  for (let n = 0; n < 200_000; n += 1) parts.push(`<li><a href="/a/${n}">Anchor ${n}</a></li>`);
  parts.push('</ul></body></html>');
  return parts.join('');
}

const pages = new Map([
  ['/big', Buffer.from(bigPage())],
  ['/anchors', Buffer.from(anchorsPage())],
  [
    '/small',
    Buffer.from('<html><head><title>Small</title></head><body><p>A small page <a href="/x">x</a>.</p></body></html>'),
  ],
]);

const server = createServer((request, response) => {
  const body = pages.get(new URL(request.url, 'http://x').pathname);
  if (!body) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const CASES = [
  { name: 'fetch-9mb', label: '`fetch` of a 9 MB single-line page', tool: 'fetch', urls: [`${origin}/big`] },
  { name: 'links-200k', label: '`links` of 200,000 anchors', tool: 'links', urls: [`${origin}/anchors`] },
  {
    name: 'fetch-4x9mb',
    label: '`fetch` of four 9 MB pages at once',
    tool: 'fetch',
    urls: [1, 2, 3, 4].map((n) => `${origin}/big?copy=${n}`),
  },
].filter((c) => !values.case || values.case.includes(c.name));

/** One child process: one build reads one case; its JSON line. */
function measure(build, testCase) {
  return new Promise((resolve, reject) => {
    const args = [`${root}bench/memory-child.mjs`, build.dist, testCase.tool, ...testCase.urls];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`child exited ${code}: ${err.slice(0, 500)}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });
}

const results = new Map(); // `${build.name}|${case.name}` → measurements
const loads = [loadavg()[0]];
for (let run = 0; run < runs; run += 1) {
  for (const testCase of CASES) {
    for (const build of run % 2 ? [...builds].reverse() : builds) {
      const result = await measure(build, testCase);
      if (result.error) throw new Error(`${build.name} ${testCase.name}: ${result.error.slice(0, 300)}`);
      const key = `${build.name}|${testCase.name}`;
      process.stderr.write(`${key}: +${result.added.toFixed(0)} MB, ${result.wallMs.toFixed(0)} ms\n`);
      results.set(key, [...(results.get(key) ?? []), result]);
    }
  }
  loads.push(loadavg()[0]);
}
server.close();

print(`node bench/memory.mjs --runs ${runs} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model}`);
print(`load average (1 min) during the run: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`);
print();
print(
  '| case | build | median MB added (peak − before) | min | max | median peak RSS MB | median wall ms | median CPU ms | text chars |',
);
print('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const testCase of CASES) {
  for (const build of builds) {
    const list = results.get(`${build.name}|${testCase.name}`);
    const added = list.map((r) => r.added);
    const row = [
      median(added),
      Math.min(...added),
      Math.max(...added),
      median(list.map((r) => r.peak)),
      median(list.map((r) => r.wallMs)),
      median(list.map((r) => r.cpuMs)),
    ].map((n) => n.toFixed(0));
    print(`| ${testCase.label} | ${build.name} | ${row.join(' | ')} | ${list[0].textLength} |`);
  }
}

// read_many benchmark (npm run bench:many): 20 URLs on 5 loopback hosts (5 servers, one port each: a host is a name
// and a port, as the request queue keys it) read by one `read_many` call, against the same 20 URLs read by 20
// sequential `fetch` calls, in the same run. Pages are news pages of ../shared/eval, each answered after --latency ms
// (a server's think time and the network's round trip, which loopback lacks). PER_DOMAIN_INTERVAL is --interval
// for both: the politeness both keep. Each run is a child process with a fresh cache and pool; modes are
// interleaved and their order alternates; the report gives medians of wall time and of the child's CPU time.
//
//   npm run bench:many                                   5 runs, 200 ms latency, 500 ms interval
//   npm run bench:many -- --runs 7 --latency 100 --interval 2000
import { spawn } from 'node:child_process';
import console from 'node:console';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { newsPages } from './eval-pages.mjs';
import { median } from './median.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOSTS = 5;
const URLS = 20;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    latency: { type: 'string', default: '200' },
    interval: { type: 'string', default: '500' },
    child: { type: 'string' },
    urls: { type: 'string' },
  },
});

if (values.child) {
  const { createWebReader } = await import(pathToFileURL(resolve(ROOT, 'dist/index.js')).href);
  const urls = values.urls.split(' ');
  const reader = createWebReader({
    env: {
      ALLOW_PRIVATE_HOSTS: [...new Set(urls.map((url) => new URL(url).host))].join(','),
      PER_DOMAIN_INTERVAL: values.interval,
      RENDER_JS: 'never',
      MAX_OUTPUT_TOKENS: '0',
    },
  });
  const started = performance.now();
  const cpu = process.cpuUsage();
  let failed = 0;
  if (values.child === 'read_many') {
    const output = await reader.readMany({ urls });
    failed = output.structured.pages.filter((page) => page.status !== 'ok').length;
  } else {
    for (const url of urls) {
      const output = await reader.fetch({ url });
      if (output.isError || output.structured.status !== 'ok') failed++;
    }
  }
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - started;
  await reader.close();
  process.stdout.write(JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000, failed }) + '\n');
  process.exit(0);
}

const pages = newsPages(URLS).map((page) => page.load());
const servers = [];
for (let h = 0; h < HOSTS; h++) {
  const server = createServer((req, res) => {
    const index = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    setTimeout(() => {
      if (!pages[index]) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[index]);
    }, Number(values.latency));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  servers.push(server);
}
// Round-robin over the hosts, the order kindest to the sequential calls (each host's turn comes every fifth call).
const urls = Array.from({ length: URLS }, (_, i) => `http://127.0.0.1:${servers[i % HOSTS].address().port}/p/${i}`);

function runChild(mode) {
  return new Promise((done, fail) => {
    const args = [fileURLToPath(import.meta.url), '--child', mode, '--urls', urls.join(' ')];
    const child = spawn(process.execPath, [...args, '--interval', values.interval], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? done(JSON.parse(out.trim().split('\n').pop())) : fail(new Error(out))));
  });
}

const modes = ['read_many', 'fetch ×20'];
const results = new Map(modes.map((mode) => [mode, []]));
for (let run = 0; run < Number(values.runs); run++) {
  for (const mode of run % 2 === 0 ? modes : [...modes].reverse()) {
    results.get(mode).push(await runChild(mode === 'read_many' ? 'read_many' : 'fetch'));
  }
}
for (const server of servers) server.close();

console.log(
  `${URLS} news pages on ${HOSTS} loopback hosts, ${values.latency} ms latency, PER_DOMAIN_INTERVAL ${values.interval} ms, ` +
    `${values.runs} interleaved runs\n`,
);
console.log('| mode | wall ms (median) | CPU ms (median) | failed | wall ratio | CPU ratio |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
const base = results.get('fetch ×20');
for (const mode of modes) {
  const list = results.get(mode);
  const wall = median(list.map((r) => r.wallMs));
  const cpu = median(list.map((r) => r.cpuMs));
  const ratio = (value, field) => (value / median(base.map((r) => r[field]))).toFixed(2) + '×';
  const failed = Math.max(...list.map((r) => r.failed));
  console.log(
    `| ${mode} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} | ${failed} | ${ratio(wall, 'wallMs')} | ${ratio(cpu, 'cpuMs')} |`,
  );
}

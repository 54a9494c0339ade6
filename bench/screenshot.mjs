// Screenshot benchmark (npm run bench:screenshot), issue 28 item 1: what a screenshot adds to a plain render of the
// same page, in the same run, on the same browser (dist/browser/).
//
//   npm run bench:screenshot                       3 runs, 10 rounds per run
//   npm run bench:screenshot -- --runs 5 --rounds 20
//
// Each run is a child process with a fresh renderer (one browser launch, not counted: a first plain render warms
// it). Each round renders the loopback chart page three ways, interleaved so that load drifts alike on all three:
//   plain       the DOM only (what fetch with render "always" costs);
//   viewport    the DOM and a 1280×800 PNG;
//   full page   the DOM and a full-page PNG of a 6000 px page (the chart page made tall).
// Per render: wall time; CPU time of the browser's process tree (utime + stime + the reaped children's cutime +
// cstime, from /proc, read after the page has closed) and, apart, of Node (which includes this bench's own sampling,
// so it grows with the wall time). Peak PSS (Node + browser tree, sampled every 200 ms) while each way ran. Medians over all renders of all runs; peaks are medians of each run's peak.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median.mjs';

/* global setInterval, clearInterval, setTimeout */

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '10' },
    child: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const ROUNDS = Number(args.rounds);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

const chart = (height) =>
  '<!doctype html><html><head><title>Chart</title><style>body{margin:0}</style></head><body>' +
  `<canvas id="c" width="900" height="500"></canvas><div style="height:${height}px">` +
  '<article><h1>Quarterly sales</h1><p>Sales rose in every quarter, most of all in the fourth.</p></article></div>' +
  "<script>const g = document.getElementById('c').getContext('2d'); for (let i = 0; i < 12; i++) {" +
  "g.fillStyle = 'hsl(' + i * 30 + ',70%,50%)'; g.fillRect(40 + i * 70, 480 - i * 35, 50, i * 35); }</script>" +
  '</body></html>';
const PAGES = { '/chart': chart(200), '/tall': chart(6000) };

const WAYS = [
  { name: 'plain', path: '/chart' },
  { name: 'viewport', path: '/chart', screenshot: { fullPage: false, width: 1280, format: 'png' } },
  { name: 'full page', path: '/tall', screenshot: { fullPage: true, width: 1280, format: 'png' } },
];

function startServer() {
  const server = createServer((req, res) => {
    const html = PAGES[new URL(req.url, 'http://x').pathname];
    if (!html) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const readProc = (pid, file) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return ''; // the process ended while we looked
  }
};
const pssOf = (pid) => Number(/^Pss:\s+(\d+) kB/m.exec(readProc(pid, 'smaps_rollup'))?.[1] ?? 0) * 1024;
/** utime + stime + cutime + cstime of one process, in ms. */
const cpuOf = (pid) => {
  const stat = readProc(pid, 'stat');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at] ?? 0), 0) * (1000 / TICKS_PER_SECOND);
};

async function child() {
  const { resolveConfig } = await import('../dist/config.js');
  const { createBrowserRenderer } = await import('../dist/browser/browser-renderer.js');
  const { processTree } = await import('../dist/browser/launch-browser.js');
  const server = await startServer();
  const hostPort = `127.0.0.1:${server.address().port}`;
  const renderer = createBrowserRenderer(resolveConfig({ ...process.env, ALLOW_PRIVATE_HOSTS: hostPort }));
  const tree = () => {
    const pid = renderer.browserProcess()?.pid;
    return pid ? [pid, ...processTree(pid).filter((one) => one !== pid)] : [];
  };
  const nodeCpu = () => {
    const own = process.cpuUsage();
    return (own.user + own.system) / 1000;
  };
  const browserCpu = () => tree().reduce((sum, pid) => sum + cpuOf(pid), 0);
  let current;
  const peaks = Object.fromEntries(WAYS.map((way) => [way.name, 0]));
  const sampler = setInterval(() => {
    if (!current) return;
    const pss = pssOf(process.pid) + tree().reduce((sum, pid) => sum + pssOf(pid), 0);
    peaks[current] = Math.max(peaks[current], pss);
  }, 200);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300)); // the page closes in the background
  const samples = [];
  try {
    await renderer.render(`http://${hostPort}/chart`, { deadlineMs: 60_000 }); // launch, not measured
    await settle();
    for (let round = 0; round < ROUNDS; round++) {
      for (const way of WAYS) {
        const [nodeBefore, browserBefore] = [nodeCpu(), browserCpu()];
        current = way.name;
        const start = performance.now();
        const result = await renderer
          .render(`http://${hostPort}${way.path}`, {
            deadlineMs: 60_000,
            ...(way.screenshot && { screenshot: way.screenshot }),
          })
          .catch((error) => {
            // Counted and said, not measured: a busy machine can starve a page past the stall guard's 3 s.
            console.error(`round ${round + 1}, ${way.name}: ${error.message}`);
            return undefined;
          });
        const wallMs = performance.now() - start;
        current = undefined;
        if (!result) {
          samples.push({ way: way.name, failed: true });
          await settle();
          continue;
        }
        if (!/Quarterly sales/.test(result.html)) throw new Error('the chart page did not render');
        await settle();
        samples.push({
          way: way.name,
          wallMs,
          nodeCpuMs: nodeCpu() - nodeBefore,
          browserCpuMs: browserCpu() - browserBefore,
          bytes: result.screenshot?.bytes.byteLength ?? 0,
          height: result.screenshot?.height ?? 0,
        });
      }
    }
    console.log(JSON.stringify({ samples, peaks }));
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
  console.log(`command: npm run bench:screenshot -- --runs ${RUNS} --rounds ${ROUNDS}`);
  console.log(
    `machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `Node ${process.version}, ${version}, load average at start ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const samples = [];
  const peaks = [];
  for (let run = 0; run < RUNS; run++) {
    const out = spawnSync(process.execPath, [self, '--child', '--rounds', String(ROUNDS)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (out.status !== 0) throw new Error(`run ${run + 1} failed`);
    const result = JSON.parse(out.stdout.trim().split('\n').pop());
    samples.push(...result.samples);
    peaks.push(result.peaks);
    console.log(`run ${run + 1} done, load average ${loadavg()[0].toFixed(2)}`);
  }
  console.log(
    `load average at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('');
  console.log('| render of the chart page (median) | wall | CPU, browser | CPU, Node | peak PSS | image | failed |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const way of WAYS) {
    const all = samples.filter((sample) => sample.way === way.name);
    const mine = all.filter((sample) => !sample.failed);
    const wall = median(mine.map((sample) => sample.wallMs));
    const nodeCpu = median(mine.map((sample) => sample.nodeCpuMs));
    const browserCpu = median(mine.map((sample) => sample.browserCpuMs));
    const pss = median(peaks.map((peak) => peak[way.name])) / 2 ** 20;
    const image = way.screenshot
      ? `1280×${median(mine.map((s) => s.height))} PNG, ${(median(mine.map((s) => s.bytes)) / 1024).toFixed(0)} KB`
      : '—';
    const failed = `${all.length - mine.length} of ${all.length}`;
    console.log(
      `| ${way.name} | ${wall.toFixed(0)} ms | ${browserCpu.toFixed(0)} ms | ${nodeCpu.toFixed(0)} ms | ` +
        `${pss.toFixed(0)} MB | ${image} | ${failed} |`,
    );
  }
}

if (args.child) await child();
else await main();

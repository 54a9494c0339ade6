// Start-up benchmark (npm run bench:start): how long an MCP client waits from spawning the server to the answer
// to `initialize`, for web-reader's stdio server and, in the same run, a bare MCP SDK server with one tool (the
// floor any SDK-based server pays: Node start plus the SDK). Runs are interleaved, bare then ours, so machine
// noise hits both alike; the medians and their ratio are printed (issue 15: ours within 1.3× the bare server).
//
//   npm run bench:start                 → 15 interleaved runs of each
//   npm run bench:start -- --runs 30
//   node bench/start.mjs --cli /tmp/old/dist/cli/main.js   → another build (e.g. before a change) against the same floor
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';

/** One line of the report on stdout. */
const print = (line = '') => process.stdout.write(`${line}\n`);

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, cli: { type: 'string' } } });
const runs = Number(values.runs);
const root = fileURLToPath(new URL('../', import.meta.url));
const ours = [values.cli ?? `${root}dist/cli/main.js`];
const bare = [`${root}bench/bare-server.mjs`];

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-start', version: '1' } },
})}\n`;

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Milliseconds from spawn to the first complete JSON-RPC answer on stdout, and the CPU time the server had used by
 * then (less sensitive than wall time to other work on a shared machine); the child is then killed.
 */
function timeToInitialize(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const cpu = cpuMs(child.pid);
      const answer = JSON.parse(out.slice(0, out.indexOf('\n')));
      child.kill();
      if (answer.id !== 1 || !answer.result) reject(new Error(`unexpected answer: ${out.slice(0, 200)}`));
      else resolve({ ms, cpu });
    });
    child.on('error', reject);
    // A client writes initialize as soon as the process exists; the server reads it when it is ready.
    child.stdin.write(INITIALIZE);
  });
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// One warm-up of each (the file system cache), not counted.
await timeToInitialize(bare);
await timeToInitialize(ours);
const times = { bare: [], ours: [] };
for (let run = 0; run < runs; run += 1) {
  times.bare.push(await timeToInitialize(bare));
  times.ours.push(await timeToInitialize(ours));
}
const wall = (list) => list.map((time) => time.ms);
const cpu = (list) => list.map((time) => time.cpu);
const bareMedian = median(wall(times.bare));
const oursMedian = median(wall(times.ours));
print(
  `node bench/start.mjs --runs ${runs} ${ours[0]} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model}`,
);
print();
print('| server | median ms to answer initialize | min | max | median CPU ms by then |');
print('| --- | ---: | ---: | ---: | ---: |');
for (const [name, list] of [
  ['bare MCP SDK server (one tool)', times.bare],
  ['web-reader (stdio, default tools)', times.ours],
]) {
  const ms = wall(list);
  const row = [median(ms), Math.min(...ms), Math.max(...ms), median(cpu(list))].map((n) => n.toFixed(0));
  print(`| ${name} | ${row.join(' | ')} |`);
}
print();
const cpuRatio = median(cpu(times.ours)) / median(cpu(times.bare));
print(
  `ratio web-reader / bare: ${(oursMedian / bareMedian).toFixed(2)}× wall time (issue 15 asks ≤ 1.3×), ` +
    `${cpuRatio.toFixed(2)}× CPU time`,
);

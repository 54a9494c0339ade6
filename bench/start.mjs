// Start-up benchmark (npm run bench:start): how long an MCP client waits from spawning the server to (1) the answer
// to `initialize` and (2) the result of its first `fetch` of a page, for web-reader's stdio server and, in the same
// run, a bare MCP SDK server (bench/bare-server.mjs: the floor any SDK-based server pays — Node's start, the SDK —
// whose `fetch` tool is a plain `fetch()` returning the page's text). The client does what an MCP client does:
// writes `initialize` at once, then on its answer `notifications/initialized` and `tools/list`, then on that answer
// `tools/call` of `fetch` with a page served on loopback (the same page for both). Runs are interleaved, bare then
// ours (then --base's), so machine noise hits all alike; wall and CPU medians and their ratios are printed
// (issue 15: initialize within 1.3× the bare server; issue 23 item 7: the first fetch within 1.5×).
//
//   npm run bench:start                 → 15 interleaved runs of each
//   npm run bench:start -- --runs 30
//   node bench/start.mjs --cli /tmp/old/dist/cli/main.js    → another build in place of this one
//   node bench/start.mjs --base /tmp/old/dist/cli/main.js   → another build (e.g. before a change) in the same run
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median.mjs';

/** One line of the report on stdout. */
const print = (line = '') => process.stdout.write(`${line}\n`);

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, cli: { type: 'string' }, base: { type: 'string' } },
});
const runs = Number(values.runs);
const root = fileURLToPath(new URL('../', import.meta.url));
const servers = [
  { name: 'bare MCP SDK server (plain fetch())', args: [`${root}bench/bare-server.mjs`] },
  { name: 'web-reader (stdio, default tools)', args: [values.cli ?? `${root}dist/cli/main.js`] },
  ...(values.base ? [{ name: `web-reader --base (${values.base})`, args: [values.base] }] : []),
];

// The page both servers fetch: a 2 KB article, on loopback.
const page = readFileSync(new URL('test/fixtures/pages/article-boilerplate.html', `file://${root}`));
const site = createServer((req, res) => {
  if (req.url !== '/article') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const hostPort = `127.0.0.1:${site.address().port}`;
const url = `http://${hostPort}/article`;
// web-reader refuses loopback unless allowed; no robots.txt lookup for a single read (RESPECT_ROBOTS=crawl default).
const env = { PATH: process.env.PATH ?? '', ALLOW_PRIVATE_HOSTS: hostPort };

const message = (body) => `${JSON.stringify({ jsonrpc: '2.0', ...body })}\n`;
const INITIALIZE = message({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-start', version: '1' } },
});
const LIST = message({ method: 'notifications/initialized' }) + message({ id: 2, method: 'tools/list' });
const CALL = message({ id: 3, method: 'tools/call', params: { name: 'fetch', arguments: { url } } });

/** CPU time (user + system, all threads) a process has used so far, in ms, from /proc (Linux; NaN elsewhere). */
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
 * One spawn: milliseconds from spawn to the answer to `initialize` and to the first `fetch` result, and the CPU time
 * the server had used by each (less sensitive than wall time to other work on a shared machine); then killed.
 */
function timeFirstAnswers(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const since = () => Number(process.hrtime.bigint() - started) / 1e6;
    let initialize;
    let out = '';
    const fail = (error) => {
      child.kill();
      reject(error);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const answer = JSON.parse(out.slice(0, end));
        out = out.slice(end + 1);
        if (answer.id === undefined) continue; // a notification (a log line)
        if (answer.error) return fail(new Error(`answer ${answer.id}: ${JSON.stringify(answer.error)}`));
        if (answer.id === 1) {
          initialize = { ms: since(), cpu: cpuMs(child.pid) };
          child.stdin.write(LIST);
        } else if (answer.id === 2) {
          child.stdin.write(CALL);
        } else if (answer.id === 3) {
          const first = { ms: since(), cpu: cpuMs(child.pid) };
          child.kill();
          const text = answer.result?.content?.[0]?.text ?? '';
          // A failed read (a time-out on a busy machine) is counted apart, not timed.
          const failed = answer.result?.isError || !text.includes('Growing Tomatoes') ? text.slice(0, 120) : undefined;
          resolve({ initialize, first, failed });
        }
      }
    });
    child.on('error', reject);
    // A client writes initialize as soon as the process exists; the server reads it when it is ready.
    child.stdin.write(INITIALIZE);
  });
}

// One warm-up of each (the file system cache), not counted.
for (const server of servers) await timeFirstAnswers(server.args);
const load = [loadavg()[0]];
const times = servers.map(() => []);
for (let run = 0; run < runs; run += 1) {
  for (const [index, server] of servers.entries()) times[index].push(await timeFirstAnswers(server.args));
}
load.push(loadavg()[0]);
site.close();

const failures = times.map((list) => list.filter((t) => t.failed));
for (const [index, list] of times.entries()) times[index] = list.filter((t) => !t.failed);
const medians = times.map((list) => ({
  initialize: { ms: median(list.map((t) => t.initialize.ms)), cpu: median(list.map((t) => t.initialize.cpu)) },
  first: { ms: median(list.map((t) => t.first.ms)), cpu: median(list.map((t) => t.first.cpu)) },
  min: Math.min(...list.map((t) => t.first.ms)),
  max: Math.max(...list.map((t) => t.first.ms)),
}));
print(
  `node bench/start.mjs --runs ${runs} ${servers[1].args[0]}${values.base ? ` --base ${values.base}` : ''} · ` +
    `Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model} · load average ${load.map((n) => n.toFixed(1)).join(' → ')}`,
);
print();
print(
  '| server | initialize: median ms (CPU ms) | first fetch result: median ms (CPU ms) | min | max | ' +
    'ratio to bare, initialize wall / CPU | ratio to bare, first fetch wall / CPU |',
);
print('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
// Runs whose first fetch failed are left out of the medians and named below the table.
const [bare] = medians;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
for (const [index, server] of servers.entries()) {
  const m = medians[index];
  const cells = [
    `${m.initialize.ms.toFixed(0)} (${m.initialize.cpu.toFixed(0)})`,
    `${m.first.ms.toFixed(0)} (${m.first.cpu.toFixed(0)})`,
    m.min.toFixed(0),
    m.max.toFixed(0),
    `${ratio(m.initialize.ms, bare.initialize.ms)} / ${ratio(m.initialize.cpu, bare.initialize.cpu)}`,
    `${ratio(m.first.ms, bare.first.ms)} / ${ratio(m.first.cpu, bare.first.cpu)}`,
  ];
  print(`| ${server.name} | ${cells.join(' | ')} |`);
}
print();
for (const [index, list] of failures.entries()) {
  if (list.length > 0)
    print(`${servers[index].name}: ${list.length} of ${runs} first fetches failed: ${list[0].failed}`);
}
print('Asked: initialize ≤ 1.3× the bare server (issue 15), first fetch result ≤ 1.5× (issue 23 item 7).');

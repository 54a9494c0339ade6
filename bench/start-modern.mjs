// Start-up in the 2026-07-28 era (npm run bench:start, after bench/start.mjs): how long a client pinned to
// 2026-07-28 waits from spawning the server to the answer to its `server/discover` probe (cold start), and to the
// answer to its first tools/call sent right after it (first call), for web-reader's stdio server and, in the same
// run, a bare server on the SDK's v2 line with one tool (bench/bare-server-v2.mjs). Runs are interleaved, bare then
// ours; medians and ratios are printed (issue 25: start-up ≤ 1.3× a bare v2 server).
//
// web-reader's first call is a `fetch` of http://127.0.0.1:9/, which its address guard refuses before any network:
// the call path loads (arguments, engine, fetch guard) without waiting on a site. The bare server's is its echo.
//
//   node bench/start-modern.mjs [--runs 15] [--cli /tmp/old/dist/cli/main.js]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median.mjs';

const print = (line = '') => process.stdout.write(`${line}\n`);
const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, cli: { type: 'string' } } });
const runs = Number(values.runs);
const root = fileURLToPath(new URL('../', import.meta.url));
const ours = {
  args: [values.cli ?? `${root}dist/cli/main.js`],
  call: { name: 'fetch', arguments: { url: 'http://127.0.0.1:9/' } },
};
const bare = { args: [`${root}bench/bare-server-v2.mjs`], call: { name: 'echo', arguments: { text: 'hi' } } };

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench-start-modern', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const line = (message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Milliseconds from spawn to the discover answer and to the first call's answer, and CPU ms by the latter. */
function timeRun({ args, call }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const times = {};
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      let end;
      while ((end = out.indexOf('\n')) >= 0) {
        const answer = JSON.parse(out.slice(0, end));
        out = out.slice(end + 1);
        if (answer.id === 1) times.discover = elapsed();
        if (answer.id === 2) {
          times.call = elapsed();
          times.cpu = cpuMs(child.pid);
          child.kill();
          if (!answer.result || times.discover === undefined)
            reject(new Error(`unexpected: ${JSON.stringify(answer)}`));
          else resolve(times);
        }
      }
    });
    child.on('error', reject);
    child.stdin.write(line({ id: 1, method: 'server/discover', params: { _meta: envelope } }));
    child.stdin.write(line({ id: 2, method: 'tools/call', params: { ...call, _meta: envelope } }));
  });
}

await timeRun(bare); // warm-ups (the file system cache), not counted
await timeRun(ours);
const results = { bare: [], ours: [] };
for (let run = 0; run < runs; run += 1) {
  results.bare.push(await timeRun(bare));
  results.ours.push(await timeRun(ours));
}
const of = (list, key) => median(list.map((one) => one[key]));
print(
  `node bench/start-modern.mjs --runs ${runs} ${ours.args[0]} · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model}`,
);
print();
print(
  '| server (2026-07-28 over stdio) | median ms to discover answer | median ms to first call answer | median CPU ms by then |',
);
print('| --- | ---: | ---: | ---: |');
for (const [name, list] of [
  ['bare v2 SDK server (one tool)', results.bare],
  ['web-reader (stdio, default tools)', results.ours],
]) {
  print(
    `| ${name} | ${of(list, 'discover').toFixed(0)} | ${of(list, 'call').toFixed(0)} | ${of(list, 'cpu').toFixed(0)} |`,
  );
}
print();
const ratio = (key) => (of(results.ours, key) / of(results.bare, key)).toFixed(2);
print(
  `ratio web-reader / bare v2: ${ratio('discover')}× to discover (issue 25 asks ≤ 1.3×), ${ratio('call')}× to the ` +
    `first call, ${ratio('cpu')}× CPU time`,
);

// HTTP load benchmark (npm run bench:http): 1,000 `fetch` tool calls over the JSON tools API at concurrency 16
// and 64, with autocannon as the external load generator, against the built CLI's `serve --http`. The page is a
// fixture on a loopback server and the cache is on (CACHE_TTL default), so this measures the front door, the
// cache and rendering, not the network. Reports calls/s, p50/p99 latency, the server's RSS, and errors: any
// non-2xx answer, socket error, timeout or `success: false` body counts.
//
//   npm run bench:http                       → a Markdown table on stdout
//   npm run bench:http -- --amount 5000      → more calls per run
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { serveHttp } from './serve-http.mjs';

const { values } = parseArgs({
  options: { amount: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '16,64' } },
});
const amount = Number(values.amount);
const levels = values.concurrency.split(',').map(Number);
const root = fileURLToPath(new URL('../', import.meta.url));
const page = readFileSync(new URL('test/fixtures/pages/article-boilerplate.html', `file://${root}`));

const fixture = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page);
});
await new Promise((resolve) => fixture.listen(0, '127.0.0.1', resolve));
const hostPort = `127.0.0.1:${fixture.address().port}`;
const pageUrl = `http://${hostPort}/article`;

const { child: server, baseUrl, stop } = await serveHttp(`${root}dist/cli/main.js`, { ALLOW_PRIVATE_HOSTS: hostPort });

/** Resident set size of the server process in MB, current and peak (Linux /proc). */
function serverMemory() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const body = JSON.stringify({ url: pageUrl });
const callUrl = `${baseUrl}/tools/fetch`;
const warm = await (await globalThis.fetch(callUrl, { method: 'POST', body })).json();
if (!warm.success) throw new Error(`warm-up call failed: ${warm.error}`);
const idle = serverMemory();

const rows = [];
for (const connections of levels) {
  let failedBodies = 0;
  const result = await autocannon({
    url: callUrl,
    connections,
    amount,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        onResponse: (status, responseBody) => {
          if (status !== 200 || !responseBody.includes('"success":true')) failedBodies += 1;
        },
      },
    ],
  });
  const memory = serverMemory();
  rows.push({
    connections,
    calls: result.requests.total,
    perSecond: Math.round((result.requests.total / result.duration) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx + failedBodies,
    rssMb: memory.rssMb,
    peakMb: memory.peakMb,
  });
}

// The front door alone, for scale: the same server answering GET /healthz (no tool, no engine).
const health = await autocannon({ url: `${baseUrl}/healthz`, connections: 64, amount });

await stop();
fixture.close();

const mb = (value) => value.toFixed(0);
const lines = [
  `Node ${process.version}, ${amount} calls of \`fetch\` per run on a cached ${Math.round(page.byteLength / 1024)} KB fixture page;`,
  `server RSS ${mb(idle.rssMb)} MB after warm-up.`,
  '',
  '| concurrency | calls | calls/s | p50 ms | p99 ms | errors | server RSS MB | peak RSS MB |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.connections} | ${row.calls} | ${row.perSecond} | ${row.p50} | ${row.p99} | ${row.errors} | ${mb(row.rssMb)} | ${mb(row.peakMb)} |`,
  ),
];
lines.push(
  '',
  `For scale, GET /healthz on the same server (HTTP, routing and logging, no tool) at concurrency 64: ` +
    `${Math.round(health.requests.total / health.duration)} requests/s, p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms.`,
);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(rows.every((row) => row.errors === 0 && row.calls === amount) ? 0 : 1);

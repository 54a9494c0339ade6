// Replicas benchmark (npm run bench:replicas, issue 16): the built CLI's `serve --http` as 1 and as 3 replicas on
// one real redis-server (Debian's, on a free loopback port), and the same without REDIS_URL, against a loopback
// fixture site. The load is `fetch` calls over the JSON tools API, spread round-robin over the replicas by this
// script (keep-alive connections to each, as a plain balancer would hold), at a fixed concurrency.
//
// Workload: each run reads `--pages` distinct pages, each `--amount / --pages` times, in shuffled order, so a run
// has first reads (cache miss: the fetch is claimed on Redis, fetched, stored) and re-reads (a hit in the replica's
// memory, or in Redis when another replica fetched it). Each run uses fresh URLs, so no run finds another's pages.
// PER_DOMAIN_INTERVAL=0: every page is on one host, and the default 2 s spacing would measure only the spacing.
//
// Reported per configuration, as medians of `--rounds` runs taken interleaved (one run of each configuration per
// round, so a noisy moment on the shared machine hits all alike): calls/s, p50 and p99 latency, the origin's
// requests per run, and on Redis the commands per call (INFO commandstats before and after the run, the INFO
// calls themselves left out). Redis's latency per call is the 1-replica run with REDIS_URL minus the one without.
//
//   npm run bench:replicas                                 → a Markdown report on stdout
//   npm run bench:replicas -- --rounds 7 --amount 3000     → more runs, more calls per run
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import os from 'node:os';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { serveHttp } from './serve-http.mjs';
import { median } from './median.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    amount: { type: 'string', default: '2000' },
    pages: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '32' },
  },
});
const rounds = Number(values.rounds);
const amount = Number(values.amount);
const pageCount = Number(values.pages);
const concurrency = Number(values.concurrency);
const root = fileURLToPath(new URL('../', import.meta.url));
const cliPath = `${root}dist/cli/main.js`;
const page = readFileSync(new URL('test/fixtures/pages/article-boilerplate.html', `file://${root}`));

// --- the origin: every /r/… path is the same article; requests counted by run prefix ---
const originHits = new Map();
const fixture = createServer((req, res) => {
  const prefix = /^\/(r\d+-\w+)\//.exec(req.url ?? '')?.[1];
  if (!prefix) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); // /llms.txt, /robots.txt
    return;
  }
  originHits.set(prefix, (originHits.get(prefix) ?? 0) + 1);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page);
});
await new Promise((resolve) => fixture.listen(0, '127.0.0.1', resolve));
const hostPort = `127.0.0.1:${fixture.address().port}`;

// --- redis-server on a free port ---
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
const redisPath = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
if (!redisPath) {
  process.stderr.write('bench:replicas needs redis-server on PATH (Debian: apt-get install redis-server).\n');
  process.exit(2);
}
const redisVersion = spawnSync(redisPath, ['--version'], { encoding: 'utf8' }).stdout.trim();
const redisPort = await freePort();
const redisChild = spawn(
  redisPath,
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
await new Promise((resolve, reject) => {
  let output = '';
  const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
  redisChild.stdout.on('data', (chunk) => {
    output += chunk;
    if (output.includes('Ready to accept connections')) {
      clearTimeout(timer);
      redisChild.stdout.resume();
      resolve();
    }
  });
});
// Child processes go with this script, however it ends (a failed call throws): none is left behind on the machine.
const children = [redisChild];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
const redisUrl = `redis://127.0.0.1:${redisPort}`;
const inspect = new Redis(redisUrl);

/** Commands Redis has run so far by name, INFO itself left out (cmdstat_<name>:calls=N,…). */
async function redisCommands() {
  const info = await inspect.info('commandstats');
  const calls = new Map();
  for (const match of info.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)) {
    if (match[1] !== 'info') calls.set(match[1], Number(match[2]));
  }
  return calls;
}

/** Commands run per name since `before`, added into `into`; returns their total. */
function addCommandsSince(before, after, into) {
  let total = 0;
  for (const [name, count] of after) {
    const delta = count - (before.get(name) ?? 0);
    if (delta > 0) into.set(name, (into.get(name) ?? 0) + delta);
    total += delta;
  }
  return total;
}

// An idle connection is closed by this side after this long, well before the replica closes it (it announces
// Keep-Alive: timeout=65; Node's default was 5, closed after 6 s). Node's Agent honours a server's Keep-Alive hint
// only when it has a timeout of its own: without one, as before, a run that began about 6 s after the last call on
// a connection wrote its first request on a socket the replica was closing, and the call ended in ECONNRESET (issue
// 23 item 9: 2 of 24,000 calls through three replicas).
const FREE_SOCKET_TIMEOUT_MS = 4_000;
let resetsRetried = 0;
let callsMade = 0; // warm-up runs included, as the resets are

// --- the configurations: each keeps its replicas for the whole benchmark ---
const baseEnv = { ALLOW_PRIVATE_HOSTS: hostPort, PER_DOMAIN_INTERVAL: '0' };
const configurations = [
  { name: '1 replica, no Redis', replicas: 1, redis: false },
  { name: '1 replica, Redis', replicas: 1, redis: true },
  { name: '3 replicas, Redis', replicas: 3, redis: true },
  { name: '3 replicas, no Redis', replicas: 3, redis: false },
];
for (const configuration of configurations) {
  const env = configuration.redis ? { ...baseEnv, REDIS_URL: redisUrl } : baseEnv;
  configuration.servers = [];
  for (let i = 0; i < configuration.replicas; i++) {
    const server = await serveHttp(cliPath, env);
    children.push(server.child);
    configuration.servers.push(server);
  }
  configuration.agents = configuration.servers.map(
    () => new Agent({ keepAlive: true, maxSockets: concurrency, timeout: FREE_SOCKET_TIMEOUT_MS }),
  );
  configuration.runs = [];
  configuration.commandsByName = new Map();
  configuration.calls = 0;
}

/**
 * One POST /tools/fetch; resolves with its latency in ms, rejects on anything but a 200 with success:true. A call
 * whose request went out on a reused connection that the replica reset is sent again once, as a balancer does for a
 * request the server cannot have read (`fetch` reads; it changes nothing), and counted.
 */
function callFetch(baseUrl, agent, url, retried = false) {
  const body = JSON.stringify({ url });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/tools/fetch`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode === 200 && text.includes('"success":true')) resolve(performance.now() - started);
          else reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
        });
      },
    );
    req.on('error', (error) => {
      if (!retried && req.reusedSocket && error.code === 'ECONNRESET') {
        resetsRetried += 1;
        callFetch(baseUrl, agent, url, true).then(() => resolve(performance.now() - started), reject);
        return;
      }
      reject(error);
    });
    req.end(body);
  });
}

/** The run's URLs: each page `amount / pages` times, shuffled with a fixed seed (the same order for every run). */
function workload(prefix) {
  const urls = [];
  for (let i = 0; i < amount; i++) urls.push(`http://${hostPort}/${prefix}/page/${i % pageCount}`);
  let state = 42;
  for (let i = urls.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [urls[i], urls[j]] = [urls[j], urls[i]];
  }
  return urls;
}

let firstError;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function run(configuration, prefix) {
  const urls = workload(prefix);
  const commandsBefore = configuration.redis ? await redisCommands() : undefined;
  const latencies = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  // `concurrency` callers, each taking the next URL and the next replica in turn: round robin per call.
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) {
        const index = next++;
        const replica = index % configuration.servers.length;
        try {
          latencies.push(
            await callFetch(configuration.servers[replica].baseUrl, configuration.agents[replica], urls[index]),
          );
        } catch (error) {
          errors += 1;
          firstError ??= `${configuration.name}: ${error.message}`;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const commands = commandsBefore
    ? addCommandsSince(commandsBefore, await redisCommands(), configuration.commandsByName)
    : 0;
  configuration.calls += urls.length;
  callsMade += urls.length;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: urls.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mean: latencies.reduce((sum, value) => sum + value, 0) / latencies.length,
    origin: originHits.get(prefix) ?? 0,
    commandsPerCall: commands / urls.length,
    errors,
  };
}

// A warm-up run each (worker pools, JIT, connections), not counted; then the interleaved rounds.
for (const [index, configuration] of configurations.entries()) await run(configuration, `r0-warm${index}`);
for (const configuration of configurations) {
  configuration.commandsByName.clear();
  configuration.calls = 0;
}
for (let round = 1; round <= rounds; round++) {
  for (const [index, configuration] of configurations.entries()) {
    configuration.runs.push(await run(configuration, `r${round}-c${index}`));
  }
}

for (const configuration of configurations) {
  await Promise.all(configuration.servers.map((server) => server.stop()));
  for (const agent of configuration.agents) agent.destroy();
}
inspect.disconnect();
redisChild.kill('SIGTERM');
fixture.close();

// --- the report ---
const summary = configurations.map((configuration) => {
  const of = (field) => median(configuration.runs.map((result) => result[field]));
  return {
    name: configuration.name,
    redis: configuration.redis,
    perSecond: of('perSecond'),
    p50: of('p50'),
    p99: of('p99'),
    mean: of('mean'),
    origin: of('origin'),
    commandsPerCall: of('commandsPerCall'),
    spread: configuration.runs.map((result) => Math.round(result.perSecond)).join(', '),
  };
});
const one = (value) => value.toFixed(1);
const cpus = os.cpus();
const oneLocal = summary.find((row) => row.name === '1 replica, no Redis');
const oneRedis = summary.find((row) => row.name === '1 replica, Redis');
const lines = [
  `Command: npm run bench:replicas -- --rounds ${rounds} --amount ${amount} --pages ${pageCount} --concurrency ${concurrency}`,
  `Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
    `${os.type()} ${os.release()}; Node ${process.version}; ${redisVersion.split(' ').slice(0, 3).join(' ')}.`,
  `Inputs: ${amount} \`fetch\` calls per run over the JSON API, ${pageCount} distinct pages (${Math.round(page.byteLength / 1024)} KB ` +
    `article fixture on loopback) each read ${amount / pageCount} times in shuffled order, ${concurrency} concurrent ` +
    `callers, round-robin over the replicas; PER_DOMAIN_INTERVAL=0; medians of ${rounds} interleaved runs.`,
  '',
  '| configuration | calls/s | p50 ms | p99 ms | origin requests per run | Redis commands per call | calls/s of each run |',
  '|---|---:|---:|---:|---:|---:|---|',
  ...summary.map(
    (row) =>
      `| ${row.name} | ${Math.round(row.perSecond)} | ${one(row.p50)} | ${one(row.p99)} | ${Math.round(row.origin)} | ` +
      `${row.redis ? row.commandsPerCall.toFixed(2) : '–'} | ${row.spread} |`,
  ),
  '',
  `Redis's latency per call, 1 replica: mean ${one(oneRedis.mean)} ms with REDIS_URL vs ${one(oneLocal.mean)} ms without ` +
    `(${oneRedis.mean - oneLocal.mean >= 0 ? '+' : ''}${one(oneRedis.mean - oneLocal.mean)} ms), ` +
    `p50 ${one(oneRedis.p50)} vs ${one(oneLocal.p50)} ms.`,
  '',
  'Redis commands per call, by command (all rounds):',
  '',
  ...configurations
    .filter((configuration) => configuration.redis)
    .map((configuration) => {
      const names = [...configuration.commandsByName].sort((a, b) => b[1] - a[1]);
      const parts = names.map(([name, count]) => `${name} ${(count / configuration.calls).toFixed(2)}`);
      return `- ${configuration.name}: ${parts.join(', ')}`;
    }),
];
const errorTotal = configurations.reduce((sum, c) => sum + c.runs.reduce((runSum, r) => runSum + r.errors, 0), 0);
lines.push(
  '',
  `Calls, all runs (warm-up included): ${callsMade}; failed: ${errorTotal}${firstError ? ` (first: ${firstError})` : ''}; ` +
    `sent again after a reset of a reused connection: ${resetsRetried}.`,
);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(errorTotal === 0 ? 0 : 1);

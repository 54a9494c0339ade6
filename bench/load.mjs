// Load and patience benchmark (npm run bench:load), issue "time and fairness": what a user meets with many callers
// at the seeds' default settings (MAX_CONCURRENT 3, PER_DOMAIN_INTERVAL 2000, FETCH_TIMEOUT 10000), on loopback.
// One run prints five measurements against the built CLI's `serve --http` (or `--cli PATH`, e.g. an older build):
//
//   1. MCP: 1,000 concurrent `fetch` calls over 100 Streamable HTTP sessions (the SDK's real Client).
//   2. JSON API: 1,000 concurrent `fetch` calls of distinct pages spread over 20 origins.
//      Each answer is ok, busy (HTTP 503 with Retry-After, or the tool's QUEUE_TIMEOUT with its retry time), or
//      other: a dropped connection, a bare "fetch failed", a network time-out — "other" must be 0.
//   3. /healthz latency (p50/p99/max, polled every 10 ms) while a page holding one 100,000-character word and a
//      9 MB page are read.
//   4. A call to a healthy origin while three stalled origins (accept, never answer) hold calls in flight.
//   5. A default `crawl` (no max_seconds) of a 200-page site through the SDK client with its default 60 s
//      request timeout, at the default PER_DOMAIN_INTERVAL: pages returned, and when.
//
//   npm run bench:load                         → a Markdown report on stdout
//   npm run bench:load -- --cli /tmp/old/dist/cli/main.js   → the same against another build
//
// The run is bounded: every client call has a time-out, every server is closed at the end.
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, fetch } from 'undici';
import { serveHttp } from './serve-http.mjs';

/* global AbortSignal */

const { values } = parseArgs({
  options: {
    cli: { type: 'string' },
    'mcp-calls': { type: 'string', default: '1000' },
    sessions: { type: 'string', default: '100' },
    'api-calls': { type: 'string', default: '1000' },
    'skip-crawl': { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('../', import.meta.url));
const cliPath = values.cli ?? `${root}dist/cli/main.js`;
const MCP_CALLS = Number(values['mcp-calls']);
const SESSIONS = Number(values.sessions);
const API_CALLS = Number(values['api-calls']);
const API_ORIGINS = 20;
const CRAWL_PAGES = 200;

// ---------------------------------------------------------------------------------------------------------------
// Origins on loopback: each server is its own host:port, so its own politeness bucket.

function pageHtml(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><article><h1>${title}</h1>${body}</article></main></body></html>`;
}

const PROSE =
  '<p>An ordinary paragraph of prose that a reader would want, with enough words to look like an article body ' +
  'and not like navigation or boilerplate, so that extraction keeps it.</p>';

function startOrigin(handler) {
  const sockets = new Set();
  const server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const hostPort = `127.0.0.1:${server.address().port}`;
      resolve({
        hostPort,
        url: (path) => `http://${hostPort}${path}`,
        close: () => {
          for (const socket of sockets) socket.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}

const sendHtml = (res, html) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
};

const LONG_WORD = 'a'.repeat(100_000);
const BIG_PAGE = pageHtml('Big page', PROSE.repeat(Math.ceil((9 * 1024 * 1024) / PROSE.length)));

const main = await startOrigin((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/long-word') return sendHtml(res, pageHtml('Long word', `<p>${LONG_WORD}</p>${PROSE}`));
  if (path === '/big') return sendHtml(res, BIG_PAGE);
  const site = /^\/site\/(\d+)$/.exec(path);
  if (site) {
    const index = Number(site[1]);
    const links = [2 * index + 1, 2 * index + 2]
      .filter((child) => child < CRAWL_PAGES)
      .map((child) => `<a href="/site/${child}">Page ${child}</a>`)
      .join(' ');
    return sendHtml(res, pageHtml(`Site page ${index}`, `<nav>${links}</nav>${PROSE.repeat(3)}`));
  }
  if (path === '/robots.txt' || path === '/sitemap.xml') {
    res.writeHead(404).end();
    return;
  }
  return sendHtml(res, pageHtml(`Page ${path}`, PROSE.repeat(4)));
});
const apiOrigins = await Promise.all(
  Array.from({ length: API_ORIGINS }, () =>
    startOrigin((req, res) => sendHtml(res, pageHtml(`Page ${req.url}`, PROSE.repeat(4)))),
  ),
);
// Stalled origins: they accept the connection and never answer.
const stalled = await Promise.all(Array.from({ length: 3 }, () => startOrigin(() => undefined)));
const healthy = await startOrigin((req, res) => sendHtml(res, pageHtml('Healthy', PROSE.repeat(4))));

const allOrigins = [main, ...apiOrigins, ...stalled, healthy];

// ---------------------------------------------------------------------------------------------------------------
// The server under test, at the seeds' defaults: only ALLOW_PRIVATE_HOSTS is set (to reach the loopback origins).

const { baseUrl, stop } = await serveHttp(cliPath, {
  ALLOW_PRIVATE_HOSTS: allOrigins.map((o) => o.hostPort).join(','),
});

// The bench's own HTTP client: no connection limit of its own, so the server's admission control is what is measured.
const dispatcher = new Agent({ connections: null, pipelining: 0, headersTimeout: 120_000, bodyTimeout: 120_000 });
// Every 503 the server sends is counted, with or without its Retry-After header.
const refusals = { withRetryAfter: 0, without: 0 };
const benchFetch = async (url, init = {}) => {
  const response = await fetch(url, { ...init, dispatcher });
  if (response.status === 503) refusals[response.headers.get('retry-after') ? 'withRetryAfter' : 'without'] += 1;
  return response;
};

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const report = [];
const started = Date.now();
report.push(
  `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); server: ${cliPath} at the ` +
    "seeds' defaults (MAX_CONCURRENT 3, PER_DOMAIN_INTERVAL 2000, FETCH_TIMEOUT 10000); origins on 127.0.0.1.",
  '',
);

// ---------------------------------------------------------------------------------------------------------------
// 1. MCP: many calls over many sessions.

/** An error message with its URL and numbers taken out, so equal failures group into one line. */
function generic(detail) {
  return detail.replace(/https?:\/\/\S+/g, 'URL').replace(/\d+/g, 'N');
}

function classifyToolText(text) {
  if (/QUEUE_TIMEOUT|^busy: /m.test(text)) return 'busy';
  return 'other';
}

async function mcpLoad() {
  const counts = { ok: 0, busy: 0, other: 0 };
  const others = new Map();
  const note = (kind, detail) => {
    counts[kind] += 1;
    if (kind === 'other') others.set(generic(detail), (others.get(generic(detail)) ?? 0) + 1);
  };
  const perSession = Math.ceil(MCP_CALLS / SESSIONS);
  const t0 = Date.now();
  const clients = [];
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, s) => {
      const client = new Client({ name: 'bench-load', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { fetch: benchFetch });
      try {
        await client.connect(transport);
        clients.push({ client, transport });
      } catch (error) {
        const busy = error?.code === 503;
        for (let k = 0; k < perSession; k++)
          note(busy ? 'busy' : 'other', `connect: ${String(error?.message ?? error).slice(0, 80)}`);
        return;
      }
      await Promise.all(
        Array.from({ length: perSession }, async (_, k) => {
          const url = main.url(`/page/${(s * perSession + k) % 10}`);
          try {
            const result = await client.callTool({ name: 'fetch', arguments: { url } }, undefined, {
              timeout: 120_000,
            });
            const text = result.content?.[0]?.text ?? '';
            if (!result.isError) note('ok');
            else {
              const kind = classifyToolText(text);
              note(kind, text.slice(0, 80));
            }
          } catch (error) {
            // The SDK client reports an HTTP refusal as a StreamableHTTPError whose code is the status.
            const message = String(error?.message ?? error);
            note(error?.code === 503 ? 'busy' : 'other', message.slice(0, 120));
          }
        }),
      );
    }),
  );
  const seconds = (Date.now() - t0) / 1000;
  // End each session as a well-behaved client does: DELETE, then close.
  let deleteFailures = 0;
  await Promise.all(
    clients.map(async ({ client, transport }) => {
      await transport.terminateSession().catch(() => (deleteFailures += 1));
      await client.close().catch(() => undefined);
    }),
  );
  return { counts, others, seconds, deleteFailures };
}

{
  const before = { ...refusals };
  const { counts, others, seconds, deleteFailures } = await mcpLoad();
  report.push(
    `### 1. MCP: ${MCP_CALLS} concurrent \`fetch\` calls over ${SESSIONS} Streamable HTTP sessions (10 pages on one origin)`,
    '',
    `ok ${counts.ok} · busy (503 Retry-After / QUEUE_TIMEOUT) ${counts.busy} · **other ${counts.other}** · ${seconds.toFixed(1)} s; session DELETEs failed: ${deleteFailures}; ` +
      `503s with Retry-After ${refusals.withRetryAfter - before.withRetryAfter}, without ${refusals.without - before.without}`,
  );
  for (const [detail, n] of others) report.push(`- other ×${n}: ${detail}`);
  report.push('');
}

// ---------------------------------------------------------------------------------------------------------------
// 2. JSON API: many distinct pages over many origins.

{
  const counts = { ok: 0, busy: 0, other: 0 };
  const others = new Map();
  const latencies = [];
  const before = { ...refusals };
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: API_CALLS }, async (_, i) => {
      const origin = apiOrigins[i % API_ORIGINS];
      const url = origin.url(`/doc/${i}`);
      const t = Date.now();
      try {
        const response = await benchFetch(`${baseUrl}/tools/fetch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url }),
          signal: AbortSignal.timeout(180_000),
        });
        const body = await response.text();
        latencies.push(Date.now() - t);
        if (response.status === 503 && response.headers.get('retry-after')) counts.busy += 1;
        else if (response.status === 200 && body.includes('"success":true')) counts.ok += 1;
        else if (response.status === 200 && /QUEUE_TIMEOUT/.test(body)) counts.busy += 1;
        else {
          counts.other += 1;
          const detail = generic(`HTTP ${response.status}: ${body.slice(0, 160)}`);
          others.set(detail, (others.get(detail) ?? 0) + 1);
        }
      } catch (error) {
        counts.other += 1;
        const detail = String(error?.cause?.code ?? error?.message ?? error).slice(0, 80);
        others.set(detail, (others.get(detail) ?? 0) + 1);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  report.push(
    `### 2. JSON API: ${API_CALLS} concurrent \`fetch\` calls, distinct pages over ${API_ORIGINS} origins`,
    '',
    `ok ${counts.ok} · busy (503 Retry-After / QUEUE_TIMEOUT) ${counts.busy} · **other ${counts.other}** · ` +
      `${((Date.now() - t0) / 1000).toFixed(1)} s; answer latency p50 ${percentile(latencies, 50)} ms, ` +
      `p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms; ` +
      `503s with Retry-After ${refusals.withRetryAfter - before.withRetryAfter}, without ${refusals.without - before.without}`,
  );
  for (const [detail, n] of others) report.push(`- other ×${n}: ${detail}`);
  report.push('');
}

// ---------------------------------------------------------------------------------------------------------------
// 3. /healthz while pathological pages are read.

async function pollHealth(whileRunning) {
  const latencies = [];
  let failures = 0;
  let running = true;
  const poller = (async () => {
    while (running) {
      const t = performance.now();
      try {
        const response = await benchFetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
        await response.text();
        latencies.push(performance.now() - t);
      } catch {
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const result = await whileRunning();
  running = false;
  await poller;
  latencies.sort((a, b) => a - b);
  return { result, latencies, failures };
}

async function callApi(tool, args, timeoutMs = 120_000) {
  const t = performance.now();
  const response = await benchFetch(`${baseUrl}/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await response.json();
  return { ms: performance.now() - t, success: body.success, status: body.result?.status, error: body.error };
}

{
  const { result, latencies, failures } = await pollHealth(async () => {
    await new Promise((resolve) => setTimeout(resolve, 200)); // a few polls before, for an idle reference
    return Promise.all([
      callApi('fetch', { url: main.url('/long-word') }),
      callApi('links', { url: main.url('/long-word') }),
      callApi('fetch', { url: main.url('/big') }),
    ]);
  });
  const fmt = (v) => v.toFixed(1);
  report.push(
    '### 3. `/healthz` while a 100,000-character word (`fetch` and `links`) and a 9 MB page are read',
    '',
    `${latencies.length} polls: p50 ${fmt(percentile(latencies, 50))} ms, **p99 ${fmt(percentile(latencies, 99))} ms**, ` +
      `max ${fmt(latencies.at(-1))} ms, failed ${failures}. Calls: ` +
      result
        .map(
          (r, i) =>
            `${['fetch long word', 'links long word', 'fetch 9 MB'][i]} ${(r.ms / 1000).toFixed(2)} s (${r.success ? r.status : `error: ${String(r.error).slice(0, 60)}`})`,
        )
        .join('; '),
    '',
  );
}

// ---------------------------------------------------------------------------------------------------------------
// 4. A healthy origin while three origins stall.

{
  const stalledCalls = stalled.flatMap((origin) =>
    [0, 1].map((k) =>
      callApi('fetch', { url: origin.url(`/stall/${k}`) }, 60_000).catch((e) => ({ error: String(e) })),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 300)); // let them take their slots
  const healthyCalls = await Promise.all(
    [0, 1, 2].map((k) => callApi('fetch', { url: healthy.url(`/ok/${k}`) }, 60_000)),
  );
  const stalledResults = await Promise.all(stalledCalls);
  report.push(
    '### 4. Calls to a healthy origin while three stalled origins hold six calls',
    '',
    'healthy: ' +
      healthyCalls
        .map((r) => `${(r.ms / 1000).toFixed(2)} s ${r.success ? 'ok' : `error: ${String(r.error).slice(0, 60)}`}`)
        .join('; ') +
      '. stalled: ' +
      stalledResults.map((r) => (r.ms ? `${(r.ms / 1000).toFixed(1)} s` : 'no answer')).join(', ') +
      ` (${stalledResults.filter((r) => r.success === false).length} reported as errors)`,
    '',
  );
}

// ---------------------------------------------------------------------------------------------------------------
// 5. A default crawl through the SDK client's default request timeout.

if (!values['skip-crawl']) {
  const client = new Client({ name: 'bench-crawl', version: '1.0.0' });
  const t0 = Date.now();
  let line;
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { fetch: benchFetch }));
    // No timeout option: the SDK's DEFAULT_REQUEST_TIMEOUT_MSEC (60 s), what Claude Code and most clients use.
    const result = await client.callTool({
      name: 'crawl',
      arguments: { url: main.url('/site/0'), max_pages: CRAWL_PAGES },
    });
    const structured = result.structuredContent ?? {};
    line =
      `client got a result after ${((Date.now() - t0) / 1000).toFixed(1)} s: **${structured.pages_read ?? '?'} pages**, ` +
      `stop_reason ${structured.stop_reason ?? '?'}, continue_from ${structured.continue_from ? 'present' : 'absent'}`;
  } catch (error) {
    line = `client got an error after ${((Date.now() - t0) / 1000).toFixed(1)} s, **no pages**: ${String(error?.message ?? error).slice(0, 100)}`;
  }
  await client.close().catch(() => undefined);
  report.push(
    `### 5. A default \`crawl\` of a ${CRAWL_PAGES}-page site through the SDK client's default 60 s timeout`,
    '',
    line,
    '',
  );
}

report.push(`Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s.`);

await stop();
await Promise.all(allOrigins.map((origin) => origin.close()));
await dispatcher.close();
process.stdout.write(`${report.join('\n')}\n`);

// GET /metrics (issue 16, scope 5) through a real HTTP server: calls counted by tool and front door, a failure by
// its code, a page-cache hit, queue waits and upstream times, and the text a Prometheus server parses. The figures
// are this process's (src/metrics.ts): this file starts one server and reads them before and after its own calls.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { useTestHttpServer } from './http-harness.js';

const TOKEN = 'metrics-test-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

const fixtures = useFixtureServer();
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, WEB_READER_TOKEN: TOKEN }));
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
});

async function scrape(): Promise<string> {
  const response = await fetch(`${http.url}/metrics`, { headers: AUTH });
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one series, by its exact name and labels as written (`name{a="x",b="y"}`); 0 when absent. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function callApi(name: string, args: unknown): Promise<{ success: boolean }> {
  const response = await fetch(`${http.url}/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...AUTH },
    body: JSON.stringify(args),
  });
  return (await response.json()) as { success: boolean };
}

describe('GET /metrics', () => {
  it('asks for the token like every route but /healthz', async () => {
    const refused = await fetch(`${http.url}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="web-reader"');
    expect((await fetch(`${http.url}/healthz`)).status).toBe(200);
    const answered = await fetch(`${http.url}/metrics`, { headers: AUTH });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await fetch(`${http.url}/metrics`, { method: 'POST', headers: AUTH })).status).toBe(405);
  });

  it('counts a JSON API call by tool and front door, and a repeated read as a memory cache hit', async () => {
    const url = fixtures.url('/html?metrics=api');
    const before = await scrape();
    expect((await callApi('fetch', { url })).success).toBe(true);
    expect((await callApi('fetch', { url })).success).toBe(true);
    const after = await scrape();
    const delta = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(delta('web_reader_tool_calls_total{tool="fetch",door="api"}')).toBe(2);
    expect(delta('web_reader_tool_calls_total{tool="fetch",door="mcp"}')).toBe(0);
    // The first call misses the page and its origin's /llms.txt (read once for a Markdown twin, then kept by
    // llms-txt-index.ts); the second finds the page.
    expect(fixtures.hits('/llms.txt')).toBe(1);
    expect(delta('web_reader_cache_lookups_total{tier="memory",result="miss"}')).toBe(2);
    expect(delta('web_reader_cache_lookups_total{tier="memory",result="hit"}')).toBe(1);
    // Two requests reached the origin (the page, /llms.txt), each taking time upstream; only the page waited in the
    // queue for a turn: the /llms.txt lookup nobody asked for takes an idle turn, never a caller's (issue 23).
    expect(fixtures.hits('/html?metrics=api')).toBe(1);
    expect(delta('web_reader_queue_wait_seconds_count')).toBe(1);
    expect(delta('web_reader_upstream_duration_seconds_count')).toBe(2);
    expect(delta('web_reader_upstream_duration_seconds_sum')).toBeGreaterThan(0);
    expect(delta('web_reader_http_responses_total{route="/tools/{name}",status="200"}')).toBe(2);
  });

  it('counts an MCP call under door "mcp", and a failed call under its error code', async () => {
    const client = new Client({ name: 'metrics-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers: AUTH } }),
    );
    clients.push(client);
    const before = await scrape();
    const result = await client.callTool({ name: 'fetch', arguments: { url: fixtures.url('/status/404') } });
    expect(result.isError).toBe(true);
    expect((await callApi('fetch', { url: 'http://10.0.0.1/' })).success).toBe(false);
    const after = await scrape();
    const delta = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(delta('web_reader_tool_calls_total{tool="fetch",door="mcp"}')).toBe(1);
    expect(delta('web_reader_tool_errors_total{tool="fetch",door="mcp",code="HTTP_STATUS"}')).toBe(1);
    expect(delta('web_reader_tool_calls_total{tool="fetch",door="api"}')).toBe(1);
    expect(delta('web_reader_tool_errors_total{tool="fetch",door="api",code="PRIVATE_ADDRESS"}')).toBe(1);
    expect(delta('web_reader_tool_errors_total{tool="fetch",door="api",code="HTTP_STATUS"}')).toBe(0);
  });

  it('counts refused requests by route and status, any unknown path as "other"', async () => {
    const before = await scrape();
    expect((await fetch(`${http.url}/tools`)).status).toBe(401);
    expect((await fetch(`${http.url}/no/such/path/${'x'.repeat(50)}`, { headers: AUTH })).status).toBe(404);
    const after = await scrape();
    const delta = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(delta('web_reader_http_responses_total{route="/tools",status="401"}')).toBe(1);
    expect(delta('web_reader_http_responses_total{route="other",status="404"}')).toBe(1);
    expect(after).not.toContain('xxxxx');
  });

  it('answers in the Prometheus text format, with the process metrics and every family typed', async () => {
    const text = await scrape();
    const lines = text.trimEnd().split('\n');
    // Exact lines of prom-client's exposition format 0.0.4.
    expect(lines).toContain(
      '# HELP web_reader_queue_wait_seconds Time a request waited in the per-host queue (PER_DOMAIN_INTERVAL, MAX_CONCURRENT) before it started.',
    );
    expect(lines).toContain('# TYPE web_reader_queue_wait_seconds histogram');
    expect(lines).toContain('# TYPE web_reader_tool_calls_total counter');
    expect(lines).toContain('# TYPE web_reader_cache_lookups_total counter');
    expect(lines).toContain('# TYPE web_reader_upstream_duration_seconds histogram');
    expect(lines).toContain('# TYPE process_cpu_seconds_total counter');
    expect(lines).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(lines.some((line) => /^web_reader_queue_wait_seconds_bucket\{le="\+Inf"\} \d+$/.test(line))).toBe(true);
    // Every line is a comment (# HELP / # TYPE), blank, or a sample: a name, optional labels, a number (prom-client
    // writes NaN as `Nan`; Prometheus reads it with Go's ParseFloat, which takes NaN and Inf in any case).
    const sample =
      /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/i;
    const malformed = lines.filter(
      (line) => line !== '' && !/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line) && !sample.test(line),
    );
    expect(malformed).toEqual([]);
    // Every sample belongs to a family declared with # TYPE before it.
    const typed = new Set<string>();
    const untyped: string[] = [];
    for (const line of lines) {
      const declared = /^# TYPE (\S+) /.exec(line);
      if (declared) typed.add(declared[1]!);
      else if (line !== '' && !line.startsWith('#')) {
        const name = /^[^{ ]+/.exec(line)![0];
        const family = [name, name.replace(/_(bucket|sum|count)$/, '')].find((candidate) => typed.has(candidate));
        if (!family) untyped.push(line);
      }
    }
    expect(untyped).toEqual([]);
  });
});

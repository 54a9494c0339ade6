// The JSON tools API and the server's edges with plain fetch (and node:http where fetch cannot set the header):
// every route and every error status, the token, Host/Origin checks, CORS, body limit, graceful shutdown.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { useFixtureServer } from '../use-fixture-server.js';
import {
  countdownTool,
  type ApiResult,
  startTestHttpServer,
  useTestHttpServer,
  toolEvents,
  waitForCancelTool,
} from './http-harness.js';

async function call(name: string, body: unknown, init: RequestInit = {}): Promise<{ status: number; json: ApiResult }> {
  const response = await fetch(`${http.url}/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return { status: response.status, json: (await response.json()) as ApiResult };
}

/** node:http, because fetch does not let a caller set Host. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const fixtures = useFixtureServer();
// MCP gets only countdown; the JSON API must still offer every tool (SPEC "Tools").
const http = useTestHttpServer(
  () => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, WEB_READER_MAX_BODY_SIZE: '2000' }),
  [countdownTool],
);

describe('GET /healthz and GET /tools', () => {
  it('answers /healthz with ok', async () => {
    const response = await fetch(`${http.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  it('lists every tool in the BaseTool shape: name, description, JSON-Schema parameters, tags', async () => {
    const response = await fetch(`${http.url}/tools`);
    expect(response.status).toBe(200);
    const tools = (await response.json()) as {
      name: string;
      description: string;
      parameters: { type: string; properties: Record<string, unknown> };
      tags: string[];
    }[];
    // Every tool this configuration can offer: search needs a provider (test/http/many-api.test.ts lists it with one).
    expect(tools.map((tool) => tool.name)).toEqual(
      ALL_TOOLS.filter((tool) => tool.name !== 'search').map((tool) => tool.name),
    );
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['description', 'name', 'parameters', 'tags']);
      expect(tool.description.length).toBeGreaterThan(0);
      // crawl needs url or continue_from (checked when it runs), so neither is required in its schema.
      expect(tool.parameters).toMatchObject({ type: 'object' });
      // read_many reads a list of URLs instead.
      const required = { crawl: undefined, read_many: ['urls'] }[tool.name as 'crawl' | 'read_many'];
      expect((tool.parameters as { required?: string[] }).required).toEqual(
        tool.name in { crawl: 1, read_many: 1 } ? required : ['url'],
      );
      if (tool.name !== 'read_many') expect(tool.parameters.properties.url).toMatchObject({ type: 'string' });
      expect(tool.tags.length).toBeGreaterThan(0);
    }
  });
});

describe('POST /tools/{name}', () => {
  it('runs a tool and returns { success, result, error, execution_time_ms }', async () => {
    const { status, json } = await call('fetch', { url: fixtures.url('/html') });
    expect(status).toBe(200);
    expect(json).toMatchObject({ success: true, error: null, result: { status: expect.any(String) } });
    expect(json.result?.text).toContain(`Contents of ${fixtures.url('/html')}:`);
    expect(json.execution_time_ms).toEqual(expect.any(Number));
  });

  it("keeps a tool's own JSON as the result (web_scraper)", async () => {
    const { json } = await call('web_scraper', { url: fixtures.url('/html') });
    expect(json.success).toBe(true);
    expect(json.result).toMatchObject({ text: expect.any(String), references: expect.any(Array) });
    expect(json.result?.text).not.toMatch(/^Contents of /);
  });

  it("reports the tool's own failure as HTTP 200 with success: false, the message and the status", async () => {
    const { status, json } = await call('fetch', { url: fixtures.url('/status/404') });
    expect(status).toBe(200);
    expect(json.success).toBe(false);
    expect(json.error).toContain('404');
    expect(json.result).toMatchObject({ status: 'error', error: { code: 'HTTP_STATUS' } });
  });

  it('answers an unknown tool with 404 naming the tools', async () => {
    const { status, json } = await call('nope', {});
    expect(status).toBe(404);
    expect(json).toMatchObject({ success: false, result: null });
    expect(json.error).toContain("Unknown tool 'nope'");
    expect(json.error).toContain('fetch');
  });

  it.each([
    ['invalid JSON', '{"url": ', 'Invalid JSON'],
    ['a JSON array', '[1, 2]', 'JSON object'],
    ['a missing url', {}, 'url'],
    ['a wrongly typed argument', { url: 'http://example.test/', max_length: 'ten' }, 'max_length'],
    ['a negative argument', { url: 'http://example.test/', max_length: -5 }, 'max_length'],
    ['an unparseable url', { url: '/just/a/path' }, 'url'],
  ])('answers %s with 400 naming the problem', async (_name, body, named) => {
    const { status, json } = await call('fetch', body);
    expect(status).toBe(400);
    expect(json.success).toBe(false);
    expect(json.error).toContain(named);
  });

  it('answers a body above WEB_READER_MAX_BODY_SIZE with 413', async () => {
    const { status, json } = await call('fetch', { url: `http://example.test/${'a'.repeat(3000)}` });
    expect(status).toBe(413);
    expect(json.error).toContain('2000 bytes');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await fetch(`${http.url}/tools/fetch`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const listing = await fetch(`${http.url}/tools`, { method: 'DELETE' });
    expect(listing.status).toBe(405);
  });

  it('answers an unknown route with a JSON 404, never HTML', async () => {
    const response = await fetch(`${http.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ error: expect.stringContaining('/nowhere') });
  });
});

describe('Host and Origin (DNS-rebinding protection)', () => {
  it('refuses a Host name this server does not answer to with 403', async () => {
    const refused = await rawGet(`${http.url}/tools`, { host: 'evil.example:3000' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('WEB_READER_ALLOWED_HOSTS');
    const loopback = await rawGet(`${http.url}/tools`, { host: `localhost:${http.handle.port}` });
    expect(loopback.status).toBe(200);
  });

  it('refuses a cross-site Origin with 403 and accepts same-origin', async () => {
    const refused = await call('fetch', { url: fixtures.url('/html') }, { headers: { origin: 'http://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toContain('WEB_READER_ALLOWED_ORIGINS');
    const same = await fetch(`${http.url}/tools`, { headers: { origin: http.url } });
    expect(same.status).toBe(200);
  });

  it('answers a CORS preflight from a listed origin, and only from it', async () => {
    const listed = await startTestHttpServer({
      WEB_READER_ALLOWED_ORIGINS: 'https://app.example',
      WEB_READER_TOKEN: 't',
    });
    try {
      const preflight = await fetch(`${listed.url}/mcp`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
      const other = await fetch(`${listed.url}/mcp`, {
        method: 'OPTIONS',
        headers: { origin: 'https://other.example' },
      });
      expect(other.status).toBe(403);
    } finally {
      await listed.close();
    }
  });
});

describe('bearer token', () => {
  it('guards every route but /healthz: 401 without or with a wrong token, 200 with it', async () => {
    const guarded = await startTestHttpServer({ WEB_READER_TOKEN: 's3cret' }, [countdownTool]);
    try {
      expect((await fetch(`${guarded.url}/healthz`)).status).toBe(200);
      const missing = await fetch(`${guarded.url}/tools`);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toContain('Bearer');
      expect((await fetch(`${guarded.url}/tools`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
      const post = await fetch(`${guarded.url}/tools/fetch`, { method: 'POST', body: '{}' });
      expect(post.status).toBe(401);
      expect((await fetch(`${guarded.url}/mcp`, { method: 'POST', body: '{}' })).status).toBe(401);
      expect((await fetch(`${guarded.url}/tools`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight call finish, then refuses new connections', async () => {
    const server = await startTestHttpServer({}, [], { apiTools: [waitForCancelTool] });
    const started = toolEvents.nextStart.promise;
    const inFlight = fetch(`${server.url}/tools/wait_for_cancel`, { method: 'POST', body: '{"max_ms": 300}' });
    await started; // in flight, however slow the machine
    const closed = server.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, result: { cancelled: false } });
    await closed;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('cancels calls still running at the deadline', async () => {
    const server = await startTestHttpServer({}, [], { apiTools: [waitForCancelTool], shutdownGraceMs: 100 });
    const started = toolEvents.nextStart.promise;
    const inFlight = fetch(`${server.url}/tools/wait_for_cancel`, { method: 'POST', body: '{"max_ms": 10000}' }).then(
      async (response) => (await response.json()) as ApiResult,
      () => undefined, // the connection may close before the answer is read; the server side is what counts
    );
    await started;
    const abortedBefore = toolEvents.aborted;
    await server.close();
    // Cancelled at the 100 ms grace, not left to run out its 10 s (which would not count as aborted).
    await expect.poll(() => toolEvents.aborted, { timeout: 5000 }).toBe(abortedBefore + 1);
    const answer = await inFlight;
    if (answer) expect(answer.result).toMatchObject({ cancelled: true });
  });
});

// Both protocol eras from one server (issue 25): a client of the SDK's v2 line pinned to MCP 2026-07-28 (no
// initialize, no session) and a client of the v1 SDK (2025-11-25, initialize and a session), each over stdio (the
// built CLI) and over Streamable HTTP (the HTTP server in-process), each calling every tool against loopback pages,
// receiving the crawl's progress, and cancelling a call: the page it was waiting for sees its request dropped.
import type { ServerResponse } from 'node:http';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_LIST_TTL_MS } from '../../src/server-modern.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { SLOW_MACHINE_RENDER_TIMEOUT, TEST_BROWSER_PATH } from '../browser-available.js';
import { startTestHttpServer, type TestHttpServer } from '../http/http-harness.js';
import { addSearchProviders } from '../search-providers.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { addSitePages, html } from './site-pages.js';
import { CLI_PATH } from './stdio-client.js';

const MODERN = '2026-07-28';

const article = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${`${title} is a page of this small site, with words enough to count as its main content. `.repeat(6)}</p>` +
  `${links}</main></body></html>`;

/** Requests for /held that the server dropped before the page answered (a cancelled call's fetch). */
let droppedHeld = 0;
const heldResponses: ServerResponse[] = [];

const fixtures = useFixtureServer((server) => {
  addSitePages(server);
  server.route(
    '/docs/',
    html(article('Docs', '<a href="/docs/a">A</a> <a href="/docs/b">B</a> <a href="/docs/c">C</a>')),
  );
  for (const page of ['a', 'b', 'c']) server.route(`/docs/${page}`, html(article(`Docs ${page.toUpperCase()}`)));
  server.route('/held', (req, res) => {
    heldResponses.push(res);
    res.on('close', () => {
      if (!res.writableEnded) droppedHeld += 1;
    });
  });
});

// A SearXNG on a loopback server of its own: its one result is a fixture page, read as any page is.
const searxng = useFixtureServer((server) => {
  addSearchProviders(server).results = [{ url: fixtures.url('/docs/c'), title: 'Docs C' }];
});

/** Arguments that make each tool read a fixture page, and what its answer says; every tool of the build is here. */
const CALLS: Record<string, { args: (url: (path: string) => string) => Record<string, unknown>; says: RegExp }> = {
  fetch: { args: (url) => ({ url: url('/site') }), says: /# Welcome/ },
  links: { args: (url) => ({ url: url('/site') }), says: /Products: http/ },
  web: { args: (url) => ({ url: url('/site') }), says: /Welcome/ },
  read_url: { args: (url) => ({ url: url('/docs/a') }), says: /Docs A/ },
  crawl: { args: (url) => ({ url: url('/docs/'), max_pages: 4 }), says: /Docs C/ },
  extract_links: { args: (url) => ({ url: url('/site') }), says: /\[About Us\]/ },
  web_scraper: { args: (url) => ({ url: url('/docs/b') }), says: /Docs B/ },
  map: { args: (url) => ({ url: url('/docs/') }), says: /3 URLs found/ },
  read_many: { args: (url) => ({ urls: [url('/docs/a'), url('/docs/b')] }), says: /## \[2\/2\].*Docs B/s },
  search: { args: () => ({ query: 'docs', read: 1 }), says: /1 result for ..docs.. \(SearXNG\).*Docs C/s },
  // Image content, and over HTTP a resource_link too: both SDKs' clients accept them (needs Chromium, as CI has).
  screenshot: {
    args: (url) => ({ url: url('/site'), width: 320 }),
    says: /"type":"image","data":"iVBOR[^"]+","mimeType":"image\/png"/,
  },
};

interface AnyClient {
  listTools(): Promise<{
    tools: Array<{ name: string; outputSchema?: unknown; icons?: Array<{ src: string }> }>;
    ttlMs?: number;
    cacheScope?: string;
  }>;
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    options: { onprogress?: (progress: unknown) => void; signal?: AbortSignal },
  ): Promise<{ content: unknown; isError?: boolean; structuredContent?: unknown }>;
  close(): Promise<void>;
  readonly era: string | undefined;
}

const env = () => ({
  ALLOW_PRIVATE_HOSTS: fixtures.hostPort,
  PER_DOMAIN_INTERVAL: '0',
  RESPECT_ROBOTS: 'never',
  SEARXNG_URL: searxng.url('/'),
  ...(TEST_BROWSER_PATH && { CHROMIUM_PATH: TEST_BROWSER_PATH }),
  // screenshot renders: the deadline a busy machine needs to start Chromium (test/browser-available.ts).
  RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT,
});
const stdioParams = () => ({
  command: process.execPath,
  args: [CLI_PATH, '--tools', 'all'],
  env: { PATH: process.env.PATH ?? '', ...env() },
  stderr: 'ignore' as const,
});

async function modernClient(transport: 'stdio' | 'http', mcpUrl?: URL): Promise<AnyClient> {
  const client = new ClientV2(
    { name: 'both-eras-test', version: '0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(transport === 'stdio' ? new StdioV2(stdioParams()) : new HttpV2(mcpUrl!));
  return {
    listTools: () => client.listTools(),
    callTool: (params, options) => client.callTool(params, options),
    close: () => client.close(),
    era: client.getNegotiatedProtocolVersion(),
  };
}

async function legacyClient(transport: 'stdio' | 'http', mcpUrl?: URL): Promise<AnyClient> {
  const client = new ClientV1({ name: 'both-eras-test', version: '0' });
  await client.connect(transport === 'stdio' ? new StdioV1(stdioParams()) : new HttpV1(mcpUrl!));
  return {
    listTools: () => client.listTools(),
    callTool: (params, options) => client.callTool(params, undefined, options) as ReturnType<AnyClient['callTool']>,
    close: () => client.close(),
    era: client.getServerVersion() && 'legacy',
  };
}

/** Where a schema names a list of types (`"type": ["string", "null"]`). */
function typeLists(node: unknown, path = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const own = Array.isArray((node as { type?: unknown }).type) ? [path] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => typeLists(value, `${path}/${key}`))];
}

let http: TestHttpServer | undefined;
beforeAll(async () => {
  http = await startTestHttpServer(env());
});
afterAll(() => http?.close());

const CASES = [
  { era: MODERN, transport: 'stdio', open: () => modernClient('stdio') },
  { era: MODERN, transport: 'http', open: () => modernClient('http', http!.mcpUrl) },
  { era: '2025', transport: 'stdio', open: () => legacyClient('stdio') },
  { era: '2025', transport: 'http', open: () => legacyClient('http', http!.mcpUrl) },
] as const;

describe.each(CASES)('a $era client over $transport', ({ era, transport, open }) => {
  let client: AnyClient | undefined;
  beforeAll(async () => {
    client = await open();
  });
  afterAll(() => client?.close());

  it('connects in its era and lists every tool (a 2026-07-28 list with its cache hints)', async () => {
    expect(client!.era).toBe(era === MODERN ? MODERN : 'legacy');
    const list = await client!.listTools();
    expect(list.tools.map((tool) => tool.name)).toEqual(ALL_TOOLS.map((tool) => tool.name));
    expect(Object.keys(CALLS).sort()).toEqual(ALL_TOOLS.map((tool) => tool.name).sort());
    if (era === MODERN) expect([list.ttlMs, list.cacheScope]).toEqual([TOOL_LIST_TTL_MS, 'public']);
    else expect(list.ttlMs).toBeUndefined();
    // Every tool carries the server's icon, as a data URI (no client has to fetch it).
    for (const tool of list.tools) expect(tool.icons?.[0]?.src, tool.name).toMatch(/^data:image\/svg\+xml;base64,/);
    // Every schema gives each value one type: single-type dialects (the MCP Inspector's --strict) reject a list.
    expect(typeLists(list.tools)).toEqual([]);
    // Every tool's result has a fixed shape, declared (the calls below: each client validates structuredContent).
    expect(list.tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name)).toEqual([]);
  });

  it.each(Object.keys(CALLS))('calls %s', async (name) => {
    const progress: unknown[] = [];
    const result = await client!.callTool(
      { name, arguments: CALLS[name]!.args(fixtures.url) },
      { onprogress: (update) => progress.push(update) },
    );
    const text = JSON.stringify(result.content);
    expect(result.isError, text).toBeFalsy();
    expect(text).toMatch(CALLS[name]!.says);
    // The crawl reports each page it reads.
    if (name === 'crawl') expect(progress.length).toBeGreaterThanOrEqual(4);
    // Over HTTP the screenshot is served too: a resource_link to it.
    if (name === 'screenshot') expect(text.includes('"type":"resource_link"')).toBe(transport === 'http');
    // Its structured result, which the client has checked against the tool's outputSchema (web_scraper's status is
    // its seed's HTTP status).
    expect(result.structuredContent).toMatchObject({ status: name === 'web_scraper' ? 200 : 'ok' });
  });

  it.each([
    ['web', { mode: 'links' }, /Products/],
    ['web', { mode: 'raw' }, /<h1>/],
    ['read_url', { include_links: true }, /Welcome/],
    ['extract_links', { filter: 'internal' }, /About Us/],
    ['links', { max_links: 1, titles: false }, /http/],
  ])('calls %s with %j, its structured result valid too', async (name, extra, says) => {
    const result = await client!.callTool({ name, arguments: { url: fixtures.url('/site'), ...extra } }, {});
    expect(JSON.stringify(result.content)).toMatch(says);
    expect(result.structuredContent).toMatchObject({ status: 'ok' });
  });

  it('reads a failed call in its era: a bad argument and an unknown tool are results that say what to do', async () => {
    const bad = await client!.callTool({ name: 'fetch', arguments: { url: 'ftp://example.com/' } }, {});
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/Only http and https/);
    const unknown = await client!.callTool({ name: 'no_such_tool', arguments: {} }, {});
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain('This server offers: fetch, links, web');
    expect(JSON.stringify(unknown.content)).toContain('--tools all offers every one');
  });

  it('cancels a call: the page it waits for sees its request dropped', async () => {
    const dropped = droppedHeld;
    const asked = fixtures.hits('/held');
    const abort = new AbortController();
    const call = client!.callTool(
      { name: 'fetch', arguments: { url: fixtures.url('/held') } },
      { signal: abort.signal },
    );
    await expect.poll(() => fixtures.hits('/held')).toBe(asked + 1);
    abort.abort(new Error('the test cancels'));
    await expect(call).rejects.toThrow();
    await expect.poll(() => droppedHeld).toBe(dropped + 1);
  });
});

afterAll(() => {
  for (const res of heldResponses) res.destroy();
});

describe('a v2 client in auto mode over stdio', () => {
  it('probes with server/discover and stays in the 2026-07-28 era', async () => {
    const client = new ClientV2({ name: 'both-eras-test', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioV2(stdioParams()));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect((await client.listTools()).tools.length).toBe(ALL_TOOLS.length);
    } finally {
      await client.close();
    }
  });
});

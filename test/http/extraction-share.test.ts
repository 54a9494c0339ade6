// A fair share of the extraction workers (issue 23 item 3), through MCP over Streamable HTTP with two sessions:
// one session's heavy selectors must not hold every worker, so another session's small page is read while they run.
// Asserted by order (the small page's answer comes while every heavy call is still running), never by time.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { useTestHttpServer } from './http-harness.js';

// Sibling combinators are not remembered (src/extract/select.ts): on a page of 3,000 paragraphs and no <h1>, this
// chain of four scans the earlier siblings again at each step, far longer than any test waits.
const HEAVY_SELECTOR = 'h1 ~ p ~ p ~ p ~ p';
const WIDE_PAGE =
  '<html><head><title>Wide</title></head><body><main>' +
  '<p>One paragraph of a page that is very wide indeed.</p>'.repeat(3000) +
  '</main></body></html>';

const fixtures = useFixtureServer((server) => {
  server.route('/wide/:n', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(WIDE_PAGE);
  });
  server.route('/small', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><head><title>Small</title></head><body><main><p>A small plain page.</p></main></body></html>');
  });
});
const http = useTestHttpServer(() => ({
  ALLOW_PRIVATE_HOSTS: fixtures.hostPort,
  MAX_CONCURRENT: '10',
  RENDER_JS: 'never',
  // Long enough that no heavy call ends by its time limit before the small page is read, even on a loaded machine.
  EXTRACT_TIMEOUT: '60000',
}));
const clients: Client[] = [];

async function connect(): Promise<Client> {
  const client = new Client({ name: 'extraction-share-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(http.mcpUrl));
  clients.push(client);
  return client;
}

// Before the HTTP server closes (vitest runs after-hooks as a stack): the heavy calls are still running; closing the
// clients abandons them and closing the engine stops their workers.
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
});

it("four heavy-selector calls of one session do not hold the worker another session's small page needs", async () => {
  const [heavySession, plainSession] = [await connect(), await connect()];
  let heavyEnded = 0;
  for (let n = 1; n <= 4; n++) {
    void heavySession
      .callTool({ name: 'fetch', arguments: { url: fixtures.url(`/wide/${n}`), selector: HEAVY_SELECTOR } })
      .catch(() => undefined)
      .finally(() => (heavyEnded += 1));
  }
  // The heavy pages are fetched and on the workers before the small page is asked for.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const small = plainSession.callTool({ name: 'fetch', arguments: { url: fixtures.url('/small') } });
  const result = (await small) as CallToolResult;
  expect(result.isError).toBeFalsy();
  expect(result.content[0]).toMatchObject({ text: expect.stringContaining('A small plain page.') });
  expect(heavyEnded).toBe(0); // every heavy call was still running when the small page came back
});

// Cancellation reaches the work (issue 10, scope 3), measured where it matters: the fixture server's page hits.
// A crawl walks a chain of slow pages; once its call is cancelled, the hits stop growing.
//   MCP over Streamable HTTP: a hang-up cancels after the disconnect grace (the stream cannot be resumed: no event
//   store), a session DELETE and notifications/cancelled at once. The JSON API: a hang-up at once.
//   Shutdown: running calls get stopSignal first and answer within the grace period.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { expectStopsGrowing } from '../stops-growing.js';
import { useFixtureServer } from '../use-fixture-server.js';
import {
  postToolCall,
  openRawSession,
  sessionHeaders,
  startTestHttpServer,
  stopEvents,
  useTestHttpServer,
  waitForStopTool,
} from './http-harness.js';

const PAGE_DELAY_MS = 150;
const DISCONNECT_GRACE_MS = 400;

/** Page requests per crawl run. */
const runHits = new Map<string, number>();
const clients: Client[] = [];

const fixtures = useFixtureServer((fixtures) => {
  // An endless tree of slow pages: /tree/run/n links to 2n+1 and 2n+2. Each test crawls its own run, so that no
  // page comes from the cache.
  fixtures.route('/tree/:run/:n', (_req, res, params) => {
    runHits.set(params.run!, (runHits.get(params.run!) ?? 0) + 1);
    const n = Number(params.n);
    const links = [2 * n + 1, 2 * n + 2].map((child) => `<a href="/tree/${params.run}/${child}">${child}</a>`);
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1>` +
          `<p>${'A page in a large tree of pages, with enough words to count as content. '.repeat(6)}</p>` +
          `${links.join(' ')}</main></body></html>`,
      );
    }, PAGE_DELAY_MS);
  });
});
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, MAX_OUTPUT_TOKENS: '0' }), ALL_TOOLS, {
  disconnectGraceMs: DISCONNECT_GRACE_MS,
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
});

let run = 0;
/** Pages the current run's crawl has requested. */
const hits = () => runHits.get(String(run)) ?? 0;
const CRAWL_ARGS = () => {
  run += 1;
  // Far more than the tests wait for: only a cancellation ends it.
  return {
    url: fixtures.url(`/tree/${run}/0`),
    max_pages: 10_000,
    max_depth: 100,
    max_tokens: 10_000_000,
    patterns: [`/tree/${run}/*`],
  };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the crawl has read a few pages, so it is surely running. */
async function crawlRunning(): Promise<void> {
  await expect.poll(hits, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(3);
}

/**
 * Asserts that page hits stop growing after the cancellation: no page for 10 page delays once `settleMs` (the time
 * it should take, one page in flight) has passed, however late a loaded machine delivers it (test/stops-growing.ts).
 */
async function expectWorkStopped(settleMs: number): Promise<void> {
  await sleep(settleMs);
  await expectStopsGrowing(hits, 'pages read after the call was cancelled', { quietMs: 10 * PAGE_DELAY_MS });
}

async function connect(): Promise<Client> {
  const client = new Client({ name: 'cancel-test', version: '0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(http.mcpUrl));
  return client;
}

describe('MCP over Streamable HTTP', () => {
  it('cancels a call whose client hung up, after the disconnect grace period', async () => {
    const sessionId = await openRawSession(http.mcpUrl);
    const hangUp = new AbortController();
    const response = await postToolCall(
      http.mcpUrl,
      sessionId,
      { id: 7, name: 'crawl', arguments: CRAWL_ARGS() },
      hangUp.signal,
    );
    expect(response.status).toBe(200);
    await crawlRunning();
    hangUp.abort();
    // Within the grace the call may go on (the spec: a disconnect is not by itself a cancellation) ...
    // ... after it, the crawl stops reading pages.
    await expectWorkStopped(DISCONNECT_GRACE_MS + 3 * PAGE_DELAY_MS);
  });

  it('cancels at once when the client ends the session (DELETE)', async () => {
    const client = await connect();
    const call = client.callTool({ name: 'crawl', arguments: CRAWL_ARGS() }).catch(() => undefined);
    await crawlRunning();
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await expectWorkStopped(2 * PAGE_DELAY_MS);
    void call;
  });

  it('cancels at once on notifications/cancelled (the SDK client aborting its request)', async () => {
    const client = await connect();
    const abort = new AbortController();
    const call = client
      .callTool({ name: 'crawl', arguments: CRAWL_ARGS() }, undefined, { signal: abort.signal })
      .catch(() => 'aborted');
    await crawlRunning();
    abort.abort('changed my mind');
    expect(await call).toBe('aborted');
    await expectWorkStopped(2 * PAGE_DELAY_MS);
  });

  it("ends the cancelled call's response stream: nothing is left open and kept alive for an answer never sent", async () => {
    // Session-36 cold trial: after a raw notifications/cancelled the POST's SSE stream stayed open (keep-alives), and
    // the session counted a call in progress for good.
    const sessionId = await openRawSession(http.mcpUrl);
    const response = await postToolCall(http.mcpUrl, sessionId, { id: 11, name: 'crawl', arguments: CRAWL_ARGS() });
    expect(response.status).toBe(200);
    await crawlRunning();
    const cancel = await fetch(http.mcpUrl, {
      method: 'POST',
      headers: sessionHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 11 } }),
    });
    expect(cancel.status).toBe(202);
    // The stream ends (a hang otherwise): no result for id 11 in it, the spec's "no response" to a cancelled request.
    const events = await response.text();
    expect(events).not.toContain('"id":11');
    await expectWorkStopped(2 * PAGE_DELAY_MS);
  });
});

describe('the JSON API', () => {
  it('cancels a call when its client hangs up', async () => {
    const hangUp = new AbortController();
    const call = fetch(`${http.url}/tools/crawl`, {
      method: 'POST',
      body: JSON.stringify(CRAWL_ARGS()),
      signal: hangUp.signal,
    }).catch(() => undefined);
    await crawlRunning();
    hangUp.abort();
    await call;
    await expectWorkStopped(2 * PAGE_DELAY_MS);
  });
});

describe('shutdown', () => {
  it('gives running calls stopSignal at once, on both front doors, and waits for their answers', async () => {
    const server = await startTestHttpServer({}, [waitForStopTool], {
      apiTools: [waitForStopTool],
      // Past the test's time limit (60 s): close() waits out the grace only if a call ignores its stop, and then the
      // test fails on its limit. No clock is read, so a loaded machine cannot fail it.
      shutdownGraceMs: 120_000,
    });
    const client = new Client({ name: 'shutdown-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(server.mcpUrl));
    try {
      const startedBefore = stopEvents.started;
      const viaMcp = client.callTool({ name: 'wait_for_stop', arguments: { max_ms: 20_000 } });
      const viaApi = fetch(`${server.url}/tools/wait_for_stop`, { method: 'POST', body: '{"max_ms": 20000}' });
      await expect.poll(() => stopEvents.started - startedBefore).toBe(2);
      await server.close(); // the calls answered as soon as they were told to stop: the grace was not waited out
      const mcpResult = (await viaMcp) as CallToolResult;
      expect(mcpResult.content[0]).toMatchObject({ type: 'text', text: 'stopped' });
      const apiResult = (await (await viaApi).json()) as { success: boolean; result: { how: string } };
      expect(apiResult).toMatchObject({ success: true, result: { how: 'stopped' } });
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});

describe('shutdown with a crawl running', () => {
  it('answers a running crawl with the pages it has, marked stopped, on both front doors', async () => {
    const server = await startTestHttpServer(
      { ALLOW_PRIVATE_HOSTS: fixtures.hostPort, MAX_OUTPUT_TOKENS: '0' },
      ALL_TOOLS,
      {
        shutdownGraceMs: 120_000, // past the test's time limit: see the test above
      },
    );
    const client = new Client({ name: 'shutdown-crawl', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(server.mcpUrl));
    try {
      const viaMcp = client.callTool({ name: 'crawl', arguments: CRAWL_ARGS() });
      await crawlRunning();
      const viaApi = fetch(`${server.url}/tools/crawl`, { method: 'POST', body: JSON.stringify(CRAWL_ARGS()) });
      await crawlRunning();
      await server.close(); // the grace, past the test's time limit, was not waited out: nothing had to be cancelled
      const mcpResult = (await viaMcp) as CallToolResult;
      expect(mcpResult.isError).toBeFalsy();
      expect(mcpResult.structuredContent).toMatchObject({ stop_reason: 'stopped' });
      expect(JSON.stringify(mcpResult.content)).toContain('Stopped: server shutting down');
      const api = (await (await viaApi).json()) as {
        success: boolean;
        result: { pages_read: number; stop_reason: string };
      };
      expect(api.success).toBe(true);
      expect(api.result.pages_read).toBeGreaterThan(0);
      expect(api.result.stop_reason).toBe('stopped');
      await expectWorkStopped(2 * PAGE_DELAY_MS);
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});

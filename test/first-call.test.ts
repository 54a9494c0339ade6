// The first answer fast (issue 23 item 7): a client's first `fetch` waits for what reading a page needs, so the stdio
// server loads it while the client lists its tools, and the first fetch of a small HTML page loads nothing it does
// not need. The time itself is a benchmark (npm run bench:start); these tests keep the structure that makes it
// fast, through the SDK's real client and the module hook of test/start-up.test.ts (every loaded module on stderr).
import { execFile, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect, it } from 'vitest';
import { CLI_PATH } from './mcp/stdio-client.js';
import { useFixtureServer } from './use-fixture-server.js';

const RECORD_LOADS = fileURLToPath(new URL('./fixtures/start-up/record-loads.mjs', import.meta.url));
const ENGINE_PATH = fileURLToPath(new URL('../dist/engine/engine.js', import.meta.url));

/** What the first fetch of a small HTML page must not load, and why. */
const NOT_FOR_A_SMALL_PAGE: Record<string, string> = {
  // Its text is far below MAX_OUTPUT_TOKENS in UTF-8 bytes alone, so counting its tokens cannot cut it.
  o200k_base: "the tokenizer's 200,000 ranks (~0.2 s)",
  'playwright-core': 'Playwright: the page reads whole without a browser',
  '/unpdf/': 'the PDF reader',
  streamableHttp: 'the HTTP transport',
  '/ioredis/': 'the Redis client',
  '/dist/crawl/crawl-site.js': 'the crawler',
  '/dist/crawl/map-site.js': 'the site walker',
};

const server = useFixtureServer();
let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

/** The stdio server under the module hook, connected (initialize answered, initialized sent); `loaded` grows. */
async function connect(): Promise<{
  client: Client;
  loaded: () => string[];
  waitFor: (part: string) => Promise<void>;
}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', RECORD_LOADS, CLI_PATH],
    env: { PATH: process.env.PATH ?? '', ALLOW_PRIVATE_HOSTS: server.hostPort },
    stderr: 'pipe',
  });
  let stderr = '';
  const waiting = new Set<() => void>();
  const stream = transport.stderr as Readable;
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    stderr += chunk;
    for (const check of waiting) check();
  });
  const loaded = () => stderr.split('\n').filter((line) => line.startsWith('loaded '));
  const client = new Client({ name: 'first-call-test', version: '0' });
  await client.connect(transport);
  close = () => client.close();
  const waitFor = (part: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!loaded().some((line) => line.includes(part))) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  return { client, loaded, waitFor };
}

it('loads the engine and starts an extraction worker while the client lists tools, before any call', async () => {
  const { client, waitFor } = await connect();
  await client.listTools();
  // No call is made: the server warms up on its own once initialized. On main these never load (the test times out).
  await Promise.all([waitFor('/dist/engine/engine.js'), waitFor('/dist/workers/extract-worker.js')]);
});

it("reads a small HTML page on the first call without the tokenizer's ranks, the browser or anything else it does not need", async () => {
  const { client, loaded } = await connect();
  const result = (await client.callTool({ name: 'fetch', arguments: { url: server.url('/html') } })) as CallToolResult;
  const seen = loaded();
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent?.status).toBe('ok');
  // The hook works: the engine and the worker that read the page are in the list.
  expect(seen.some((line) => line.includes('/dist/engine/engine.js'))).toBe(true);
  expect(seen.some((line) => line.includes('/dist/workers/extract-worker.js'))).toBe(true);
  const early = Object.entries(NOT_FOR_A_SMALL_PAGE).filter(([part]) => seen.some((line) => line.includes(part)));
  expect(early.map(([part, why]) => `${part}: ${why}`)).toEqual([]);
});

it("loads neither the HTML parser nor the selector engine on the server's thread with the engine: the worker reads", async () => {
  const { stderr } = await promisify(execFile)(process.execPath, [
    '--import',
    RECORD_LOADS,
    '--input-type=module',
    '--eval',
    `await import(${JSON.stringify(pathToFileURL(ENGINE_PATH).href)});`,
  ]);
  const loaded = stderr.split('\n').filter((line) => line.startsWith('loaded '));
  expect(loaded.some((line) => line.includes('/dist/engine/read-page.js'))).toBe(true);
  const parts = ['/htmlparser2/', '/css-select/', '/dist/extract/parse.js', 'o200k_base', 'playwright-core'];
  expect(parts.filter((part) => loaded.some((line) => line.includes(part)))).toEqual([]);
});

it("serve --http loads the tokenizer's ranks once it listens, before any call: the first long page does not", async () => {
  // Many clients share an HTTP server's thread: loading the ranks in the middle of traffic held /healthz (bench:load).
  const child = spawn(process.execPath, ['--import', RECORD_LOADS, CLI_PATH, 'serve', '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    // No call is made: the ranks load on their own (before this change they loaded with the first long page only,
    // and the test times out).
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const loadedRanks = stderr
          .split('\n')
          .some((line) => line.startsWith('loaded ') && line.includes('o200k_base'));
        if (loadedRanks && stderr.includes('MCP at ')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve --http exited (${code}) before loading: ${stderr}`)));
    });
  } finally {
    child.kill('SIGTERM');
  }
});

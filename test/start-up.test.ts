// Start-up (issue 15 item 2): an MCP client waits for `initialize` before anything else, so the stdio server answers
// it without loading what only reading a page needs. The time itself is a benchmark (npm run bench:start); this
// test keeps the structure that makes it fast: it lists the modules the server has loaded when `initialize` is
// answered (a module hook on stderr, test/fixtures/start-up/) and fails if a heavy one is among them.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { CLI_PATH } from './mcp/stdio-client.js';

const RECORD_LOADS = fileURLToPath(new URL('./fixtures/start-up/record-loads.mjs', import.meta.url));

/** What is loaded only on first use, and why it is heavy. */
const LOADED_ON_FIRST_USE: Record<string, string> = {
  // gpt-tokenizer 4 keeps them in esm/bpeRanks/o200k_base.js, imported by esm/encoding/o200k_base.js.
  o200k_base: "the tokenizer's 200,000 ranks (~0.2 s)",
  'playwright-core': 'Playwright (~0.35 s)',
  '/undici/': 'the HTTP client: only a fetch needs it',
  '/htmlparser2/': 'the HTML parser',
  '/css-select/': 'the selector engine',
  streamableHttp: 'the HTTP transport: only serve --http needs it',
  '/dist/engine/engine.js': "the engine's innards",
  // The shared state is built before the answer (src/cli/main.ts): in memory, without Redis's client.
  '/ioredis/': 'the Redis client: only REDIS_URL needs it',
  '/dist/shared-state/redis-shared-state.js': 'the state shared through Redis',
  '/dist/crawl/crawl-site.js': 'the crawler',
  '/dist/crawl/map-site.js': 'the site walker',
};

it('answers initialize over stdio before loading the tokenizer, the fetcher, the parser, the browser or HTTP', async () => {
  const child = spawn(process.execPath, ['--import', RECORD_LOADS, CLI_PATH], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const answer = new Promise<string>((resolve) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
  });
  child.stdin.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'start-up-test', version: '1' } },
    })}\n`,
  );
  const first = JSON.parse(await answer) as { id: number; result?: { serverInfo: { name: string } } };
  // What was loaded up to the answer: the hook writes before each module runs, so every line is in by now.
  const loaded = stderr.split('\n').filter((line) => line.startsWith('loaded '));
  child.kill();
  expect(first.id).toBe(1);
  expect(first.result?.serverInfo.name).toBe('web-reader');
  // The hook works: the server's own modules and the SDK are in the list.
  expect(loaded.some((line) => line.includes('/dist/server.js'))).toBe(true);
  expect(loaded.some((line) => line.includes('@modelcontextprotocol/sdk'))).toBe(true);
  const early = Object.entries(LOADED_ON_FIRST_USE).filter(([part]) => loaded.some((line) => line.includes(part)));
  expect(early.map(([part, why]) => `${part}: ${why}`)).toEqual([]);
});

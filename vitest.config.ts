import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Builds dist/ when a source is newer: MCP, CLI and worker-pool tests run the built code.
    // And says once when the rendering tests skip for want of Chromium (test/browser-available.ts).
    // And once when the Redis tests skip for want of redis-server (test/redis-server.ts), and the OCR tests for want
    // of tesseract (test/ocr-available.ts).
    globalSetup: ['test/build-if-stale.ts', 'test/browser-notice.ts', 'test/redis-notice.ts', 'test/ocr-notice.ts'],
    // A green suite on a busy machine (issue 23 item 10). Tests assert order, counts and events, not wall-clock
    // bounds; what is left to the clock is these limits, which only end a test that is stuck.
    // - Each file in a process of its own (test/http/http-harness.ts reads its main thread's CPU time from /proc),
    //   one file per core less one: the tests start servers, CLIs, Chromium and worker pools of their own, so more
    //   files at once would only add load (on 2 cores: one file at a time, as vitest's default already was).
    pool: 'forks',
    maxWorkers: Math.max(1, availableParallelism() - 1),
    minWorkers: 1,
    // - A stuck test fails at 60 s; a passing test never waits for these, so they cost nothing when all is well.
    //   20 s was not enough on a 2-core machine at load 10–30 for a test that renders twice or runs three CLIs.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
    // - expect.poll waits up to 10 s (vitest's default is 1 s): a poll ends as soon as its condition holds, so the
    //   limit costs nothing when all is well and only fails a condition that never comes.
    expect: { poll: { timeout: 10_000 } },
    // - No retries: a test that passes only the second time is a bug to fix, not to hide.
    retry: 0,
  },
});

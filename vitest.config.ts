import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Builds dist/ when a source is newer: MCP, CLI and worker-pool tests run the built code.
    // And says once when the rendering tests skip for want of Chromium (test/browser-available.ts).
    // And once when the Redis tests skip for want of redis-server (test/redis-server.ts).
    globalSetup: ['test/build-if-stale.ts', 'test/browser-notice.ts', 'test/redis-notice.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
  },
});

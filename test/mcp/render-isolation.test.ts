// A render answers by the call's deadline over MCP (issue 23 item 2): a page whose script spins after writing its
// content is read — its content, not a wait for RENDER_TIMEOUT — and a render's deadline follows FETCH_TIMEOUT (twice
// it) unless RENDER_TIMEOUT is set.
import type { ServerResponse } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { describeWithBrowser } from '../browser-available.js';
import { respondWith, type FixtureServer } from '../fixture-server.js';
import { useMcpSession } from './session.js';

const STORY = 'The ferry leaves the north pier at seven and returns from the island at noon. '.repeat(5);
const held: ServerResponse[] = [];
afterAll(() => {
  for (const res of held) res.destroy();
});

function addRoutes(server: FixtureServer): void {
  // Its article is built by a script, then another script spins for ever.
  server.route(
    '/writes-then-spins',
    respondWith(
      'text/html',
      '<!doctype html><html><head><title>Ferry times</title></head><body><div id="root"></div><script>' +
        `document.getElementById('root').innerHTML = '<article><h1>Ferry times</h1><p>${STORY}</p></article>';` +
        '</script><script>while (true) {}</script></body></html>',
    ),
  );
  // A script that never arrives: the document never reaches DOMContentLoaded in the browser.
  server.route('/hang.js', (_req, res) => void held.push(res));
  server.route(
    '/stalled-script',
    respondWith(
      'text/html',
      '<!doctype html><html><head><title>Stalled</title><script src="/hang.js"></script></head><body><div id="root"></div></body></html>',
    ),
  );
}

describeWithBrowser('a spinning page over MCP, with Chromium', (browserPath) => {
  // RENDER_TIMEOUT far past the test's own time-out: only ending the spin can answer in time.
  const { server, session } = useMcpSession({
    tools: 'all',
    setup: addRoutes,
    env: { CHROMIUM_PATH: browserPath, FETCH_TIMEOUT: '60000', RENDER_TIMEOUT: '120000' },
  });

  it('a page that writes its content, then spins, is read: its content, rendered', async () => {
    const result = await session.call('fetch', { url: server.url('/writes-then-spins'), render: 'always' });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('The ferry leaves the north pier');
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true });
  }, 45_000);
});

describeWithBrowser("a render's deadline follows FETCH_TIMEOUT, with Chromium", (browserPath) => {
  const { server, session } = useMcpSession({
    tools: 'all',
    setup: addRoutes,
    env: { CHROMIUM_PATH: browserPath, FETCH_TIMEOUT: '2500' },
  });

  it('a page that never loads in the browser: TIMEOUT naming the render, at twice FETCH_TIMEOUT', async () => {
    const result = await session.call('fetch', { url: server.url('/stalled-script'), render: 'always' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'TIMEOUT' } });
    expect(result.text).toContain(`Rendering ${server.url('/stalled-script')} did not finish within 5000 ms`);
  }, 45_000);
});

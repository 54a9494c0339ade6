// Selectors and sections on a script-built page (issue 14 items 3 and 4 with issue 13's rendering): the static read
// is an empty shell, so the page is rendered in a real Chromium and the selectors apply to the rendered DOM.
import { expect, it } from 'vitest';
import { describeWithBrowser, SLOW_MACHINE_RENDER_TIMEOUT } from '../browser-available.js';
import { respondWith, type FixtureServer } from '../fixture-server.js';
import { useMcpSession } from './session.js';

const STORY = 'The lighthouse keeper writes the weather in the log at every change of watch. '.repeat(5);
const SIDE = 'Keepers on duty this week: Morag and Ewan.';

function addRoutes(server: FixtureServer): void {
  const html =
    `<article><h1>Lighthouse log</h1><p>${STORY}</p><h2>Storms</h2><p>The storm of March took the boat.</p>` +
    `<h2>Calms</h2><p>Calm days are for painting.</p></article><aside id="side"><p>${SIDE}</p></aside>`;
  server.route(
    '/lighthouse',
    respondWith(
      'text/html',
      '<!doctype html><html><head><title>Lighthouse log</title></head><body><div id="root"></div>' +
        `<script>document.getElementById('root').innerHTML = ${JSON.stringify(html)};</script></body></html>`,
    ),
  );
}

describeWithBrowser('selectors on the rendered DOM, with Chromium', (browserPath) => {
  const { server, session } = useMcpSession({
    tools: 'all',
    setup: addRoutes,
    env: { CHROMIUM_PATH: browserPath, RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT },
  });

  it('a selector that matches nothing in the static shell reads the rendered page', async () => {
    const result = await session.call('fetch', { url: server.url('/lighthouse'), selector: '#side' });
    expect(result.structuredContent).toMatchObject({ status: 'ok', rendered: true, selector_matched: 1 });
    expect(result.text).toContain(SIDE);
    expect(result.text).not.toContain('lighthouse keeper writes');
  });

  it('a section is cut from the rendered page', async () => {
    const result = await session.call('read_url', { url: server.url('/lighthouse'), section: 'storms' });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('The storm of March took the boat.');
    expect(result.text).not.toContain('Calm days');
    expect(result.structuredContent).toMatchObject({ rendered: true });
  });
});

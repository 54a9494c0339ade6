// Pages for the selector and section tests (issue 14 items 3 and 4), shared by the MCP, JSON API and CLI tests.
// FIELD_GUIDE: an article that main-content detection keeps (with its edition note), a sidebar and a nav menu it
// drops, and headings at three levels. Its web_scraper outline: #1 Site menu, #2 Field Guide, #3 Birds, #4 Owls,
// #5 Trees, #6 Tide table.
import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server.js';

export const INTRO = 'The field guide opens with a long introduction about walking the coast path in every season';
export const EDITION_NOTE = 'This edition adds forty new plates of coastal plants';
export const BIRDS = 'Birds of the shore: oystercatchers, curlews';
export const OWLS = 'Owls hunt the dunes at dusk';
export const TREES = 'Trees are few on the coast';
export const TIDES = 'High water at 06:12 and 18:40.';
export const MENU_LINK = 'Other guides';

export const FIELD_GUIDE = `<!doctype html><html lang="en"><head><title>Field Guide</title></head><body>
<nav><h2>Site menu</h2><a href="/">Home</a> <a href="/sel/guide">Guide</a> <a href="/sel/other">${MENU_LINK}</a></nav>
<main><article>
<h1>Field Guide</h1>
<p>${INTRO}, with notes on the weather and the light at each hour of the day.</p>
<p>It goes on to describe the equipment a walker needs, from boots to binoculars, and how to pack them for long days.</p>
<div class="edition-note"><p>${EDITION_NOTE}, drawn from life over three summers on the headland.</p></div>
<h2>Birds</h2><p>${BIRDS} and the little terns that nest on the shingle banks.</p>
<h3>Owls</h3><p>${OWLS}; the short-eared owl is the one most often seen in daylight.</p>
<h2>Trees</h2><p>${TREES}: wind-bent hawthorn and the odd sycamore in a sheltered hollow.</p>
</article></main>
<aside id="sidebar"><h3>Tide table</h3><p>${TIDES}</p></aside>
<footer>Copyright 2026 Field Press.</footer>
</body></html>`;

/** A second page of the same shape, reached only through FIELD_GUIDE's nav menu (crawl follows the whole page). */
export const OTHER_GUIDE = FIELD_GUIDE.replace('<title>Field Guide', '<title>Other Guide').replace(
  '<h1>Field Guide',
  '<h1>Other Guide',
);

function html(body: string) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
}

/** /sel/guide, /sel/other, and /sel/bad (for calls that must never be sent: the test counts its hits). */
export function addSelectorPages(server: FixtureServer): void {
  server.route('/sel/guide', html(FIELD_GUIDE));
  server.route('/sel/other', html(OTHER_GUIDE));
  server.route('/sel/bad', html(FIELD_GUIDE));
}

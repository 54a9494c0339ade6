// Pages for the `query` tests (issue 26 item 3), shared by the MCP, JSON API and CLI tests.
// MANUAL: a manual with sections at two levels — Install (Linux, Windows), Configuration, Troubleshooting — each
// about its own thing, so that a query answered by one section has one right answer. ESSAY: a long article with no
// headings at all, one paragraph of which is about lighthouses.
import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server.js';

export const LINUX = 'On Linux, install the widget with the apt package manager: sudo apt install widget-cli';
export const WINDOWS = 'On Windows, run the MSI installer and tick the box that adds widget to the PATH';
export const CONFIG = 'The configuration file lives in your home folder and sets the colour theme and the port';
export const TROUBLE = 'If the widget crashes at start, delete the cache folder and read the log for the error';
export const LIGHTHOUSE = 'The lighthouse keeper climbed the spiral stairs each evening to light the great lamp';

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} about ${topic} goes on at some length, so that the section is a real one with ` +
      `sentences an agent would not want to read when it asked about something else entirely.</p>`,
  ).join('\n');

export const MANUAL = `<!doctype html><html lang="en"><head><title>Widget manual</title></head><body>
<main><article>
<h1>Widget manual</h1>
<p>Widget is a small tool for drawing charts in the terminal. This manual covers every part of it.</p>
<h2>Install</h2>
<p>Widget runs on every common system; pick yours below.</p>
<h3>Linux</h3><p>${LINUX}. Packages exist for Debian and Fedora.</p>
<h3>Windows</h3><p>${WINDOWS}. A reboot is not needed.</p>
<h2>Configuration</h2><p>${CONFIG}.</p>
${filler('settings', 3)}
<h2>Troubleshooting</h2><p>${TROUBLE}.</p>
${filler('problems', 3)}
</article></main>
</body></html>`;

const ESSAY_PARAGRAPHS = [
  ...Array.from(
    { length: 4 },
    (_, i) =>
      `Part ${i + 1} of the story follows the fishing boats out of the harbour at dawn. ` +
      'The nets, the gulls and the long wait for the tide to turn before the crews come home with their catch. '.repeat(
        3,
      ),
  ),
  `${LIGHTHOUSE}, trimming the wick and winding the clockwork that turned the lens all night.`,
  ...Array.from(
    { length: 4 },
    (_, i) =>
      `Part ${i + 6} of the story returns to the village square. ` +
      'The market stalls, the church bell and the women who mend the nets under the chestnut tree by the well. '.repeat(
        3,
      ),
  ),
];

export const ESSAY = `<!doctype html><html lang="en"><head><title>A harbour year</title></head><body>
<main><article>
${ESSAY_PARAGRAPHS.map((paragraph) => `<p>${paragraph}</p>`).join('\n')}
</article></main>
</body></html>`;

/** A Markdown document (text/markdown): ranked the same, but `section` names parts of HTML only. */
export const NOTES_MD = [
  '# Release notes',
  '## Version 2',
  'Version 2 adds dark mode and a faster chart renderer.',
  '## Version 1',
  'Version 1 was the first release, with bar and line charts.',
].join('\n\n');

function html(body: string) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
}

/** /q/manual, /q/essay, /q/notes.md. */
export function addQueryPages(server: FixtureServer): void {
  server.route('/q/notes.md', (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
    res.end(NOTES_MD);
  });
  server.route('/q/manual', html(MANUAL));
  server.route('/q/essay', html(ESSAY));
}

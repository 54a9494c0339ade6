// README "Protocol versions" shows one client per protocol era; this runs each as written (a real v2 client pinned
// to 2026-07-28, a real v1 client) against the HTTP server, with two substitutions only: the server's address
// (http://127.0.0.1:3000/mcp) and the page (https://example.com) become this test's loopback ones. What each prints
// must be what the README's comment under it says.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestHttpServer } from '../http/http-harness.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { html, SITE_HTML } from './site-pages.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
// Inside the repository, so that the examples' imports resolve to its node_modules.
const SCRATCH = fileURLToPath(new URL('../../node_modules/.cache/readme-examples/', import.meta.url));

const fixtures = useFixtureServer((server) => server.route('/page', html(SITE_HTML)));
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, PER_DOMAIN_INTERVAL: '0' }));

/** The README's examples, by era: the code, and the lines of its output comment (`// …` after the console.log). */
function examples(): Map<string, { code: string; prints: string }> {
  const found = new Map<string, { code: string; prints: string }>();
  const text = readFileSync(README, 'utf8');
  for (const match of text.matchAll(/<!-- readme-example: (\S+) [^\n]*-->\s*```js\n([\s\S]*?)```/g)) {
    const code = match[2]!;
    const prints = code
      .split('\n')
      .filter((line) => line.startsWith('// '))
      .map((line) => line.slice(3))
      .join('\n');
    found.set(match[1]!, { code, prints });
  }
  return found;
}

describe('README "Protocol versions"', () => {
  it('has one example per era', () => {
    expect([...examples().keys()]).toEqual(['2026-07-28', '2025']);
  });

  it.each(['2026-07-28', '2025'])('the %s example prints what it says', async (era) => {
    const example = examples().get(era)!;
    const local = (text: string) =>
      text
        .replaceAll('http://127.0.0.1:3000/mcp', http.mcpUrl.href)
        .replaceAll('https://example.com', fixtures.url('/page'));
    mkdirSync(SCRATCH, { recursive: true });
    const file = `${SCRATCH}${era}.mjs`;
    writeFileSync(file, local(example.code));
    const { stdout } = await promisify(execFile)(process.execPath, [file]);
    expect(stdout.trim()).toBe(local(example.prints));
  });
});

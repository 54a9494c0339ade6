// --selector, --exclude-selector and --section on the command line (issue 14 items 3 and 4): read, scrape and crawl.
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { addSelectorPages, BIRDS, EDITION_NOTE, INTRO, OWLS, TIDES, TREES } from './selector-pages.js';
import { useFixtureServer } from './use-fixture-server.js';

const server = useFixtureServer(addSelectorPages);
const cli = (args: string[]) => runCli(args, { ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0' });

describe('web-reader read', () => {
  it('--selector reads the sidebar main-content detection drops', async () => {
    const run = await cli(['read', server.url('/sel/guide'), '--selector', '#sidebar']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(TIDES);
    expect(run.stdout).not.toContain(INTRO);
  });

  it('--exclude-selector is repeatable', async () => {
    const run = await cli([
      'read',
      server.url('/sel/guide'),
      '--exclude-selector',
      '.edition-note',
      '--exclude-selector',
      'h3',
    ]);
    expect(run.stdout).toContain(INTRO);
    expect(run.stdout).not.toContain(EDITION_NOTE);
    expect(run.stdout).not.toContain('### Owls');
  });

  it('--section by #n and by text; not found exits 2 listing the headings', async () => {
    const byNumber = await cli(['read', server.url('/sel/guide'), '--section', '#4']);
    expect(byNumber.stdout).toContain(OWLS);
    expect(byNumber.stdout).not.toContain(BIRDS);
    const byText = await cli(['read', server.url('/sel/guide'), '--section', 'BIRDS']);
    expect(byText.stdout).toContain(OWLS);
    expect(byText.stdout).not.toContain(TREES);
    const missing = await cli(['read', server.url('/sel/guide'), '--section', 'Fish']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('#5 Trees');
  });

  it('a bad selector exits 2 naming it, with no request made', async () => {
    const run = await cli(['read', server.url('/sel/bad'), '--selector', '[[']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('selector "[[" is not valid CSS');
    expect(server.hits('/sel/bad')).toBe(0);
  });
});

describe('scrape and crawl', () => {
  it('scrape --selector reads only the match', async () => {
    const run = await cli(['scrape', server.url('/sel/guide'), '--selector', '#sidebar']);
    const data = JSON.parse(run.stdout) as { text: string };
    expect(data.text).toContain(TIDES);
    expect(data.text).not.toContain(INTRO);
  });

  it('crawl --selector --exclude-selector shapes every page', async () => {
    const run = await cli([
      'crawl',
      server.url('/sel/guide'),
      '--selector',
      'article',
      '--exclude-selector',
      '.edition-note',
      '--json',
    ]);
    const result = JSON.parse(run.stdout) as { pages: { url: string; content: string }[] };
    expect(result.pages.length).toBeGreaterThanOrEqual(2);
    for (const page of result.pages.filter((p) => p.url.includes('/sel/'))) {
      expect(page.content).toContain(INTRO);
      expect(page.content).not.toContain(EDITION_NOTE);
    }
  });

  it('--section on another command is a usage error', async () => {
    const run = await cli(['scrape', server.url('/sel/guide'), '--section', '#1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--section applies to read only');
  });
});

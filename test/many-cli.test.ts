// `web-reader search` and `web-reader read URL URL…` as a person or a script runs them (issue 26 item 4): a numbered
// list, pages one after another under a header line each, --json for scripts, and the variable to set when no
// search provider is configured.
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { addSearchProviders } from './search-providers.js';
import { useFixtureServer } from './use-fixture-server.js';

const article = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${`${title} has a paragraph with words enough to be read as the main content of the page. `.repeat(4)}</p>` +
  '</main></body></html>';

let provider: ReturnType<typeof addSearchProviders>;
const pages = useFixtureServer((server) => {
  server.route('/long', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(article('Page long').replace(/<p>.*<\/p>/s, (p) => p.repeat(60)));
  });
  for (const name of ['one', 'two', 'three']) {
    server.route(`/${name}`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(article(`Page ${name}`));
    });
  }
});
const search = useFixtureServer((server) => {
  provider = addSearchProviders(server);
});

const env = () => ({ ALLOW_PRIVATE_HOSTS: pages.hostPort, PER_DOMAIN_INTERVAL: '0', SEARXNG_URL: search.url('/') });

describe('web-reader read with several URLs', () => {
  it('prints the pages one after another, in the order given, each under a header line', async () => {
    const urls = ['two', 'one', 'missing'].map((name) => pages.url(`/${name}`));
    const run = await runCli(['read', ...urls], env());
    expect(run.code, run.stderr).toBe(0);
    const headers = run.stdout.split('\n').filter((line) => line.startsWith('## ['));
    expect(headers).toEqual([`## [1/3] ${urls[0]} — ok`, `## [2/3] ${urls[1]} — ok`, `## [3/3] ${urls[2]} — error`]);
    expect(run.stdout).toMatch(/^Read 2 of 3 URLs, 1 not readable/);
    expect(run.stdout).toContain('HTTP_STATUS: HTTP error 404');
    expect(run.stdout.indexOf('# Page two')).toBeLessThan(run.stdout.indexOf('# Page one'));
  });

  it('none readable: the report still on stdout, exit 1', async () => {
    const run = await runCli(['read', pages.url('/missing-1'), pages.url('/missing-2')], env());
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Read 0 of 2 URLs, 2 not readable/);
    expect(run.stdout).toContain(`## [2/2] ${pages.url('/missing-2')} — error`);
  });

  it('--json prints the pages with their outcomes', async () => {
    const run = await runCli(['read', '--json', pages.url('/one'), pages.url('/three')], env());
    const result = JSON.parse(run.stdout) as { pages: Array<{ url: string; status: string; content: string }> };
    expect(result.pages.map((page) => page.status)).toEqual(['ok', 'ok']);
    expect(result.pages[1]!.content).toContain('# Page three');
  });

  it('one URL: --max-tokens caps the page, --deadline (several URLs only) is refused', async () => {
    const long = await runCli(['read', pages.url('/long')], env());
    expect(long.code, long.stderr).toBe(0);
    const capped = await runCli(['read', '--max-tokens', '200', pages.url('/long')], env());
    expect(capped.code, capped.stderr).toBe(0);
    expect(capped.stdout.length).toBeLessThan(long.stdout.length / 2);
    // The cut names the flag that made it, and how to read on.
    expect(capped.stderr).toMatch(
      /^web-reader: cut by --max-tokens at character (\d+) of \d+\. To read on, run the same command with --start-index \1; for the whole page, leave out --max-tokens and give --max-output-tokens 0\.$/m,
    );
    const timed = await runCli(['read', '--deadline', '5', pages.url('/one')], env());
    expect(timed.code).toBe(2);
    expect(timed.stderr).toMatch(/--deadline times a read of several URLs/);
  });

  it('refuses a one-page flag with several URLs', async () => {
    const run = await runCli(['read', '--start-index', '5', pages.url('/one'), pages.url('/two')], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--start-index reads one page/);
  });
});

describe('web-reader search', () => {
  it('prints a numbered list, and with --read the top pages after it', async () => {
    provider.mode = 'results';
    provider.results = ['one', 'two', 'three'].map((name) => ({
      url: pages.url(`/${name}`),
      title: `Page ${name}`,
      snippet: `the ${name} page`,
    }));
    const run = await runCli(['search', 'fixture', 'pages', '--read', '2'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^3 results for "fixture pages" \\(SearXNG\\):\n\n1\\. Page one\n {3}${pages.url('/one')}\n {3}the one page\n2\\. Page two`,
      ),
    );
    expect(run.stdout).toContain(`## [2/2] ${pages.url('/two')} — ok`);
    expect(run.stdout).not.toContain(`## [3/`);
  });

  it('--json gives the results for scripts', async () => {
    provider.mode = 'results';
    const run = await runCli(['search', '--json', '--max-results', '2', 'fixture'], env());
    const result = JSON.parse(run.stdout) as { results: Array<{ rank: number; url: string; engine: string }> };
    expect(result.results.map((hit) => [hit.rank, hit.url])).toEqual([
      [1, pages.url('/one')],
      [2, pages.url('/two')],
    ]);
  });

  it('without a provider, says which variable to set', async () => {
    const run = await runCli(['search', 'anything'], { PATH: process.env.PATH ?? '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/set SEARXNG_URL to a SearXNG instance .* or BRAVE_API_KEY/);
    expect(run.stderr).not.toContain('has no scheme'); // the words searched for are not a URL read as https://
  });

  it('a provider that is down fails with its name', async () => {
    const run = await runCli(['search', 'anything'], { SEARXNG_URL: 'http://127.0.0.1:1/' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/The SearXNG search provider could not be reached/);
  });
});

// `web-reader crawl` as a person uses it: the built binary against the generated loopback site.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCrawlSite, addSlowTree, crawlSitePaths } from './crawl-site.js';
import { closedPort } from './fixture-server.js';
import { useFixtureServer } from './use-fixture-server.js';
import { CLI_PATH } from './mcp/stdio-client.js';
import { runCli, type CliRun } from './run-cli.js';
import type { CrawlToolResult } from '../src/tools/crawl-schema.js';

let outDir: string;
const site = { crawlDelaySeconds: 0.01 };
const server = useFixtureServer((server) => addCrawlSite(server, site));

function env(): Record<string, string> {
  // TMPDIR: where a crawl stopped at --max-seconds is kept for --continue, this test's own.
  return {
    PATH: process.env.PATH ?? '',
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    PER_DOMAIN_INTERVAL: '0',
    TMPDIR: outDir,
  };
}

function cli(args: string[]): Promise<CliRun> {
  return runCli(args, env());
}

function totalHits(): number {
  return crawlSitePaths().reduce((sum, path) => sum + server.hits(path), 0);
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'web-reader-crawl-'));
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('web-reader crawl', () => {
  it('prints the pages and the summary, within --max-pages', async () => {
    const run = await cli(['crawl', server.url('/p/0'), '--max-pages', '3']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`## [1] Page 0\n\nURL: ${server.url('/p/0')}`);
    expect(run.stdout).toContain('## [3] Page 2');
    expect(run.stdout).not.toContain('## [4]');
    expect(run.stdout).toMatch(/## Crawl summary\n\n- Pages read: 3 \(max_pages 3\)/);
    expect(run.stderr).toBe(''); // no progress bar when stderr is not a terminal
  });

  it('--out writes one .md per page and an index', async () => {
    const dir = join(outDir, 'site');
    const run = await cli(['crawl', server.url('/p/0'), '--max-pages', '4', '--max-tokens', '50000', '--out', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Wrote 4 pages and index.md to ${dir}`);
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['001-p-0.md', '002-p-1.md', '003-p-2.md', '004-slow-page.md', 'index.md']);
    expect(await readFile(join(dir, '002-p-1.md'), 'utf8')).toMatch(/^# Page 1\n\nURL: .*\/p\/1\n\n/);
    const index = await readFile(join(dir, 'index.md'), 'utf8');
    expect(index).toContain(`1. [Page 0](001-p-0.md) — ${server.url('/p/0')}`);
    expect(index).toContain('- Tokens used: ');
    expect(index).toContain('of 50000 (max_tokens)');
  });

  it('--out with --json writes the pages and prints the JSON result alone on stdout', async () => {
    const dir = join(outDir, 'site-json');
    const run = await cli(['crawl', server.url('/p/0'), '--max-pages', '1', '--out', dir, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'ok', pages_read: 1 });
    expect(run.stderr).toContain(`Wrote 1 page and index.md to ${dir}`);
    expect((await readdir(dir)).sort()).toEqual(['001-p-0.md', 'index.md']);
  });

  it('stops on Ctrl-C, saves what was read and fetches nothing more', async () => {
    site.crawlDelaySeconds = 0.2;
    const dir = join(outDir, 'interrupted');
    const child = spawn(process.execPath, [CLI_PATH, 'crawl', server.url('/p/0'), '--max-pages', '200', '--out', dir], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const before = totalHits();
    try {
      // Interrupt once the crawl is under way (a fixed wait raced the CLI's start-up on a busy machine).
      while (totalHits() - before < 4) await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      const atExit = totalHits();
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(totalHits()).toBe(atExit);
      expect(stdout).toContain('- Stopped: cancelled');
      const pages = (await readdir(dir)).filter((name) => name !== 'index.md');
      expect(pages.length).toBeGreaterThan(0);
      expect(pages.length).toBeLessThan(20);
      expect(await readFile(join(dir, 'index.md'), 'utf8')).toContain(`- Pages read: ${pages.length} (max_pages 200)`);
    } finally {
      site.crawlDelaySeconds = 0.01;
      child.kill('SIGKILL');
    }
  });

  it('exits 1 when nothing could be read', async () => {
    const run = await cli(['crawl', server.url('/status/500')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('HTTP_STATUS');
  });

  it('says a site that refuses connections could not be read: an error, not robots.txt, not "every URL visited"', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/`;
    const cliEnv = { ...env(), ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${port}` };
    const text = await runCli(['crawl', url], cliEnv);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      new RegExp(`- Stopped: nothing could be read: the start page failed \\(CONNECT_FAILED: Failed to connect to `),
    );
    // The start page's own error, at its URL (issue 23): not "Failed to connect to …/robots.txt".
    expect(text.stdout).toContain(`the start page failed (CONNECT_FAILED: Failed to connect to ${url}:`);
    expect(text.stdout).toContain(`### Errors (1)\n\n- ${url} — CONNECT_FAILED: Failed to connect to ${url}:`);
    expect(text.stdout).not.toContain('/robots.txt:');
    expect(text.stdout).not.toContain('Skipped for robots.txt');
    expect(text.stdout).not.toContain('every URL in scope was visited');

    const json = await runCli(['crawl', url, '--json'], cliEnv);
    const result = JSON.parse(json.stdout) as CrawlToolResult;
    expect(result).toMatchObject({ status: 'error', stop_reason: 'frontier_empty', pages_read: 0 });
    expect(result.skipped.robots).toEqual([]);
    expect(result.skipped.errors).toEqual([expect.objectContaining({ url, code: 'CONNECT_FAILED' })]);
  });

  it('names the URL asked for, not robots.txt, when the guard refuses the address or the port refuses: crawl and map', async () => {
    // Issue 23 item 9: robots.txt is asked first, and its failure was said at robots.txt's URL.
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/docs/`;
    const refused = `Refusing to fetch ${url}: 127.0.0.1 is loopback`;

    const crawl = await runCli(['crawl', url], env()); // the port is not in ALLOW_PRIVATE_HOSTS
    expect(crawl.code).toBe(1);
    expect(crawl.stdout).toContain(`the start page failed (PRIVATE_ADDRESS: ${refused}`);
    expect(crawl.stdout).toContain(`- ${url} — PRIVATE_ADDRESS: ${refused}`);
    expect(crawl.stdout).toContain('(robots.txt, asked first, failed alike)');
    expect(crawl.stdout).not.toContain('/robots.txt:');

    const map = await runCli(['map', url], env());
    expect(map.code).not.toBe(0);
    expect(map.stderr).toContain(refused);
    expect(map.stderr).not.toContain('/robots.txt:');

    const allowed = { ...env(), ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:${port}` };
    const mapRefused = await runCli(['map', url], allowed);
    expect(mapRefused.code).not.toBe(0);
    expect(mapRefused.stderr).toContain(`Failed to connect to ${url}: `);
    expect(mapRefused.stderr).not.toContain('/robots.txt:');
  });

  it('draws a progress line that fits a 40-column terminal and shows the page being read before the first is in', async () => {
    // A real pseudo-terminal (util-linux script), 40 columns wide: what a person sees.
    const command = `stty cols 40 rows 20; exec '${process.execPath}' '${CLI_PATH}' crawl '${server.url('/p/0')}' --max-pages 3`;
    const screen = await new Promise<string>((resolve, reject) =>
      execFile('script', ['-qec', command, '/dev/null'], { env: env() }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    const paints = screen
      .split('\r\x1b[2K')
      .slice(1)
      .map((paint) => paint.split(/[\r\n]/)[0]!);
    expect(paints.length).toBeGreaterThan(2);
    for (const line of paints) expect(line.length, line).toBeLessThanOrEqual(39);
    expect(paints[0]).toBe('0s · starting');
    // Before any page was counted, the line already said which page was being read.
    const firstCount = paints.findIndex((line) => / pages/.test(line));
    expect(paints.slice(0, firstCount)).toContainEqual(
      expect.stringMatching(/^\d+s · reading 127\.0\.0\.1:\d+\/p\/0$/),
    );
    expect(paints.at(-1)).toMatch(/^3\/3 pages · /);
    expect(screen).toContain('## [3] Page 2');
  });

  it('stops at --max-seconds, prints how to continue, and --continue ID reads the rest', async () => {
    let firstCall = true;
    const hangWhile = () => firstCall; // page 2 hangs in the first call only, whenever (or if) that call asks for it
    const paths = addSlowTree(server, { count: 20, delayMs: 150, hangOnce: 2, hangWhile, prefix: '/cli-tree' });
    const first = await cli(['crawl', server.url(paths[0]!), '--max-seconds', '2', '--json']);
    firstCall = false;
    expect(first.code).toBe(0);
    const one = JSON.parse(first.stdout) as CrawlToolResult;
    expect(one.stop_reason).toBe('time_limit');
    // Page 2 hangs at the head of the frontier: at most pages 0 and 1 are read (fewer on a loaded machine).
    expect(one.pages_read).toBeLessThanOrEqual(2);
    expect(one.continue_from).toMatch(/^[0-9a-f-]{36}$/);

    // A limit far above what the rest takes, even on a loaded machine: the frontier empties first.
    const second = await cli(['crawl', '--continue', one.continue_from!, '--max-seconds', '600']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('- Stopped: every URL in scope was visited');
    const read = [...second.stdout.matchAll(/^URL: .*(\/cli-tree\/\d+)$/gm)].map((match) => match[1]);
    const all = [...one.pages.map((page) => new URL(page.url).pathname), ...read];
    expect([...all].sort()).toEqual([...paths].sort());
    expect(second.stdout).toContain(`## [${one.pages_read + 1}] Tree ${one.pages_read}`); // numbered after the first

    // One crawl, one id (issue 23): the crawl is complete now, and its id says so, with advice.
    const again = await cli(['crawl', '--continue', one.continue_from!]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('this crawl is complete');
  });

  it('prints the --continue command in the text summary', async () => {
    const paths = addSlowTree(server, { count: 10, delayMs: 150, hangOnce: 1, prefix: '/cli-tree2' });
    const run = await cli(['crawl', server.url(paths[0]!), '--max-seconds', '1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('- Stopped: time limit (max_seconds 1)');
    expect(run.stdout).toMatch(/- To continue: web-reader crawl --continue [0-9a-f-]{36}\n/);
  });
});

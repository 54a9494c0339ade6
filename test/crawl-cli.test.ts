// `web-reader crawl` as a person uses it: the built binary against the generated loopback site.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCrawlSite, crawlSitePaths } from './crawl-site.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { CLI_PATH } from './mcp/stdio-client.js';

let server: FixtureServer;
let outDir: string;
const site = { crawlDelaySeconds: 0.01 };

function env(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0' };
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_PATH, ...args], { env: env(), timeout: 30000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function totalHits(): number {
  return crawlSitePaths().reduce((sum, path) => sum + server.hits(path), 0);
}

beforeAll(async () => {
  server = await startFixtureServer();
  addCrawlSite(server, site);
  outDir = await mkdtemp(join(tmpdir(), 'web-reader-crawl-'));
});

afterAll(async () => {
  await server?.close();
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
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
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
});

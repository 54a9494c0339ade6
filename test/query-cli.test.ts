// --query on the command line (issue 26 item 3): read and crawl print only the passages that best answer it.
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { addQueryPages, CONFIG, LIGHTHOUSE, LINUX } from './query-pages.js';
import { useFixtureServer } from './use-fixture-server.js';

const server = useFixtureServer(addQueryPages);
const cli = (args: string[]) => runCli(args, { ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0' });

describe('--query', () => {
  it('read prints the answering section first under its heading path, then the note line', async () => {
    const run = await cli(['read', server.url('/q/manual'), '--query', 'linux apt package']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`## Install › Linux\n\n${LINUX}`);
    expect(run.stdout).not.toContain(CONFIG);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^<note>\d+ of 6 passages shown for query "linux apt/);
  });

  it('read of a page without headings narrows it to a passage', async () => {
    const run = await cli(['read', server.url('/q/essay'), '--query', 'lighthouse lamp']);
    expect(run.stdout).toContain(LIGHTHOUSE);
    expect(run.stdout).not.toContain('Part 1 of the story');
  });

  it('crawl --query narrows each page', async () => {
    const run = await cli(['crawl', server.url('/q/manual'), '--max-depth', '0', '--query', 'linux apt']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`### Install › Linux\n\n${LINUX}`);
    expect(run.stdout).not.toContain(CONFIG);
  });

  it('an empty --query exits 2 naming the flag, with no request made', async () => {
    const hits = server.hits('/q/essay');
    const run = await cli(['read', server.url('/q/essay'), '--query', '']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--query must not be empty');
    expect(server.hits('/q/essay')).toBe(hits);
  });
});

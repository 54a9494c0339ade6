// The CLI as a person or a script uses it: the built binary, real arguments, stdout, stderr and exit codes.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useFixtureServer } from './use-fixture-server.js';
import { CLI_PATH } from './mcp/stdio-client.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_PATH, ...args],
      { env: { PATH: process.env.PATH ?? '', ALLOW_PRIVATE_HOSTS: server.hostPort, ...env }, timeout: 15000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const LONG = `<html><head><title>Long</title></head><body><article><h1>Long page</h1>${'<p>Every sentence in this paragraph is here to make the page long enough to need a cap on the number of tokens.</p>'.repeat(60)}</article></body></html>`;

const server = useFixtureServer((server) => {
  server.route('/long', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(LONG);
  });
});

describe('web-reader read', () => {
  it('prints the main content as Markdown and exits 0', async () => {
    const run = await cli(['read', server.url('/long')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('# Long page');
    expect(run.stderr).toBe('');
  });

  it('--json prints a machine-readable result with the status', async () => {
    const run = await cli(['read', server.url('/long'), '--json', '--max-length', '100']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; next_start_index: number; text: string };
    expect(result).toMatchObject({ status: 'ok', truncated: true, next_start_index: 100 });
    expect(result.text).toContain('limited to 100 characters');
  });

  it('caps an unlimited result at MAX_OUTPUT_TOKENS with a continuation notice', async () => {
    const run = await cli(['read', server.url('/long')], { MAX_OUTPUT_TOKENS: '60' });
    expect(run.stdout).toMatch(/call fetch again with start_index=\d+ to continue/);
    expect(run.stdout).toContain('MAX_OUTPUT_TOKENS');
  });

  it('a failure goes to stderr with exit code 1', async () => {
    const run = await cli(['read', server.url('/status/500')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('500');
  });

  it('a script shell exits 3 with the needs_js status', async () => {
    server.route('/spa', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><div id="app"></div><script src="/x.js"></script></body></html>');
    });
    const run = await cli(['read', server.url('/spa')]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^Status: needs_js/);
  });
});

describe('usage errors exit 2 and name what is wrong', () => {
  it.each<[string, string[], string, Record<string, string>?]>([
    ['an unknown tool', ['serve', '--tools', 'fetch,nope'], "Unknown tool 'nope'"],
    ['a bad environment value', ['read', 'http://example.test/'], 'FETCH_TIMEOUT', { FETCH_TIMEOUT: 'soon' }],
    ['a bad flag value', ['read', 'http://example.test/', '--max-length', '-1'], '--max-length'],
    ['an unknown command', ['fly'], "Unknown command 'fly'"],
    ['an unknown flag', ['read', '--bogus'], "Unknown option '--bogus'. Run web-reader --help."],
  ])('%s', async (_name, args, message, env = {}) => {
    const run = await cli(args, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('--help lists the commands', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('web-reader read <url>');
  });
});

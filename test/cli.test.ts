// The CLI as a person or a script uses it: the built binary, real arguments, stdout, stderr and exit codes.
import { describe, expect, it } from 'vitest';
import { useFixtureServer } from './use-fixture-server.js';
import { respondWith } from './fixture-server.js';
import { runCli, type CliRun } from './run-cli.js';
import { spawn } from 'node:child_process';
import { CLI_PATH } from './mcp/stdio-client.js';

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { ALLOW_PRIVATE_HOSTS: server.hostPort, ...env });
}

const LONG = `<html><head><title>Long</title></head><body><article><h1>Long page</h1>${'<p>Every sentence in this paragraph is here to make the page long enough to need a cap on the number of tokens.</p>'.repeat(60)}</article></body></html>`;

const SPA = '<html><body><div id="app"></div><script src="/x.js"></script></body></html>';

const server = useFixtureServer((server) => {
  server.route('/long', respondWith('text/html', LONG));
  server.route('/spa', respondWith('text/html', SPA));
  // About 3 MB of Markdown: far more than a pipe holds, so the writer meets the closed end.
  const paragraphs = Array.from(
    { length: 3000 },
    (_, n) => `<p>${`Sentence ${n} of a very long page. `.repeat(30)}</p>`,
  );
  server.route(
    '/huge',
    respondWith('text/html', `<html><body><article><h1>Huge</h1>${paragraphs.join('')}</article></body></html>`),
  );
});

describe('web-reader read', () => {
  it('into a pipe closed early (read URL | head) ends quietly with 0, no EPIPE stack trace', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'read', server.url('/huge')], {
      env: { PATH: process.env.PATH ?? '', ALLOW_PRIVATE_HOSTS: server.hostPort, MAX_OUTPUT_TOKENS: '0' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like `head -c 100`: read the first bytes, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });

  // The exit codes of `read`, one row each: where the answer goes and what it says.
  it.each<[string, string, Partial<CliRun>]>([
    [
      'prints the main content as Markdown and exits 0',
      '/long',
      { code: 0, stdout: expect.stringContaining('# Long page'), stderr: '' },
    ],
    [
      'a failure goes to stderr with exit code 1',
      '/status/500',
      { code: 1, stdout: '', stderr: expect.stringContaining('500') },
    ],
    [
      'a script shell read as served (--render never) exits 3 with the needs_js status',
      '/spa --render never',
      // The way out in the words of the command line: the flag, not the tool's argument.
      {
        code: 3,
        stdout: expect.stringMatching(/^Status: needs_js.* call again with --render auto or --render always to read/),
      },
    ],
  ])('%s', async (_name, path, expected) => {
    const [pathname, ...flags] = path.split(' ');
    expect(await cli(['read', server.url(pathname!), ...flags])).toMatchObject(expected);
  });

  it('--json prints a machine-readable result with the status', async () => {
    const run = await cli(['read', server.url('/long'), '--json', '--max-length', '100']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; next_start_index: number; text: string };
    expect(result).toMatchObject({ status: 'ok', truncated: true, next_start_index: 100 });
    expect(result.text).toContain('limited to 100 characters');
  });

  it('caps an unlimited result at MAX_OUTPUT_TOKENS and says on stderr how to read on with CLI flags', async () => {
    const run = await cli(['read', server.url('/long')], { MAX_OUTPUT_TOKENS: '60' });
    expect(run.code).toBe(0);
    // The tool's notice speaks to an agent ("call fetch again with start_index"); a person gets flags instead.
    expect(run.stdout).not.toMatch(/start_index|Content truncated/);
    const next =
      /^web-reader: cut by MAX_OUTPUT_TOKENS at character (\d+) of (\d+)\. To read on, run the same command with --start-index \1; for the whole page, --max-output-tokens 0\.$/m.exec(
        run.stderr,
      );
    expect(next).not.toBeNull();
    // The flags it names do read on: the rest starts where the first part ended.
    const rest = await cli(['read', server.url('/long'), '--start-index', next![1]!, '--max-output-tokens', '0']);
    expect(rest.code).toBe(0);
    expect(rest.stderr).toBe('');
    expect(run.stdout.length + rest.stdout.length).toBeGreaterThan(Number(next![2]));
  });
});

describe('usage errors exit 2 and name what is wrong', () => {
  it.each<[string, string[], string, Record<string, string>?]>([
    ['an unknown tool', ['serve', '--tools', 'fetch,nope'], "Unknown tool 'nope'"],
    ['a bad environment value', ['read', 'http://example.test/'], 'FETCH_TIMEOUT', { FETCH_TIMEOUT: 'soon' }],
    ['a bad flag value', ['read', 'http://example.test/', '--max-length', '-1'], '--max-length'],
    ['an unknown command', ['fly'], "Unknown command 'fly'"],
    ['an unknown flag', ['read', '--bogus'], "Unknown option '--bogus'. Run web-reader read --help."],
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

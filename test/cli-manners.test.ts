// The command line's manners (issue 15 item 3), as a person meets them: the built binary, its stdout, stderr and
// exit code. Per-command help, one clear line and exit 2 for every usage mistake, https:// for a URL typed without
// a scheme, a tool's complaint about an argument named by its flag, exit 3 when a selector matched nothing.
import { describe, expect, it } from 'vitest';
import { respondWith } from './fixture-server.js';
import { runCli, type CliRun } from './run-cli.js';
import { useFixtureServer } from './use-fixture-server.js';

const server = useFixtureServer((server) => {
  server.route(
    '/page',
    respondWith('text/html', '<html><body><article><h1>A page</h1><p>Some words to read.</p></article></body></html>'),
  );
});

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { ALLOW_PRIVATE_HOSTS: server.hostPort, ...env });
}

/** A usage error: exit 2, nothing on stdout, one line on stderr. */
function expectUsageLine(run: CliRun): string {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^web-reader: /);
  return lines[0]!;
}

describe('web-reader <command> --help', () => {
  // Written out here, not read from the flag table: the help must list each of these.
  const EXPECTED: Record<string, string[]> = {
    read: ['--json', '--raw', '--explain', '--max-length N', '--start-index N', '--section HEADING', '--selector CSS'],
    links: ['--json', '--max-links N', '--no-titles', '--header "Name: value"', '--max-age N'],
    map: ['--json', '--max-urls N', '--search TEXT'],
    scrape: ['--include-html', '--include-chunks', '--chunk-size N', '--render MODE', '--wait-for SELECTOR'],
    crawl: [
      '--json',
      '--allowed-domains LIST',
      '--include GLOB',
      '--exclude GLOB',
      '--max-depth N',
      '--max-pages N',
      '--max-tokens N',
      '--max-seconds N',
      '--out DIR',
      '--continue ID',
      '--exclude-selector CSS',
    ],
    serve: ['--http', '--host HOST', '--port N', '--token T', '--tools LIST'],
  };

  it.each(Object.entries(EXPECTED))('%s --help lists every flag of the command', async (command, flags) => {
    const run = await cli([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^web-reader ${command} — `));
    for (const flag of [...flags, '--timeout MS', '--user-agent UA', '--max-output-tokens N']) {
      expect(run.stdout).toContain(`\n  ${flag} `);
    }
  });

  it("a command's help does not list another command's flags", async () => {
    const run = await cli(['links', '--help']);
    expect(run.stdout).not.toContain('--max-length');
    expect(run.stdout).not.toContain('--allowed-domains');
  });

  it('web-reader --help names every command and how to get its flags', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['serve', 'read <url>', 'links <url>', 'map <url>', 'scrape <url>', 'crawl <url>']) {
      expect(run.stdout).toContain(`web-reader ${command}`);
    }
    expect(run.stdout).toContain('web-reader <command> --help');
  });
});

describe('usage mistakes: one line, exit 2', () => {
  it.each<[string, string[], string]>([
    [
      'a mistyped flag, with the one it meant',
      ['read', 'http://example.test/', '--max-lenght', '5'],
      "web-reader: Unknown option '--max-lenght' — did you mean --max-length? Run web-reader read --help.",
    ],
    [
      'a camel-cased flag',
      ['crawl', 'http://example.test/', '--maxPages', '5'],
      "web-reader: Unknown option '--maxPages' — did you mean --max-pages? Run web-reader crawl --help.",
    ],
    ['--timeout 0', ['read', 'http://example.test/', '--timeout', '0'], "--timeout must be an integer ≥ 1, got '0'."],
    ['--port 99999', ['serve', '--http', '--port', '99999'], "--port must be an integer from 0 to 65535, got '99999'."],
    [
      'a flag without its value',
      ['read', 'http://example.test/', '--timeout'],
      '--timeout needs a value: --timeout MS.',
    ],
    [
      "another command's flag",
      ['links', 'http://example.test/', '--max-length', '10'],
      '--max-length applies to read only, not to links. Run web-reader links --help.',
    ],
    ['a mistyped command', ['raed', 'http://example.test/'], "Unknown command 'raed' — did you mean read?"],
    ['two URLs', ['links', 'http://a.test/', 'http://b.test/'], 'links takes exactly one URL; 2 were given.'],
    // read takes several (read_many), at most 20.
    [
      '21 URLs to read',
      ['read', ...Array.from({ length: 21 }, (_, n) => `http://a.test/${n}`)],
      'urls takes at most 20 URLs; 21 were given.',
    ],
    [
      'a bad value a tool refuses, named by its flag',
      ['read', 'http://example.test/', '--render', 'sometimes'],
      'web-reader: --render must be one of',
    ],
    ['--max-pages below its bound', ['crawl', 'http://example.test/', '--max-pages', '0'], '--max-pages must be an'],
    [
      'a negative number (which the parser would take for a flag)',
      ['read', 'http://example.test/', '--max-length', '-5'],
      "--max-length must be an integer ≥ 0, got '-5'.",
    ],
    [
      '--port without --http (it would be ignored)',
      ['serve', '--port', '3001'],
      '--port applies to serve --http only; without --http the server speaks MCP on stdio.',
    ],
    [
      'an empty list entry, named by its flag, not by the tool argument',
      ['crawl', 'http://example.test/', '--allowed-domains', ''],
      'web-reader: --allowed-domains entries must not be empty. Run web-reader crawl --help.',
    ],
    [
      'a URL of another scheme',
      ['read', 'ftp://example.test/x'],
      "Only http and https URLs can be fetched, got 'ftp:'",
    ],
    [
      'an unknown crawl id, in the words of the command line',
      ['crawl', '--continue', 'bogusid'],
      "--continue 'bogusid' is unknown or expired",
    ],
  ])('%s', async (_name, args, message) => {
    const line = expectUsageLine(await cli(args));
    expect(line).toContain(message);
    expect(line).not.toContain('Invalid arguments for tool');
  });

  it('nothing is fetched when the command line is wrong', async () => {
    const before = server.hits('/page');
    expectUsageLine(await cli(['read', server.url('/page'), '--max-age', 'soon']));
    expect(server.hits('/page')).toBe(before);
  });
});

describe('URLs as people type them', () => {
  it('a URL without a scheme is read over https', async () => {
    // The fixture server speaks plain HTTP, so the https:// read fails, and the error names the URL it tried.
    const run = await cli(['read', `${server.hostPort}/page`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`https://${server.hostPort}/page`);
    expect(server.hits('/page')).toBe(0);
  });

  it('when the guessed https:// fails, says that http:// must be given', async () => {
    const run = await cli(['read', `${server.hostPort}/page`]);
    expect(run.stderr).toContain(
      `web-reader: ${server.hostPort}/page has no scheme, so https://${server.hostPort}/page was read; for plain HTTP, give http:// yourself.`,
    );
  });

  it('a URL with its scheme is read as given', async () => {
    const run = await cli(['read', server.url('/page')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Some words to read.');
  });
});

describe('exit codes', () => {
  it('3 when --selector matches nothing: fetched, but nothing to read', async () => {
    const run = await cli(['read', server.url('/page'), '--selector', '.nowhere']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('selector ".nowhere" matched nothing');
  });
});

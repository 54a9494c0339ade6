// Issue 6 through the built CLI: `web-reader read <url>` for each content type, stdout and exit code.
import { describe, expect, it } from 'vitest';
import { useFixtureServer } from './use-fixture-server.js';
import { addContentRoutes, longPdfLine } from './fixtures/content/routes.js';
import { runCli, type CliRun } from './run-cli.js';
import { TEST_TESSERACT_PATH } from './ocr-available.js';

function read(path: string, flags: string[] = [], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(
    ['read', server.url(path), ...flags],
    { ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0', ...env },
    { maxBufferBytes: 4 * 1024 * 1024 },
  );
}

const server = useFixtureServer((server) => {
  addContentRoutes(server);
});

describe('web-reader read, by content type', () => {
  it.each([
    ['a multi-page PDF', '/report.pdf', 0, /^## Page 1\n\nAnnual Report 2025\n[^]*## Page 3\n\nPage three: the delta/m],
    ['a PDF served as application/octet-stream', '/report-octet', 0, /## Page 2\n\nPage two: flows rose/],
    ['an encrypted PDF', '/encrypted.pdf', 3, /^Status: empty — \S+ is an encrypted PDF .* needs a password/],
    TEST_TESSERACT_PATH
      ? ['an image-only PDF', '/scanned.pdf', 3, /^Status: empty — \S+ is a PDF of 3 pages .*OCR found no text/]
      : ['an image-only PDF', '/scanned.pdf', 3, /^Status: needs_ocr — \S+ holds its text only in pictures/],
    [
      'an RSS feed',
      '/feed.rss',
      0,
      /^- \[Summer drought warning\]\(https:\/\/rivers\.example\/posts\/drought\) — 2026-04-14/m,
    ],
    ['an Atom feed', '/atom.xml', 0, /^- \[Newer entry\]\(https:\/\/delta\.example\/newer\)/m],
    ['llms.txt', '/llms.txt', 0, /^# River Authority\n\n> Data about rivers\./m],
    ['a page with a Markdown twin', '/guide', 0, /text\/markdown alternate\.\)\n\n# Guide \(from the twin\)/],
    ['JSON', '/data', 0, /^ {2}"river": "Delta",$/m],
    ['other XML', '/config.xml', 0, /^```xml\n<\?xml version="1\.0"\?>/m],
    TEST_TESSERACT_PATH
      ? [
          'a PNG served as text/html',
          '/png-as-html',
          3,
          /^Status: empty — \S+ is an image \(image\/png\) in which OCR found no text/,
        ]
      : ['a PNG served as text/html', '/png-as-html', 3, /^Status: needs_ocr — \S+ holds its text only in pictures/],
    ['octet-stream with NUL bytes', '/nul-octet', 0, /^Binary content \(application\/octet-stream, 7 bytes\)/m],
    ['a 1 MB binary', '/big.bin', 0, /^Binary content \(application\/octet-stream, 1\.0 MB\) was not returned/m],
  ])('%s', async (_name, path, code, stdout) => {
    const run = await read(path);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(stdout);
    expect(run.code).toBe(code);
  });

  it('--json carries the PDF title and page count', async () => {
    const run = await read('/report.pdf', ['--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'ok', title: 'Annual Report', page_count: 3 });
  });

  it('--json carries the Markdown twin URL', async () => {
    const run = await read('/guide', ['--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'ok', markdown_twin: server.url('/guide.md') });
  });

  it('caps a long PDF at MAX_OUTPUT_TOKENS with a continuation notice, and --start-index continues it', async () => {
    // 160: the heading and the continuation notice count inside the cap too (src/output/truncate.ts capLimit).
    const first = await read('/long.pdf', [], { MAX_OUTPUT_TOKENS: '160' });
    expect(first.stdout).toContain(longPdfLine(1));
    expect(first.stdout).not.toContain(longPdfLine(40));
    // The CLI says how to read on with its own flags, on stderr, not the tool's "call fetch again".
    expect(first.stdout).not.toContain('start_index');
    const next = Number(/run the same command with --start-index (\d+)/.exec(first.stderr)?.[1]);
    expect(next).toBeGreaterThan(0);
    const second = await read('/long.pdf', ['--start-index', String(next), '--max-length', '200']);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain(`## Page 1\n`);
  });

  it('--max-length cuts PDF text and says on stderr how to read on', async () => {
    const run = await read('/long.pdf', ['--max-length', '120']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('Content truncated');
    expect(run.stderr).toMatch(
      /^web-reader: cut by --max-length at character \d+ of \d+\. To read on, run the same command with --start-index \d+; for the whole page, leave out --max-length\.$/m,
    );
  });
});

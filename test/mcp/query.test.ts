// Issue 26 item 3 through a real MCP client over stdio: `query` on fetch, read_url and crawl returns only the passages
// that best answer it, best first, each under its heading path, and one line naming what was left out.
import { describe, expect, it } from 'vitest';
import { addQueryPages, CONFIG, LIGHTHOUSE, LINUX, TROUBLE, WINDOWS } from '../query-pages.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({ tools: 'all', setup: addQueryPages });

const errorCode = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;

describe('query', () => {
  it('fetch returns the section that answers first, under its heading path, and one line for the rest', async () => {
    const result = await session.call('fetch', { url: server.url('/q/manual'), query: 'install on linux with apt' });
    expect(result.isError).toBeFalsy();
    const text = result.text;
    expect(text).toContain(`## Install › Linux\n\n${LINUX}`);
    // The first passage shown is the Linux one; the sections about other things are left out.
    const first = /^## (.+)$/m.exec(text)?.[1];
    expect(first).toBe('Install › Linux');
    expect(text).not.toContain(CONFIG);
    expect(text).not.toContain(TROUBLE);
    const notes = text.split('\n').filter((line) => line.startsWith('<note>'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^<note>\d+ of 6 passages shown for query "install on linux with apt", best first; /);
    // The rest named: the sections left out by their headings, which `section` takes.
    expect(notes[0]).toContain(
      '5 of 6 sections not shown at all ("Install", "Windows", "Configuration", "Troubleshooting"): read a section ' +
        'whole with section="<its heading>"',
    );
    expect(result.structuredContent).toMatchObject({
      status: 'ok',
      query: {
        query: 'install on linux with apt',
        passages: [{ path: ['Install', 'Linux'], part: 1, parts: 1 }],
        sections_total: 6,
      },
    });
  });

  it('read_many narrows every page it reads to the passages that answer, under the page headers', async () => {
    const urls = [server.url('/q/manual'), server.url('/q/manual?copy=2')];
    const result = await session.call('read_many', { urls, query: 'install on linux with apt' });
    expect(result.isError).toBeFalsy();
    const pages = result.text.split(/^## \[\d\/2\] /m).slice(1);
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      // A page's passages one level under its header line, the Linux one first, and its one note line.
      expect(/^### (.+)$/m.exec(page)?.[1]).toBe('Install › Linux');
      expect(page).toContain(LINUX);
      expect(page).not.toContain(CONFIG);
      expect(page.split('\n').filter((line) => line.startsWith('<note>'))).toHaveLength(1);
    }
  });

  it('read_many cuts a narrowed page to share the budget, and says to read its answer alone, not a start_index', async () => {
    const urls = [server.url('/q/manual?cut=1'), server.url('/q/manual?cut=2')];
    const result = await session.call('read_many', { urls, query: 'install on linux with apt', max_tokens: 300 });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('call fetch with this URL and the same query for its whole answer.');
    expect(result.text).not.toMatch(/start_index=\d+/);
    const pages = (result.structuredContent as { pages: Record<string, unknown>[] }).pages;
    expect(pages.some((page) => page.truncated === true)).toBe(true);
    expect(pages.every((page) => page.next_start_index === undefined)).toBe(true);
  });

  it('read_url ranks the same way, under its header with the whole page counted', async () => {
    const result = await session.call('read_url', { url: server.url('/q/manual'), query: 'windows msi installer' });
    expect(result.text).toMatch(/^Title: Widget manual\n/);
    expect(result.text).toContain(`## Install › Windows\n\n${WINDOWS}`);
    expect(result.text).not.toContain(LINUX.slice(0, 30) + '.'); // the Linux passage scores below half the best
    expect(result.text).toMatch(/<note>\d+ of 6 passages shown for query "windows msi installer"/);
  });

  it('with section, ranks within that section only', async () => {
    const result = await session.call('fetch', { url: server.url('/q/manual'), section: 'Install', query: 'port' });
    // "port" is the Configuration section's word, outside Install: nothing in the section has it.
    expect(result.text).toContain('No passage of the page has a word of query "port", so its opening is shown');
    expect(result.text).not.toContain(CONFIG);
    const windows = await session.call('fetch', {
      url: server.url('/q/manual'),
      section: 'install',
      query: 'windows installer',
    });
    expect(/^## (.+)$/m.exec(windows.text)?.[1]).toBe('Install › Windows');
    expect(windows.text).toMatch(
      /<note>1 of 3 passages shown .*; 2 left out, 2 of 3 sections not shown at all \("Install", "Linux"\)/,
    );
    expect(windows.structuredContent).toMatchObject({ section: { text: 'Install' }, query: { sections_total: 3 } });
  });

  it('a page without headings is cut into passages, and the one that answers is returned', async () => {
    const result = await session.call('fetch', { url: server.url('/q/essay'), query: 'lighthouse keeper lamp' });
    const heading = /^## (.+)$/m.exec(result.text)?.[1];
    expect(heading).toMatch(/^A harbour year \(part \d of \d\)$/);
    expect(result.text.indexOf(LIGHTHOUSE)).toBeLessThan(result.text.indexOf('<note>'));
    expect(result.text).not.toContain('Part 1 of the story');
    expect(result.text).toMatch(/<note>1 of \d passages shown .*left out: call again without query for the whole page/);
    expect(result.structuredContent).toMatchObject({ query: { sections_total: 1, sections_left_out: 0 } });
  });

  it('a Markdown document is ranked too, and its note does not offer section, which reads HTML', async () => {
    const result = await session.call('fetch', { url: server.url('/q/notes.md'), query: 'dark mode' });
    expect(result.text).toContain('## Version 2\n\nVersion 2 adds dark mode');
    expect(result.text).not.toContain('Version 1 was the first release');
    expect(result.text).toContain('("Version 1"): call again without query for the whole page.</note>');
    expect(result.text).not.toContain('section="');
  });

  it('max_length cuts the answer, not the note, and start_index continues it', async () => {
    const url = server.url('/q/manual');
    const whole = await session.call('fetch', { url, query: 'configuration settings' });
    const cut = await session.call('fetch', { url, query: 'configuration settings', max_length: 120 });
    expect(cut.structuredContent).toMatchObject({ truncated: true, next_start_index: 120 });
    expect(cut.text).toContain('<note>');
    expect(cut.text).toContain('start_index=120');
    const rest = await session.call('fetch', { url, query: 'configuration settings', start_index: 120 });
    const body = (text: string) => text.slice(text.indexOf('\n\n') + 2, text.indexOf('\n\n<note>'));
    expect(body(cut.text).slice(0, 120) + body(rest.text)).toBe(body(whole.text));
  });

  it('crawl answers the query on each page, within max_tokens', async () => {
    const url = server.url('/q/manual');
    const plain = await session.call('crawl', { url, max_depth: 0, max_tokens: 5000 });
    const asked = await session.call('crawl', { url, max_depth: 0, max_tokens: 5000, query: 'linux apt' });
    const page = (asked.structuredContent as { pages: { content: string; tokens: number }[] }).pages[0]!;
    expect(page.content).toContain(`### Install › Linux\n\n${LINUX}`);
    expect(page.content).not.toContain(CONFIG);
    expect(page.content).toMatch(/<note>\d+ of 6 passages shown for query "linux apt"/);
    const plainTokens = (plain.structuredContent as { tokens_used: number }).tokens_used;
    expect((asked.structuredContent as { tokens_used: number }).tokens_used).toBeLessThan(plainTokens);
    const tight = await session.call('crawl', { url, max_depth: 0, max_tokens: 60, query: 'linux apt' });
    expect((tight.structuredContent as { tokens_used: number }).tokens_used).toBeLessThanOrEqual(60);
  });

  it('an empty query is INVALID_ARGUMENT naming it, and nothing is fetched', async () => {
    const url = server.url('/q/essay');
    const before = server.hits('/q/essay');
    for (const query of ['', '   ']) {
      const result = await session.call('fetch', { url, query });
      expect(result.isError, JSON.stringify(query)).toBe(true);
      expect(errorCode(result)).toBe('INVALID_ARGUMENT');
      expect(result.text).toContain('query must not be empty');
    }
    const crawl = await session.call('crawl', { url, query: '' });
    expect(crawl.isError).toBe(true);
    expect(crawl.text).toContain('query must not be empty');
    expect(server.hits('/q/essay')).toBe(before);
  });

  it('query with raw is refused: the passages are of the Markdown', async () => {
    const result = await session.call('fetch', { url: server.url('/q/manual'), query: 'linux', raw: true });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('INVALID_ARGUMENT');
    expect(result.text).toContain('query ranks the passages of the Markdown');
  });
});

// The web tool (seeds/web-tool.md) through a real MCP client over stdio, against the loopback fixture server.
import { describe, expect, it } from 'vitest';
import { addSitePages, siteLines } from './site-pages.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({ tools: 'web', setup: addSitePages, env: { FETCH_TIMEOUT: '3000' } });

describe('web', () => {
  it('lists mode with its three values and max_length 0', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['web']);
    expect(tools[0]!.inputSchema.properties).toMatchObject({
      mode: { enum: ['markdown', 'raw', 'links'], default: 'markdown' },
      max_length: { type: 'integer', default: 0 },
    });
  });

  it('markdown mode: the seed heading and the extracted content', async () => {
    const url = server.url('/html');
    const result = await session.call('web', { url });
    expect(result.isError).toBeFalsy();
    expect(result.text.startsWith(`Contents of ${url}:\n\n`)).toBe(true);
    expect(result.text).not.toContain('<html');
  });

  it('markdown mode: appends the seed truncation notice at max_length', async () => {
    const result = await session.call('web', { url: server.url('/html'), max_length: 100 });
    expect(result.text).toContain(
      '\n\n<error>Content truncated. The output has been limited to 100 characters</error>',
    );
    expect(result.text).toContain('start_index=100');
  });

  it('raw mode returns the body as sent', async () => {
    const result = await session.call('web', { url: server.url('/site'), mode: 'raw' });
    expect(result.text).toContain('<nav><a href="/">Home</a>');
  });

  it('links mode: "All N links found on" and frequency order', async () => {
    const url = server.url('/site');
    const result = await session.call('web', { url, mode: 'links' });
    expect(result.text).toBe(`All 4 links found on ${url}\n\n${siteLines(server).join('\n')}`);
  });

  it('links mode: max_length adds whole lines until the next would exceed it, then the notice', async () => {
    const url = server.url('/site');
    const lines = siteLines(server);
    const heading = `All 4 links found on ${url}\n\n`; // counted in max_length, as the seed's "characters to return"
    const limit = heading.length + lines[0]!.length + 1 + lines[1]!.length + 5; // room for two lines, not three
    const result = await session.call('web', { url, mode: 'links', max_length: limit });
    const next = lines[0]!.length + lines[1]!.length + 2;
    expect(result.text).toBe(
      `All 4 links found on ${url}\n\n${lines[0]}\n${lines[1]}\n\n` +
        `<error>Content truncated. The output has been limited to ${limit} characters</error>\n` +
        `<error>${lines[2]!.length + lines[3]!.length + 1} more characters: call web again with start_index=${next} to continue.</error>`,
    );
    const rest = await session.call('web', { url, mode: 'links', start_index: next });
    expect(rest.text).toBe(`All 4 links found on ${url}\n\n${lines[2]}\n${lines[3]}`);
  });

  it('links mode: max_length counts the heading, so the text before the notice is within it', async () => {
    const url = server.url('/site');
    const result = await session.call('web', { url, mode: 'links', max_length: 120 });
    const [returned, notice] = result.text.split('\n\n<error>');
    expect(returned!.length).toBeLessThanOrEqual(120);
    expect(returned!.startsWith(`All 4 links found on ${url}\n\n`)).toBe(true);
    const shown = returned!.split('\n').slice(2);
    expect(shown.length).toBeGreaterThan(0);
    expect(siteLines(server).slice(0, shown.length)).toEqual(shown); // complete lines, in order
    expect(notice).toContain('Content truncated. The output has been limited to 120 characters');
    // The seed's "until the limit is met": the next line would not have fitted.
    expect(returned!.length + 1 + siteLines(server)[shown.length]!.length).toBeGreaterThan(120);
  });

  it('links mode: a max_length the whole text fits returns it all, with no notice', async () => {
    const url = server.url('/site');
    const whole = `All 4 links found on ${url}\n\n${siteLines(server).join('\n')}`;
    const exact = await session.call('web', { url, mode: 'links', max_length: whole.length });
    expect(exact.text).toBe(whole);
    const short = await session.call('web', { url, mode: 'links', max_length: whole.length - 1 });
    expect(short.text).toContain('<error>Content truncated.');
  });

  it('links mode: a page that was read and has no links says so', async () => {
    const url = server.url('/nolinks');
    const result = await session.call('web', { url, mode: 'links' });
    expect(result.text).toBe(
      `No links found on ${url}: the page was read, and none of its links leads to another page of its site.`,
    );
  });

  it('mode "pdf" is an error naming mode', async () => {
    const result = await session.call('web', { url: server.url('/site'), mode: 'pdf' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('mode');
    expect(result.text).toContain('"markdown", "raw" or "links"');
  });
});

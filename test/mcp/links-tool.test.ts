// The links tool (seeds/links-tool.md) through a real MCP client over stdio, against the loopback fixture server.
import { describe, expect, it } from 'vitest';
import { addSitePages, siteLines } from './site-pages.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({
  tools: 'fetch,links',
  setup: addSitePages,
  env: { FETCH_TIMEOUT: '3000' },
});

describe('links', () => {
  it('lists the seed arguments with their defaults', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['fetch', 'links']);
    const links = tools.find((tool) => tool.name === 'links')!;
    expect(links.description).toMatch(/^Fetch a list of links from a webpage\./);
    expect(links.inputSchema.properties).toMatchObject({
      url: { type: 'string' },
      max_links: { type: 'integer', default: 100 },
      titles: { type: 'boolean', default: true },
    });
    expect(links.inputSchema.required).toEqual(['url']);
  });

  it('orders same-site links by frequency, ties by first appearance, under the seed heading', async () => {
    const url = server.url('/site');
    const result = await session.call('links', { url });
    expect(result.isError).toBeFalsy();
    expect(result.text).toBe(`4 of 4 links found on ${url}\n\n${siteLines(server).join('\n')}`);
    expect(result.text).not.toContain('partner.example');
    expect(result.text).not.toContain('javascript:');
    expect(result.text).not.toContain('#top');
  });

  it('applies max_links after counting, and titles: false gives bare URLs', async () => {
    const url = server.url('/site');
    const result = await session.call('links', { url, max_links: 2, titles: false });
    expect(result.text).toBe(`2 of 4 links found on ${url}\n\n- ${server.url('/products')}\n- ${server.url('/')}`);
  });

  it('says a page that was read has no links, status ok (not that it may need JavaScript)', async () => {
    const url = server.url('/nolinks');
    const result = await session.call('links', { url });
    expect(result.isError).toBeFalsy();
    expect(result.text).toBe(
      `No links read on ${url}: the page was read, and none of its links leads to another page of its site.`,
    );
    expect(result.structuredContent).toMatchObject({ status: 'ok', total_links: 0 });
  });

  it('names the argument in validation errors', async () => {
    const result = await session.call('links', { url: server.url('/site'), max_links: 0 });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('max_links');
  });
});

describe('cache', () => {
  it('a second call within CACHE_TTL reaches the origin zero times, and other tools share the snapshot', async () => {
    const url = server.url('/site?cache');
    const first = await session.call('links', { url });
    expect(first.structuredContent).toMatchObject({ status: 'ok', from_cache: false });
    const second = await session.call('links', { url, titles: false });
    expect(second.structuredContent).toMatchObject({ status: 'ok', from_cache: true });
    const fetched = await session.call('fetch', { url });
    expect(fetched.structuredContent).toMatchObject({ from_cache: true });
    expect(fetched.text).toContain('Welcome');
    expect(server.hits('/site?cache')).toBe(1);
  });
});

// read_url and extract_links (seeds/url-reader-architecture.md) through a real MCP client over stdio.
import { describe, expect, it } from 'vitest';
import { addSitePages, html } from './site-pages.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({
  tools: 'url-reader',
  setup(server) {
    addSitePages(server);
    const paragraphs = Array.from(
      { length: 10 },
      (_, i) => `<p>Paragraph ${i}: ${'the river bends slowly. '.repeat(8)}</p>`,
    );
    server.route(
      '/long',
      html(
        `<html><head><title>Long River</title></head><body><article><h1>Long River</h1>${paragraphs.join('')}</article></body></html>`,
      ),
    );
    server.route(
      '/special-tokens',
      html(
        `<html><head><title>Tokenizers</title></head><body><article><h1>Tokenizers</h1>${'<p>A model ends a document with &lt;|endoftext|&gt; and stops there. </p>'.repeat(6)}</article></body></html>`,
      ),
    );
  },
  env: { FETCH_TIMEOUT: '3000', DEFAULT_MAX_LENGTH: '300' },
});

describe('read_url', () => {
  it('is offered by the url-reader preset with its seed arguments', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['read_url', 'crawl', 'extract_links']);
    expect(Object.keys(tools[0]!.inputSchema.properties ?? {})).toEqual([
      'url',
      'max_length',
      'include_links',
      'start_index',
      'render',
      'wait_for',
      'selector',
      'exclude_selectors',
      'section',
    ]);
  });

  it('puts a metadata header above the Markdown and cuts at DEFAULT_MAX_LENGTH', async () => {
    const url = server.url('/long');
    const result = await session.call('read_url', { url });
    expect(result.isError).toBeFalsy();
    const [header, rule] = result.text.split('\n\n');
    expect(header).toMatch(
      new RegExp(
        `^Title: .+\\nURL: ${url.replace(/[.?]/g, '\\$&')}\\nWords: \\d+ \\| Tokens: \\d+ \\| Status: ok \\(truncated\\)$`,
      ),
    );
    expect(header).toContain('Title: Long River');
    expect(rule).toBe('---');
    expect(result.text).toContain('<error>Content truncated. The output has been limited to 300 characters</error>');
    expect(result.text).toContain('call read_url again with start_index=300');
  });

  it('reads a page that quotes a special token of the tokenizer as plain text', async () => {
    const result = await session.call('read_url', { url: server.url('/special-tokens'), max_length: 0 });
    expect(result.isError).toBeFalsy();
    expect(result.text).toMatch(/Tokens: [1-9]\d* \| Status: ok$/m);
    expect(result.text).toContain('<|endoftext|>');
  });

  it('include_links appends the page links', async () => {
    const result = await session.call('read_url', { url: server.url('/site'), include_links: true, max_length: 0 });
    expect(result.text).toContain(`## Links\n\n- [Home](${server.url('/')})`);
    expect(result.text).toContain(`- [a partner](https://partner.example/)`);
    expect(result.text).toMatch(/Status: (ok|from_cache)$/m);
  });
});

describe('extract_links', () => {
  it('groups internal and external links with anchor text', async () => {
    const url = server.url('/site');
    const result = await session.call('extract_links', { url });
    expect(result.text).toBe(
      [
        `Links found on ${url} (filter: all): 4 internal, 1 external`,
        '',
        '## Internal links (4)',
        '',
        `- [Home](${server.url('/')})`,
        `- [Products](${server.url('/products')})`,
        `- [About Us](${server.url('/about')})`,
        `- [Blog](${server.url('/blog')})`,
        '',
        '## External links (1)',
        '',
        '- [a partner](https://partner.example/)',
      ].join('\n'),
    );
  });

  it('filter internal / external keeps one group', async () => {
    const url = server.url('/site');
    const internal = await session.call('extract_links', { url, filter: 'internal' });
    expect(internal.text).toContain('## Internal links (4)');
    expect(internal.text).not.toContain('External');
    const external = await session.call('extract_links', { url, filter: 'external' });
    expect(external.text.split('\n')[0]).toBe(`Links found on ${url} (filter: external): 1 external`);
    expect(external.text).not.toContain('Internal');
  });

  it('filter "some" is an error naming filter', async () => {
    const result = await session.call('extract_links', { url: server.url('/site'), filter: 'some' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('filter');
  });
});

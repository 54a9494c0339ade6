// links and extract_links list a feed's entry links (issue 6), through a real MCP client over stdio.
import { expect, it } from 'vitest';
import { addContentRoutes } from '../fixtures/content/routes.js';
import { useMcpSession } from './session.js';

const { server, session } = useMcpSession({ tools: 'links,extract_links', setup: addContentRoutes });

it('links lists the same-site entry links of an RSS feed with their titles', async () => {
  const result = await session.call('links', { url: server.url('/feed.rss') });
  expect(result.isError).toBeFalsy();
  expect(result.text).toMatch(
    new RegExp(`^1 of 1 links found on ${server.url('/feed.rss')}\n\n- .+: ${server.url('/posts/spring-floods')}$`),
  );
});

it('extract_links lists every entry link of a feed, internal and external', async () => {
  const result = await session.call('extract_links', { url: server.url('/feed.rss') });
  expect(result.isError).toBeFalsy();
  expect(result.text).toContain(server.url('/posts/spring-floods'));
  expect(result.text).toContain('https://rivers.example/posts/winter-ice');
});

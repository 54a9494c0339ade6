// links and extract_links list a feed's entry links (issue 6), through a real MCP client over stdio.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixture-server.js';
import { addContentRoutes } from '../fixtures/content/routes.js';
import { connectStdio, type StdioSession } from './stdio-client.js';

let server: FixtureServer;
let session: StdioSession;

beforeAll(async () => {
  server = await startFixtureServer();
  addContentRoutes(server);
  session = await connectStdio(['--tools', 'links,extract_links'], {
    ALLOW_PRIVATE_HOSTS: server.hostPort,
    PER_DOMAIN_INTERVAL: '0',
  });
});

afterAll(async () => {
  await session?.close();
  await server?.close();
});

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

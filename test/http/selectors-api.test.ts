// Selectors and sections through the JSON tools API (issue 14 items 3 and 4): the tools' arguments as they are.
import { expect, it } from 'vitest';
import { addSelectorPages, BIRDS, INTRO, TIDES, TREES } from '../selector-pages.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, useTestHttpServer } from './http-harness.js';

const fixtures = useFixtureServer(addSelectorPages);
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort }));

it('fetch takes selector and section; web_scraper takes exclude_selectors', async () => {
  const url = fixtures.url('/sel/guide');
  const selected = await callApi(http.url, 'fetch', { url, selector: '#sidebar' });
  expect(selected.success).toBe(true);
  expect(selected.result?.text).toContain(TIDES);
  expect(selected.result?.text).not.toContain(INTRO);
  expect(selected.result).toMatchObject({ selector_matched: 1 });
  const section = await callApi(http.url, 'read_url', { url, section: '#3' });
  expect(section.result?.text).toContain(BIRDS);
  expect(section.result?.text).not.toContain(TREES);
  const scraped = await callApi(http.url, 'web_scraper', { url, exclude_selectors: ['main'] });
  expect(String((scraped.result as { text?: string }).text)).not.toContain(INTRO);
});

it('a bad selector fails with INVALID_ARGUMENT before any request', async () => {
  const bad = await callApi(http.url, 'web', { url: fixtures.url('/sel/bad'), selector: 'p >' });
  expect(bad.success).toBe(false);
  expect(bad.error).toContain('selector "p >" is not valid CSS');
  expect(bad.result?.error?.code).toBe('INVALID_ARGUMENT');
  expect(fixtures.hits('/sel/bad')).toBe(0);
});

// `query` through the JSON tools API and the library (issue 26 item 3): the tool's argument as it is, its answer in
// `result`; the engine's readPage option.
import { expect, it } from 'vitest';
import { createWebReader } from '../../src/index.js';
import { addQueryPages, CONFIG, WINDOWS } from '../query-pages.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, useTestHttpServer } from './http-harness.js';

const fixtures = useFixtureServer(addQueryPages);
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort }));

it('fetch and read_url take query: the answering passage first, its path in result.query', async () => {
  const url = fixtures.url('/q/manual');
  for (const tool of ['fetch', 'read_url']) {
    const answered = await callApi(http.url, tool, { url, query: 'windows msi installer' });
    expect(answered.success, tool).toBe(true);
    expect(answered.result?.text, tool).toContain(`## Install › Windows\n\n${WINDOWS}`);
    expect(answered.result?.text, tool).not.toContain(CONFIG);
    expect(answered.result, tool).toMatchObject({ query: { passages: [{ path: ['Install', 'Windows'] }] } });
  }
});

it('an empty query fails with INVALID_ARGUMENT before any request', async () => {
  const hits = fixtures.hits('/q/manual');
  const bad = await callApi(http.url, 'fetch', { url: fixtures.url('/q/manual'), query: '' });
  expect(bad.success).toBe(false);
  expect(bad.error).toContain('query must not be empty');
  expect(bad.result?.error?.code).toBe('INVALID_ARGUMENT');
  expect(fixtures.hits('/q/manual')).toBe(hits);
});

it('the library takes query on fetch, and its engine answers readPage with the ranked passages', async () => {
  const reader = createWebReader({ env: { ALLOW_PRIVATE_HOSTS: fixtures.hostPort, PER_DOMAIN_INTERVAL: '0' } });
  try {
    const output = await reader.fetch({ url: fixtures.url('/q/manual'), query: 'windows msi installer' });
    expect(output.text).toContain(`## Install › Windows\n\n${WINDOWS}`);
    const page = await reader.engine.readPage(fixtures.url('/q/manual'), { query: 'colour theme port' });
    expect(page.answer?.passages[0]).toMatchObject({ path: ['Configuration'], part: 1 });
    expect(page.content).toContain(WINDOWS); // the whole page's text stays, the answer beside it
  } finally {
    await reader.close();
  }
});

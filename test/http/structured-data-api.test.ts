// structured_data through the JSON tools API (issue 28 item 3): the tool's argument as it is, the data in `result`,
// the text with only its line.
import { expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, useTestHttpServer } from './http-harness.js';

const PAGE = `<!doctype html><html><head><title>Tea</title><meta property="og:title" content="Green tea">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Green tea"}</script>
</head><body><main><article><h1>Green tea</h1><p>${'A tea picked in spring and dried the same day it is picked. '.repeat(4)}</p>
<table><tr><th>Weight</th><th>Price</th></tr><tr><td>100 g</td><td>8.50</td></tr></table></article></main></body></html>`;

const fixtures = useFixtureServer((server) =>
  server.route('/tea', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  }),
);
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort }));

it('fetch takes structured_data and tables: the data in result.structured_data, one line of it in the text', async () => {
  const called = await callApi(http.url, 'fetch', { url: fixtures.url('/tea'), structured_data: true, tables: 'csv' });
  expect(called.success).toBe(true);
  expect(called.result).toMatchObject({
    structured_data: {
      json_ld: [{ '@type': 'Product', name: 'Green tea' }],
      open_graph: { 'og:title': 'Green tea' },
      tables: [{ csv: 'Weight,Price\n100 g,8.50' }],
    },
  });
  expect(called.result?.text).toContain('Structured data: 1 JSON-LD item, OpenGraph, 1 table, ');
  expect(called.result?.text).not.toContain('@type');
});

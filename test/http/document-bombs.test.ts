// Issue 27 item 3: hostile Office and e-book files — a ZIP bomb whose directory lies about its size, an archive of
// 20,000 entries, an XML entity bomb, a sheet of a million rows — each refused with a clear `too_large` or read with
// a stated cut, through the JSON tools API of the real HTTP server while /healthz is polled: the reads run in the
// worker pool, so the event loop keeps answering. The server runs in-process (test/http/http-harness.ts), so a
// blocked loop would hold the polls too.
import { expect, it } from 'vitest';
import { makeEntityBomb, makeHugeXlsx, makeManyEntries, makeZipBomb } from '../fixtures/documents/make-documents.mjs';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, useTestHttpServer, watchHealthz } from './http-harness.js';

const BOMBS = {
  '/zip-bomb.docx': makeZipBomb(100, true),
  '/many-entries.epub': makeManyEntries(20_000),
  '/entity-bomb.docx': makeEntityBomb(),
  '/million-rows.xlsx': makeHugeXlsx(1_000_000),
};

const fixtures = useFixtureServer((fixtures) => {
  for (const [path, body] of Object.entries(BOMBS)) {
    fixtures.route(path, (_req, res) => {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(body);
    });
  }
});
// Deadlines far above the reads' time even on a loaded machine: this test is about the event loop and the answers.
const http = useTestHttpServer(() => ({
  ALLOW_PRIVATE_HOSTS: fixtures.hostPort,
  FETCH_TIMEOUT: '30000',
  EXTRACT_TIMEOUT: '30000',
}));

interface Structured {
  status: string;
  content_kind: string;
  document?: { format?: string; cut_sheets?: unknown[] };
}
type Read = Structured & { text: string };

it('refuses each bomb or cuts it, while /healthz keeps answering', { timeout: 120_000 }, async () => {
  const read = (path: string) => callApi(http.url, 'fetch', { url: fixtures.url(path), max_length: 3000 });
  const calls = Promise.all(Object.keys(BOMBS).map(read));
  const loop = await watchHealthz(http.url, calls);
  const [zipBomb, manyEntries, entityBomb, millionRows] = (await calls).map((answer) => {
    expect(answer.success, answer.error ?? '').toBe(true);
    return answer.result as unknown as Read;
  }) as [Read, Read, Read, Read];
  // CPU time of the event loop between answers, not wall-clock time, so a loaded machine does not fail it.
  expect(loop.longestLoopCpuMs, JSON.stringify(loop)).toBeLessThan(750);

  expect(zipBomb.text).toMatch(
    /A Word document \([\d.]+ KB\) was not read: its parts expand to more than 64 MB \(at word\/document\.xml\)\./,
  );
  expect(zipBomb).toMatchObject({ status: 'too_large', content_kind: 'document' });

  expect(manyEntries.text).toMatch(/An EPUB book \([\d.]+ MB\) was not read: it has 20001 entries/);
  expect(manyEntries).toMatchObject({ status: 'too_large', document: { format: 'epub' } });

  expect(entityBomb.text).toMatch(/Laugh: &lol9;$/);
  expect(entityBomb).toMatchObject({ status: 'ok', document: { format: 'docx' } });

  expect(millionRows.text).toContain('## Big\n\n| Tide | Height |\n| --- | --- |\n| 7 | 1.25 |');
  expect(millionRows).toMatchObject({
    status: 'ok',
    document: { format: 'xlsx', cut_sheets: [{ sheet: 'Big', shown_rows: 1000, total_rows: 1_000_001 }] },
  });
});

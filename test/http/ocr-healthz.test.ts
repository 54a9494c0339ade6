// OCR is bounded like every read (issue 27 item 3): through the JSON tools API of the real HTTP server, in-process,
// a scanned PDF, a picture and a 500-page scan cut at the OCR deadline are read while /healthz is polled; the event
// loop only pipes bytes to tesseract, and when the calls have answered no tesseract process of this one is left.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { addOcrRoutes } from '../fixtures/ocr/routes.js';
import { describeWithOcr } from '../ocr-available.js';
import { useFixtureServer } from '../use-fixture-server.js';
import { callApi, startTestHttpServer, useTestHttpServer, watchHealthz } from './http-harness.js';

const fixtures = useFixtureServer(addOcrRoutes);
const http = useTestHttpServer(() => ({
  ALLOW_PRIVATE_HOSTS: fixtures.hostPort,
  PER_DOMAIN_INTERVAL: '0',
  FETCH_TIMEOUT: '30000',
  OCR_TIMEOUT: '50000',
}));

/** This process's children that are tesseract (/proc/<pid>/stat: "pid (comm) state ppid …"). */
function tesseractChildren(): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
      if (match?.[1] === 'tesseract' && Number(match[2]) === process.pid) children.push(Number(entry));
    } catch {
      // gone between the listing and the read: not a child any more
    }
  }
  return children;
}

describeWithOcr('OCR over the HTTP server', () => {
  it('a scanned PDF and a picture are read while /healthz keeps answering', async () => {
    const call = (url: string) => callApi(http.url, 'fetch', { url: fixtures.url(url) });
    const calls = Promise.all([call('/ocr/scanned.pdf'), call('/ocr/page-1.png')]);
    const loop = await watchHealthz(http.url, calls);
    const [scanned, picture] = await calls;
    // The loop only moves bytes to and from tesseract and the worker: main-thread CPU between two answers, not
    // wall-clock time, so a loaded machine does not fail it.
    expect(loop.longestLoopCpuMs, JSON.stringify(loop)).toBeLessThan(1000);
    expect(loop.answers).toBeGreaterThan(1);
    expect(scanned.result?.text).toContain('Minutes of the library committee');
    expect(picture.result?.text).toContain('The harbour master opened the ledger');
  });

  it('a 500-page scan is cut at OCR_TIMEOUT with /healthz answering, and no tesseract process is left', async () => {
    const short = await startTestHttpServer({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort, OCR_TIMEOUT: '3000' });
    try {
      const calls = callApi(short.url, 'fetch', { url: fixtures.url('/ocr/long-scan.pdf') });
      const loop = await watchHealthz(short.url, calls);
      const long = await calls;
      expect(loop.longestLoopCpuMs, JSON.stringify(loop)).toBeLessThan(1000);
      expect(long.result?.text).toMatch(
        /_OCR stopped at its time limit \(3 s, OCR_TIMEOUT\): pages \d+–500 of 500 were not read\._/,
      );
      expect(tesseractChildren()).toEqual([]);
    } finally {
      await short.close();
    }
  });
});

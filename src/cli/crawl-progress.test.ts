import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../config.js';
import type { CrawlProgress } from '../crawl/crawl-site.js';
import { createEngine } from '../engine/engine.js';
import { runCrawlCommand } from './crawl-command.js';
import { renderProgressLine, startProgressDisplay } from './crawl-progress.js';

const PROGRESS: CrawlProgress = {
  processed: 12,
  pagesRead: 10,
  tokensUsed: 45210,
  maxTokens: 100000,
  maxPages: 100,
  frontierSize: 37,
  remaining: 40,
};
const READING = 'https://docs.example.com/guide/getting-started/installation-on-linux';

describe('renderProgressLine', () => {
  it.each([200, 120, 80, 75, 60, 40, 30, 20, 12, 5, 1])('fits a terminal %i columns wide', (columns) => {
    for (const state of [
      { elapsedMs: 0 },
      { elapsedMs: 3400, reading: READING },
      { elapsedMs: 61000, progress: PROGRESS, reading: READING },
    ]) {
      const line = renderProgressLine(state, columns);
      expect(line.length, line).toBeLessThanOrEqual(Math.max(1, columns - 1));
      expect([...line].some((char) => char < ' ')).toBe(false); // no control characters
    }
  });

  it('shows everything on a wide terminal', () => {
    expect(renderProgressLine({ elapsedMs: 61000, progress: PROGRESS, reading: READING }, 200)).toBe(
      '[###########.............] 10/100 pages · 45.2k/100k tokens · 37 queued · 61s · reading ' +
        'docs.example.com/guide/getting-started/installation-on-linux',
    );
  });

  it('drops the least useful parts first and shortens the URL on a narrow one', () => {
    const line = renderProgressLine({ elapsedMs: 61000, progress: PROGRESS, reading: READING }, 40);
    expect(line).toBe('10/100 pages · 61s · reading docs.…inux');
    expect(renderProgressLine({ elapsedMs: 61000, progress: PROGRESS, reading: READING }, 20)).toBe(
      '10/100 pages · 61s',
    );
  });

  it('says what is being read before the first page is in', () => {
    expect(renderProgressLine({ elapsedMs: 0 }, 80)).toBe('0s · starting');
    expect(renderProgressLine({ elapsedMs: 2500, reading: 'http://127.0.0.1:8080/p/0' }, 80)).toBe(
      '2s · reading 127.0.0.1:8080/p/0',
    );
  });
});

describe('startProgressDisplay', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('paints at once, repaints every second with the elapsed time, and ends its line and timer on stop', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const display = startProgressDisplay({ write: (text: string) => writes.push(text), columns: 40 });
    display.visiting('http://127.0.0.1:8080/p/0');
    vi.advanceTimersByTime(2000);
    expect(writes).toEqual([
      '\r\x1b[2K0s · starting',
      '\r\x1b[2K0s · reading 127.0.0.1:8080/p/0',
      '\r\x1b[2K1s · reading 127.0.0.1:8080/p/0',
      '\r\x1b[2K2s · reading 127.0.0.1:8080/p/0',
    ]);
    display.update({ ...PROGRESS, pagesRead: 1 });
    display.stop();
    display.stop();
    expect(writes.slice(-2)).toEqual(['\r\x1b[2K1/100 pages · 45.2k/100k tokens · 2s', '\n']);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(writes.at(-1)).toBe('\n');
  });
});

describe('the crawl command on a terminal', () => {
  it('clears the progress timer when the crawl fails before it starts', async () => {
    const resumeDir = await mkdtemp(join(tmpdir(), 'web-reader-progress-'));
    const engine = createEngine(resolveConfig({}));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const writes: string[] = [];
    const stderr = { isTTY: true, columns: 40, write: (text: string) => writes.push(text) };
    try {
      await expect(
        runCrawlCommand(engine, {
          continueFrom: 'no-such-crawl',
          resumeDir,
          json: false,
          stdout: process.stdout,
          stderr: stderr as unknown as NodeJS.WriteStream,
          signal: new AbortController().signal,
        }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(writes[0]).toBe('\r\x1b[2K0s · starting');
      expect(writes.at(-1)).toBe('\n');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
      await engine.close();
      await rm(resumeDir, { recursive: true, force: true });
    }
  });
});

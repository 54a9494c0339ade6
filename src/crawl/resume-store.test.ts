import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CrawlState } from './frontier.js';
import { createFileResumeStore, createMemoryResumeStore, isResumeId } from './resume-store.js';

const STATE: CrawlState = {
  version: 1,
  scope: {
    url: 'https://site.test/',
    maxTokens: 1000,
    maxPages: 10,
    maxDepth: 3,
    allowedDomains: ['site.test'],
    patterns: [],
    excludePatterns: [],
    respectRobots: true,
    concurrency: 3,
  },
  frontier: [{ url: 'https://site.test/b', depth: 1 }],
  seen: ['https://site.test/', 'https://site.test/b'],
  readAs: [['https://site.test/', 'https://site.test/']],
  pagesRead: 1,
  tokensUsed: 120,
  processed: 1,
  sitemapsMerged: true,
  lastStartByOrigin: {},
};

const HOLD = 30_000;

describe('memory resume store', () => {
  it('keeps one id: taken, held while a call runs, saved back under it, taken again; complete says so', async () => {
    let time = 0;
    const store = createMemoryResumeStore({ ttlSeconds: 60, now: () => time });
    const id = await store.save(STATE);
    expect(isResumeId(id)).toBe(true);
    expect(await store.take(id, HOLD)).toEqual(STATE);
    await expect(store.take(id, HOLD)).rejects.toMatchObject({
      code: 'QUEUE_TIMEOUT',
      retryAfterSeconds: 30,
      message: expect.stringMatching(/this crawl is running on this server; try again in 30 s/),
    });
    const later = { ...STATE, pagesRead: 2 };
    expect(await store.save(later, id)).toBe(id);
    expect(await store.take(id, HOLD)).toEqual(later); // continued, then continued again, with the same id
    time = HOLD + 1; // a holder that never came back: the hold lapses, the state is there
    expect(await store.take(id, HOLD)).toEqual(later);
    await store.complete(id);
    expect(await store.take(id, HOLD)).toBe('complete');
    expect(await store.take('00000000-0000-4000-8000-000000000000', HOLD)).toBeUndefined();
  });

  it('forgets a state after the TTL', async () => {
    let time = 0;
    const store = createMemoryResumeStore({ ttlSeconds: 10, now: () => time });
    const id = await store.save(STATE);
    time = 10_000;
    expect(await store.take(id, HOLD)).toBeUndefined();
  });

  it('keeps at most maxEntries, evicting the oldest', async () => {
    const store = createMemoryResumeStore({ ttlSeconds: 60, maxEntries: 2 });
    const ids = [await store.save(STATE), await store.save(STATE), await store.save(STATE)];
    expect(await store.take(ids[0]!, HOLD)).toBeUndefined();
    expect(await store.take(ids[1]!, HOLD)).toEqual(STATE);
    expect(await store.take(ids[2]!, HOLD)).toEqual(STATE);
  });
});

describe('file resume store', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the state as a private JSON file, held while a call runs, saved back under the same id', async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'resume-')), 'crawls');
    const store = createFileResumeStore(dir, { ttlSeconds: 60 });
    const id = await store.save(STATE);
    expect(await readdir(dir)).toEqual([`${id}.json`]);
    expect((await stat(join(dir, `${id}.json`))).mode & 0o777).toBe(0o600);
    expect(await createFileResumeStore(dir, { ttlSeconds: 60 }).take(id, HOLD)).toEqual(STATE);
    expect(await readdir(dir)).toEqual([`${id}.held.json`]);
    await expect(store.take(id, HOLD)).rejects.toMatchObject({ code: 'QUEUE_TIMEOUT' });
    expect(await store.save(STATE, id)).toBe(id);
    expect(await readdir(dir)).toEqual([`${id}.json`]);
    expect(await store.take(id, HOLD)).toEqual(STATE);
    await store.complete(id);
    expect(await readdir(dir)).toEqual([`${id}.done`]);
    expect(await store.take(id, HOLD)).toBe('complete');
  });

  it('takes a crawl again once a dead holder’s hold has lapsed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'resume-'));
    let time = Date.now();
    const store = createFileResumeStore(dir, { ttlSeconds: 60, now: () => time });
    const id = await store.save(STATE);
    expect(await store.take(id, 1000)).toEqual(STATE);
    time += 1500;
    expect(await store.take(id, 1000)).toEqual(STATE);
  });

  it('refuses expired states and ids that are not its own, without touching other files', async () => {
    dir = await mkdtemp(join(tmpdir(), 'resume-'));
    let time = Date.now();
    const store = createFileResumeStore(dir, { ttlSeconds: 1, now: () => time });
    const id = await store.save(STATE);
    time += 1500;
    expect(await store.take(id, HOLD)).toBeUndefined();
    await writeFile(join(dir, 'keep.txt'), 'x');
    expect(await store.take('../keep', HOLD)).toBeUndefined();
    expect(await store.take('keep.txt', HOLD)).toBeUndefined();
    expect(await readdir(dir)).toEqual(['keep.txt']);
  });
});

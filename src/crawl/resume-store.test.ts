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

describe('memory resume store', () => {
  it('gives an id that continues once', async () => {
    const store = createMemoryResumeStore({ ttlSeconds: 60 });
    const id = await store.save(STATE);
    expect(isResumeId(id)).toBe(true);
    expect(await store.take(id)).toEqual(STATE);
    expect(await store.take(id)).toBeUndefined();
  });

  it('forgets a state after the TTL', async () => {
    let time = 0;
    const store = createMemoryResumeStore({ ttlSeconds: 10, now: () => time });
    const id = await store.save(STATE);
    time = 10_000;
    expect(await store.take(id)).toBeUndefined();
  });

  it('keeps at most maxEntries, evicting the oldest', async () => {
    const store = createMemoryResumeStore({ ttlSeconds: 60, maxEntries: 2 });
    const ids = [await store.save(STATE), await store.save(STATE), await store.save(STATE)];
    expect(await store.take(ids[0]!)).toBeUndefined();
    expect(await store.take(ids[1]!)).toEqual(STATE);
    expect(await store.take(ids[2]!)).toEqual(STATE);
  });
});

describe('file resume store', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the state as a private JSON file that one take reads and removes', async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'resume-')), 'crawls');
    const store = createFileResumeStore(dir, { ttlSeconds: 60 });
    const id = await store.save(STATE);
    expect(await readdir(dir)).toEqual([`${id}.json`]);
    expect((await stat(join(dir, `${id}.json`))).mode & 0o777).toBe(0o600);
    expect(await createFileResumeStore(dir, { ttlSeconds: 60 }).take(id)).toEqual(STATE);
    expect(await readdir(dir)).toEqual([]);
    expect(await store.take(id)).toBeUndefined();
  });

  it('refuses expired states and ids that are not its own, without touching other files', async () => {
    dir = await mkdtemp(join(tmpdir(), 'resume-'));
    let time = Date.now();
    const store = createFileResumeStore(dir, { ttlSeconds: 1, now: () => time });
    const id = await store.save(STATE);
    time += 1500;
    expect(await store.take(id)).toBeUndefined();
    await writeFile(join(dir, 'keep.txt'), 'x');
    expect(await store.take('../keep')).toBeUndefined();
    expect(await store.take('keep.txt')).toBeUndefined();
    expect(await readdir(dir)).toEqual(['keep.txt']);
  });
});

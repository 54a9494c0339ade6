import { describe, expect, it } from 'vitest';
import { describeWithRedis, untilReachable, useRedisConnections } from '../../test/redis-server.js';
import { createRedisSnapshotStore } from './redis-snapshot-store.js';
import { createMemorySnapshotStore, readingKey, SNAPSHOT_ID, snapshotId } from './snapshot-store.js';

const reading = readingKey('https://example.test/prices', { selector: undefined });
const snapshot = (markdown: string, at = 1000) => ({
  id: snapshotId(reading, markdown),
  reading,
  markdown,
  takenAt: at,
});

describe('the in-memory snapshot store', () => {
  it('keeps each snapshot by id and the last per reading, for SNAPSHOT_TTL', async () => {
    let now = 0;
    const store = createMemorySnapshotStore({ ttlSeconds: 10, now: () => now });
    const a = snapshot('# Prices\n\nCoffee: 4');
    const b = snapshot('# Prices\n\nCoffee: 5');
    expect(a.id).toMatch(SNAPSHOT_ID);
    expect(a.id).not.toBe(b.id);
    await store.put(reading, a);
    await store.put(reading, b);
    expect(await store.last(reading)).toEqual(b);
    expect(await store.byId(a.id)).toEqual(a);
    now = 10_001;
    expect(await store.last(reading)).toBeUndefined();
    expect(await store.byId(a.id)).toBeUndefined();
  });

  it('drops the oldest past its byte budget, and keeps nothing with SNAPSHOT_TTL=0', async () => {
    const store = createMemorySnapshotStore({ ttlSeconds: 60, maxBytes: 2500 });
    const first = snapshot('a'.repeat(600));
    const second = snapshot('b'.repeat(600));
    await store.put(reading, first);
    await store.put(reading, second);
    expect(await store.byId(first.id)).toBeUndefined();
    expect(await store.byId(second.id)).toEqual(second);
    const off = createMemorySnapshotStore({ ttlSeconds: 0 });
    await off.put(reading, first);
    expect(await off.last(reading)).toBeUndefined();
  });

  it('a reading is the URL and the options that shape the Markdown', () => {
    const url = 'https://example.test/a';
    expect(readingKey(url, { selector: 'main' })).not.toBe(readingKey(url, { selector: undefined }));
    expect(readingKey(url, { selector: undefined })).toBe(readingKey(url, {}));
    expect(readingKey(url, {})).not.toBe(readingKey('https://example.test/b', {}));
  });
});

describeWithRedis('snapshots shared through Redis', (server) => {
  const connections = useRedisConnections(server);
  const replica = () => {
    const link = connections.open();
    const store = createRedisSnapshotStore(link, {
      ttlSeconds: 60,
      local: createMemorySnapshotStore({ ttlSeconds: 60 }),
    });
    return { store, ready: () => untilReachable(link) };
  };

  it("one replica compares with the snapshot another one took, by id and as the reading's last", async () => {
    const a = replica();
    const b = replica();
    await Promise.all([a.ready(), b.ready()]);
    const taken = snapshot('# Prices\n\nCoffee: 4', Date.now());
    await a.store.put(reading, taken);
    expect(await b.store.last(reading)).toEqual(taken);
    expect(await b.store.byId(taken.id)).toEqual(taken);
    expect(await b.store.last(readingKey('https://example.test/other', {}))).toBeUndefined();
  });
});

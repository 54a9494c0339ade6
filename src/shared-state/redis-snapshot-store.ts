// fetch `since` snapshots on Redis (REDIS_URL): a snapshot any replica took is compared against on any other. Kept
// for SNAPSHOT_TTL by Redis itself (PX); while Redis is unreachable, this process's memory stands in.
import type { RedisLink } from './redis-link.js';
import type { Snapshot, SnapshotStore } from './snapshot-store.js';

const idKey = (id: string) => `snapshot:1:${id}`;
const lastKey = (reading: string) => `snapshot-last:1:${reading}`;

function parse(value: string | null): Snapshot | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(value) as Snapshot;
    return typeof parsed.markdown === 'string' && typeof parsed.id === 'string' && typeof parsed.reading === 'string'
      ? parsed
      : undefined;
  } catch {
    return undefined; // another format or a damaged value: no snapshot, the next read takes one
  }
}

export function createRedisSnapshotStore(
  link: RedisLink,
  options: { ttlSeconds: number; local: SnapshotStore },
): SnapshotStore {
  const ttlMs = options.ttlSeconds * 1000;
  return {
    async byId(id) {
      const value = await link.attempt((redis) => redis.get(idKey(id)), undefined);
      return value === undefined ? options.local.byId(id) : parse(value);
    },
    async last(reading) {
      const id = await link.attempt((redis) => redis.get(lastKey(reading)), undefined);
      if (id === undefined) return options.local.last(reading);
      return id === null ? undefined : this.byId(id);
    },
    async put(reading, snapshot) {
      await options.local.put(reading, snapshot);
      if (ttlMs <= 0) return;
      await link.attempt(
        (redis) =>
          redis
            .multi()
            .set(idKey(snapshot.id), JSON.stringify(snapshot), 'PX', ttlMs)
            .set(lastKey(reading), snapshot.id, 'PX', ttlMs)
            .exec(),
        undefined,
      );
    },
  };
}

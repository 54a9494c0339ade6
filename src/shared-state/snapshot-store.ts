// The snapshots `fetch` with `since` compares against (issue 28 item 4): the Markdown a read returned, kept under an id
// the result names, and the last one per page and reading (the URL and the options that shape its Markdown) for
// `since: "last"`. In this process's memory, bounded by bytes and by SNAPSHOT_TTL; with REDIS_URL, on Redis
// (redis-snapshot-store.ts), so that any replica answers `since` for a snapshot another one took.
//
// What is never here: the Markdown of a read made with the caller's `headers` (credentials are never stored, as the
// page cache stores no such page); the engine does not ask.
import { createHash } from 'node:crypto';

export interface Snapshot {
  readonly id: string;
  /** The reading it is a snapshot of (readingKey): a snapshot compares only with reads of the same. */
  readonly reading: string;
  readonly markdown: string;
  /** Epoch ms. */
  readonly takenAt: number;
}

export interface SnapshotStore {
  /** The snapshot with this id, when it is still kept. */
  byId(id: string): Promise<Snapshot | undefined>;
  /** The last snapshot taken of this reading (`readingKey`), when it is still kept. */
  last(reading: string): Promise<Snapshot | undefined>;
  /** Keeps `snapshot` under its id, and as the last of `reading`. */
  put(reading: string, snapshot: Snapshot): Promise<void>;
}

/** This process's snapshots' byte budget: snapshots are Markdown, a few KB to a few hundred KB each. */
export const DEFAULT_SNAPSHOT_MAX_BYTES = 32 * 1024 * 1024;

/** A snapshot's id: the reading and the content, so the same page read the same way twice is one snapshot. */
export function snapshotId(reading: string, markdown: string): string {
  const hash = createHash('sha256').update(reading).update('\0').update(markdown).digest('base64url');
  return `snap_${hash.slice(0, 22)}`;
}

/** What makes one reading of a page: its URL and the options that shape the Markdown returned. */
export function readingKey(url: string, shape: Readonly<Record<string, unknown>>): string {
  const defined = Object.entries(shape).filter(([, value]) => value !== undefined);
  return createHash('sha256')
    .update(JSON.stringify([url, defined]))
    .digest('base64url');
}

/** The shape of a snapshot id, checked before any store is asked. */
export const SNAPSHOT_ID = /^snap_[A-Za-z0-9_-]{22}$/;

interface Entry {
  readonly snapshot: Snapshot;
  readonly expiresAt: number;
}

export function createMemorySnapshotStore(options: {
  ttlSeconds: number;
  maxBytes?: number;
  now?: () => number;
}): SnapshotStore {
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? DEFAULT_SNAPSHOT_MAX_BYTES;
  // Insertion order is age order: a put re-inserts, so the first key is the oldest to go.
  const entries = new Map<string, Entry>();
  const lastOf = new Map<string, string>();
  let totalBytes = 0;
  const bytesOf = (snapshot: Snapshot) => snapshot.markdown.length * 2 + 256;

  function remove(id: string): void {
    const entry = entries.get(id);
    if (!entry) return;
    totalBytes -= bytesOf(entry.snapshot);
    entries.delete(id);
  }

  function live(id: string | undefined): Snapshot | undefined {
    if (id === undefined) return undefined;
    const entry = entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt > now()) return entry.snapshot;
    remove(id);
    return undefined;
  }

  return {
    byId: async (id) => live(id),
    async last(reading) {
      const snapshot = live(lastOf.get(reading));
      if (!snapshot) lastOf.delete(reading);
      return snapshot;
    },
    async put(reading, snapshot) {
      if (options.ttlSeconds <= 0 || bytesOf(snapshot) > maxBytes) return;
      remove(snapshot.id);
      entries.set(snapshot.id, { snapshot, expiresAt: now() + options.ttlSeconds * 1000 });
      totalBytes += bytesOf(snapshot);
      lastOf.set(reading, snapshot.id);
      for (const oldest of entries.keys()) {
        if (totalBytes <= maxBytes) break;
        remove(oldest);
      }
    },
  };
}

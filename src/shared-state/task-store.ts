// Where a 2026-07-28 task lives (MCP tasks extension `io.modelcontextprotocol/tasks`, SEP-2663; src/server-modern-
// tasks.ts): the task as `tasks/get` answers it — its status, its status message, and once it has ended its result
// (or, for a protocol-level failure, its error) inlined. This process's memory, or with REDIS_URL the store every
// replica reads (redis-task-store.ts), so that a task one replica runs is read and cancelled on any other: a
// 2026-07-28 client has no session that would send it back to the replica it started on.
//
// A task ends once: `completed`, `failed` and `cancelled` are final, and a write that would change an ended task is
// refused (a crawl finishing just after its client cancelled it stays cancelled).
// A task shared by replicas has an owner, the replica running its work, which holds the task's lease while it runs
// (redis-task-store.ts). A replica that dies stops renewing it; once it has lapsed, the next `get` that is told how
// (`orphaned`) ends the task in the owner's place, on whichever replica reads it first: a crawl's task then hands out
// the crawl's `continue_from` id (server-modern-tasks.ts), so the client loses nothing that was read.

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** A task as `tasks/get` answers it (SEP-2663 DetailedTask), minus the `resultType` the SDK stamps. */
export interface TaskRecord {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** How long the task is kept after its last change (ms). */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The tool's result, once `completed` (a tool's own error is a completed task whose result says isError). */
  readonly result?: Record<string, unknown>;
  /** A protocol-level failure (`failed`): a JSON-RPC error. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: Record<string, unknown> };
  /**
   * The crawl's continue_from id from its start (a store that checkpoints crawls, REDIS_URL): what the task hands out
   * if its owner dies. Kept with the task, never part of the tasks/get answer.
   */
  readonly continueFrom?: string;
}

/** How a task whose owner died ends: the task as it was → the task as it ends. */
export type OrphanedTask = (task: TaskRecord) => TaskRecord;

export interface TaskStore {
  /** Keeps a new task; resolves once a `get` of it on any replica would find it (SEP-2663 "durable create"). */
  create(task: TaskRecord): Promise<void>;
  /**
   * The task, if kept. With `orphaned`: a task still `working` whose owner's lease has lapsed (its replica died) is
   * ended as `orphaned` says — once, by whichever replica reads it first — and answered so. A store in one process's
   * memory has no other owner than its reader, so nothing is orphaned there.
   */
  get(taskId: string, orphaned?: OrphanedTask): Promise<TaskRecord | undefined>;
  /** Replaces the task with `next` unless it has ended; whether it did. `next` keeps the task's id. */
  update(next: TaskRecord): Promise<boolean>;
  /**
   * Calls `onCancel` once if the task is cancelled, wherever `tasks/cancel` lands: at once on this process, within
   * a poll interval from another replica — or ended by another replica that found its lease lapsed. On a shared
   * store, watching is also holding the task's lease: renewed at each poll while the work runs here. Returns the
   * function that stops watching (the task's work has ended).
   */
  watchCancel(taskId: string, onCancel: () => void): () => void;
}

export const isEnded = (status: TaskStatus): boolean => status !== 'working';

export interface MemoryTaskStoreOptions {
  /** At most this many tasks kept; one more evicts the oldest. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/** Tasks a process keeps: each may hold a crawl's whole result, so they are bounded in count as resumable crawls are. */
export const DEFAULT_MAX_TASKS = 200;

export interface MemoryTaskStore extends TaskStore {
  /** Tells this process's watchers of a task cancelled here or, through a shared store, found cancelled there. */
  notifyCancelled(taskId: string): void;
}

export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): MemoryTaskStore {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_TASKS;
  // Insertion order is age order: the first key is the oldest.
  const entries = new Map<string, { task: TaskRecord; expiresAt: number }>();
  const watchers = new Map<string, Set<() => void>>();

  function live(taskId: string): TaskRecord | undefined {
    const entry = entries.get(taskId);
    if (entry && entry.expiresAt <= now()) entries.delete(taskId);
    return entries.get(taskId)?.task;
  }

  function put(task: TaskRecord): void {
    entries.delete(task.taskId);
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(task.taskId, { task, expiresAt: now() + task.ttlMs });
  }

  function notifyCancelled(taskId: string): void {
    const waiting = watchers.get(taskId);
    watchers.delete(taskId);
    for (const onCancel of waiting ?? []) onCancel();
  }

  return {
    async create(task) {
      put(task);
    },
    async get(taskId) {
      return live(taskId);
    },
    async update(next) {
      const current = live(next.taskId);
      if (!current || isEnded(current.status)) return false;
      put(next);
      if (next.status === 'cancelled') notifyCancelled(next.taskId);
      return true;
    },
    watchCancel(taskId, onCancel) {
      const waiting = watchers.get(taskId) ?? new Set();
      watchers.set(taskId, waiting.add(onCancel));
      return () => {
        waiting.delete(onCancel);
        if (waiting.size === 0 && watchers.get(taskId) === waiting) watchers.delete(taskId);
      };
    },
    notifyCancelled,
  };
}

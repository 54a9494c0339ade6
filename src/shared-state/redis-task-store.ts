// 2026-07-28 tasks on Redis (task-store.ts, docs/scale-out.md "Tasks"): a task started on one replica is read and
// cancelled on any. One key per task, `task:<id>`, a hash of its `status` and the task as JSON, kept for the task's
// ttlMs after its last write. A write is a Lua script that refuses to change a task that has ended, so of a
// cancellation and a result racing from two replicas the first wins, whichever it is.
//
// Cancellation reaches the replica running the task by polling: while a task's work runs, its replica reads the
// task's status every CANCEL_POLL_MS (one HGET), and aborts the work when it reads `cancelled`. A poll rather than
// the 2025 era's pub/sub bus: pub/sub keeps nothing, so a cancellation published while the running replica's
// subscription was down would be lost, where the status on Redis is read as soon as the replica can read again.
//
// The owner's lease (task-store.ts): `task-lease:<id>`, set with the task and renewed by the running replica at
// each of those polls, TASK_LEASE_MS long; deleted when the task ends. A replica killed while its task runs stops
// renewing it: a `tasks/get` on any replica that finds the task `working` with no lease ends it in the owner's place
// (one Lua script, so of two replicas reading it at once one ends it, and a lease renewed meanwhile wins). The lease
// outlasts the crawl's own (CRAWL_LEASE_MS) by two polls, so that the crawl's id the ended task hands out is free to
// continue at once. The owner, if it was only paused, reads at its next poll that the task has ended and stops.
//
// Redis unreachable (redis-link.ts): tasks are created in and read from this process's memory (`local`); a task
// created on Redis is not found meanwhile, and its result, should its work end then, is kept in memory only.
import type { RedisLink } from './redis-link.js';
import { CRAWL_LEASE_MS } from './redis-resume-store.js';
import { createMemoryTaskStore, type TaskRecord, type TaskStore } from './task-store.js';

/** How often a replica running a task reads whether another has cancelled it, and renews the task's lease. */
export const CANCEL_POLL_MS = 1000;
/** How long a task's lease outlives its last renewal: how soon the task of a dead replica ends. */
export const TASK_LEASE_MS = CRAWL_LEASE_MS + 2 * CANCEL_POLL_MS;

const taskKey = (taskId: string) => `task:${taskId}`;
const leaseKey = (taskId: string) => `task-lease:${taskId}`;
const keysOf = (taskId: string) => [taskKey(taskId), leaseKey(taskId)] as const;

// KEYS: task, lease. ARGV: status, task JSON, ttl ms, lease ms.
const CREATE = `
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'task', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], '1', 'PX', ARGV[4])
return 1
`;

// KEYS: task, lease. ARGV: status, task JSON, ttl ms. 0: no such task, or it has ended.
const UPDATE = `
if redis.call('HGET', KEYS[1], 'status') ~= 'working' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'task', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[1] ~= 'working' then redis.call('DEL', KEYS[2]) end
return 1
`;

// KEYS: task, lease. The task as JSON (or nil), and 1 when it is working with its owner's lease lapsed.
const READ = `
local fields = redis.call('HMGET', KEYS[1], 'status', 'task')
local orphaned = 0
if fields[1] == 'working' and redis.call('EXISTS', KEYS[2]) == 0 then orphaned = 1 end
return {fields[2], orphaned}
`;

// KEYS: task, lease. ARGV: status, task JSON, ttl ms. 0: it has ended meanwhile, or its owner renewed the lease.
const ORPHAN = `
if redis.call('HGET', KEYS[1], 'status') ~= 'working' or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'task', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

// KEYS: task, lease. ARGV: lease ms. The task's status; its lease renewed while it is working.
const HOLD = `
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'working' then redis.call('SET', KEYS[2], '1', 'PX', ARGV[1]) end
return status
`;

export interface RedisTaskStoreOptions {
  readonly pollMs?: number;
  readonly leaseMs?: number;
}

function parseTask(text: string | null): TaskRecord | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as TaskRecord;
  } catch {
    return undefined; // not ours
  }
}

export function createRedisTaskStore(link: RedisLink, options: RedisTaskStoreOptions = {}): TaskStore {
  const local = createMemoryTaskStore();
  const pollMs = options.pollMs ?? CANCEL_POLL_MS;
  const leaseMs = options.leaseMs ?? TASK_LEASE_MS;
  const create = link.script(CREATE, 2);
  const update = link.script(UPDATE, 2);
  const read = link.script(READ, 2);
  const orphan = link.script(ORPHAN, 2);
  const hold = link.script(HOLD, 2);
  const write = (script: typeof create, task: TaskRecord) =>
    link.attempt(
      (redis) => script(redis, ...keysOf(task.taskId), task.status, JSON.stringify(task), task.ttlMs, leaseMs),
      -1,
    );

  return {
    async create(task) {
      if ((await write(create, task)) !== 1) await local.create(task);
    },
    async get(taskId, orphaned) {
      const answer = (await link.attempt((redis) => read(redis, ...keysOf(taskId)), null)) as [string | null, number];
      const task = parseTask(answer?.[0] ?? null);
      if (!task) return local.get(taskId);
      if (!orphaned || answer[1] !== 1) return task;
      const ended = orphaned(task);
      if ((await write(orphan, ended)) === 1) return ended;
      // Ended by another reader, or renewed by its owner, meanwhile: as it is now.
      return parseTask(await link.attempt((redis) => redis.hget(taskKey(taskId), 'task'), null)) ?? task;
    },
    async update(next) {
      const answer = await write(update, next);
      if (answer === -1) return local.update(next);
      if (answer === 1 && next.status === 'cancelled') local.notifyCancelled(next.taskId);
      return answer === 1 || local.update(next);
    },
    watchCancel(taskId, onCancel) {
      const stopLocal = local.watchCancel(taskId, onCancel);
      let isReading = false;
      const timer = setInterval(() => {
        if (isReading) return;
        isReading = true;
        void link
          .attempt((redis) => hold(redis, ...keysOf(taskId), leaseMs), null)
          .then((status) => {
            // Cancelled, or ended by a replica that found its lease lapsed (this process was paused): stop.
            if (status !== null && status !== 'working') local.notifyCancelled(taskId);
          })
          .finally(() => (isReading = false));
      }, pollMs);
      timer.unref(); // a watch never keeps a process alive
      return () => {
        clearInterval(timer);
        stopLocal();
      };
    },
  };
}

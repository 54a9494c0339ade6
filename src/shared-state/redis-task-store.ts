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
// Redis unreachable (redis-link.ts): tasks are created in and read from this process's memory (`local`); a task
// created on Redis is not found meanwhile, and its result, should its work end then, is kept in memory only.
import type { RedisLink } from './redis-link.js';
import { createMemoryTaskStore, type TaskRecord, type TaskStore } from './task-store.js';

/** How often a replica running a task reads whether another has cancelled it. */
export const CANCEL_POLL_MS = 1000;

const taskKey = (taskId: string) => `task:${taskId}`;

// KEYS: task. ARGV: status, task JSON, ttl ms.
const CREATE = `
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'task', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

// KEYS: task. ARGV: status, task JSON, ttl ms. 0: no such task, or it has ended.
const UPDATE = `
if redis.call('HGET', KEYS[1], 'status') ~= 'working' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'task', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

export interface RedisTaskStoreOptions {
  readonly pollMs?: number;
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
  const create = link.script(CREATE, 1);
  const update = link.script(UPDATE, 1);
  const write = (script: typeof create, task: TaskRecord) =>
    link.attempt((redis) => script(redis, taskKey(task.taskId), task.status, JSON.stringify(task), task.ttlMs), -1);

  return {
    async create(task) {
      if ((await write(create, task)) !== 1) await local.create(task);
    },
    async get(taskId) {
      const text = await link.attempt((redis) => redis.hget(taskKey(taskId), 'task'), null);
      return parseTask(text) ?? local.get(taskId);
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
          .attempt((redis) => redis.hget(taskKey(taskId), 'status'), null)
          .then((status) => {
            if (status === 'cancelled') local.notifyCancelled(taskId);
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

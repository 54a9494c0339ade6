import { expect, it } from 'vitest';
import { describeWithRedis, useRedisConnections } from '../../test/redis-server.js';
import { createRedisTaskStore } from './redis-task-store.js';
import { createMemoryTaskStore, type TaskRecord, type TaskStore } from './task-store.js';

const TASK: TaskRecord = {
  taskId: 'd3b07384-d9a0-4e7b-8f3c-1c2d3e4f5a6b',
  status: 'working',
  statusMessage: 'started',
  createdAt: '2026-11-27T10:00:00.000Z',
  lastUpdatedAt: '2026-11-27T10:00:00.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 1000,
};
const RESULT = { content: [], structuredContent: { status: 'ok', pages: [] } };

/** What every task store does, whoever shares it. */
async function endsOnce(writer: TaskStore, reader: TaskStore): Promise<void> {
  await writer.create(TASK);
  expect(await reader.get(TASK.taskId)).toEqual(TASK);
  expect(await writer.update({ ...TASK, statusMessage: '2 pages read' })).toBe(true);
  expect(await reader.update({ ...TASK, status: 'cancelled' })).toBe(true);
  // The result comes after the cancellation: refused, the task stays cancelled.
  expect(await writer.update({ ...TASK, status: 'completed', result: RESULT })).toBe(false);
  expect(await reader.get(TASK.taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'started' });
  expect(await reader.update({ ...TASK, taskId: 'no-such-task' })).toBe(false);
}

it('a task in memory ends once: a write after its end is refused; a cancellation tells its watchers', async () => {
  const store = createMemoryTaskStore();
  const cancelled: string[] = [];
  const stop = store.watchCancel(TASK.taskId, () => cancelled.push('first'));
  store.watchCancel(TASK.taskId, () => cancelled.push('second'))();
  await endsOnce(store, store);
  stop();
  expect(cancelled).toEqual(['first']);
});

it('a task in memory is kept for its ttlMs after its last change, and the oldest goes first past the cap', async () => {
  let now = 0;
  const store = createMemoryTaskStore({ now: () => now, maxEntries: 2 });
  await store.create(TASK);
  now = 59_999;
  expect(await store.get(TASK.taskId)).toBeDefined();
  now = 60_000;
  expect(await store.get(TASK.taskId)).toBeUndefined();
  for (const id of ['a', 'b', 'c']) await store.create({ ...TASK, taskId: id });
  expect([await store.get('a'), await store.get('b'), await store.get('c')].map(Boolean)).toEqual([false, true, true]);
});

describeWithRedis('tasks shared through Redis', (server) => {
  const connections = useRedisConnections(server);

  it('a task one replica writes is read and cancelled on another, and ends once', async () => {
    const [a, b] = [createRedisTaskStore(await connections.link()), createRedisTaskStore(await connections.link())];
    await endsOnce(a, b);
    expect(await connections.inspect().pttl(`task:${TASK.taskId}`)).toBeGreaterThan(50_000);
  });

  it('the replica running a task hears of its cancellation on another within its poll', async () => {
    const running = createRedisTaskStore(await connections.link(), { pollMs: 20 });
    const other = createRedisTaskStore(await connections.link());
    const task = { ...TASK, taskId: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b' };
    await running.create(task);
    const heard = new Promise<string>((resolve) => running.watchCancel(task.taskId, () => resolve('cancelled')));
    await other.update({ ...task, status: 'cancelled' });
    expect(await heard).toBe('cancelled');
  });

  it('a task whose owner stops renewing its lease is ended once, by the first reader told how; a held one is not', async () => {
    const owner = createRedisTaskStore(await connections.link(), { pollMs: 20, leaseMs: 200 });
    const reader = createRedisTaskStore(await connections.link(), { leaseMs: 200 });
    const ended: string[] = [];
    const orphaned = (task: TaskRecord): TaskRecord => {
      ended.push(task.taskId);
      return { ...task, status: 'failed', statusMessage: `lost; continue with ${task.continueFrom}` };
    };
    const held = { ...TASK, taskId: 'a1b2c3d4-0000-4000-8000-000000000001' };
    const dead = { ...TASK, taskId: 'a1b2c3d4-0000-4000-8000-000000000002' };
    await owner.create(held);
    await owner.create(dead);
    const stop = owner.watchCancel(held.taskId, () => ended.push('told'));
    expect(await owner.update({ ...dead, continueFrom: 'the-crawl-id' })).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400)); // two leases long: the unwatched one lapses
    expect(await reader.get(held.taskId, orphaned)).toMatchObject({ status: 'working' });
    expect(await reader.get(dead.taskId)).toMatchObject({ status: 'working' }); // not told how: left as it is
    expect(await reader.get(dead.taskId, orphaned)).toMatchObject({
      status: 'failed',
      statusMessage: 'lost; continue with the-crawl-id',
    });
    expect(await owner.get(dead.taskId, orphaned)).toMatchObject({ status: 'failed' });
    expect(ended).toEqual([dead.taskId]);
    // The owner, had it only paused, hears at its next poll that its task has ended.
    const heard = new Promise<string>((resolve) => owner.watchCancel(dead.taskId, () => resolve('stopped')));
    expect(await heard).toBe('stopped');
    stop();
  });
});

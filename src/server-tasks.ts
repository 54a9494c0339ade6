// MCP Tasks (protocol 2025-11-25, "Tasks"; the SDK's experimental API, @modelcontextprotocol/sdk 1.32): a client
// may call a long tool as a task — the call answers at once with a task id, the client polls tasks/get and fetches
// the result with tasks/result, so no request timeout applies to the work. Offered for the crawl only (the one tool
// that runs long); the crawl's own max_seconds still applies, so a task crawl may be given up to an hour.
//
// The SDK answers tasks/get, tasks/result, tasks/list and tasks/cancel itself from the task store; this module
// creates the task, runs the tool in the background, stores its result, and aborts the work when the client
// cancels the task (the store's status change is the only signal the SDK gives, hence the store subclass).
// Not handled: progress notifications for a task (they would go to a request that has already been answered);
// the task's status message says how far the crawl is instead.
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { CreateTaskRequestHandlerExtra } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { CallToolResult, ServerCapabilities, Task } from '@modelcontextprotocol/sdk/types.js';

export { TASK_TOOLS } from './server-calls.js';

/** How long a finished task's result is kept when the client asks for longer or says nothing (ms). */
export const MAX_TASK_TTL_MS = 60 * 60 * 1000;
const POLL_INTERVAL_MS = 1000;

export const TASK_CAPABILITIES: NonNullable<ServerCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

/** The SDK's in-memory store, plus an abort for the work of a task the client cancels. */
export class CancellableTaskStore extends InMemoryTaskStore {
  private readonly running = new Map<string, AbortController>();

  track(taskId: string): AbortSignal {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    return controller.signal;
  }

  untrack(taskId: string): void {
    this.running.delete(taskId);
  }

  override async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === 'cancelled') this.running.get(taskId)?.abort(new Error('Task cancelled by the client'));
  }

  /** Aborts every running task (the server is closing). */
  abortAll(): void {
    for (const controller of this.running.values()) controller.abort(new Error('Server closing'));
    this.running.clear();
  }
}

export interface TaskWork {
  (signal: AbortSignal, onStatus: (message: string) => void): Promise<CallToolResult>;
}

/** Creates the task, starts the work without waiting for it, and answers the tools/call with the task. */
export async function startToolTask(
  store: CancellableTaskStore,
  requested: { ttl?: number | undefined },
  extra: CreateTaskRequestHandlerExtra,
  work: TaskWork,
): Promise<{ task: Task }> {
  const ttl = Math.min(requested.ttl ?? MAX_TASK_TTL_MS, MAX_TASK_TTL_MS);
  const task = await extra.taskStore.createTask({ ttl, pollInterval: POLL_INTERVAL_MS });
  // Only tasks/cancel stops the work: the tools/call that created the task is answered now, and its end is not
  // the client going away.
  const signal = store.track(task.taskId);
  void (async () => {
    try {
      const result = await work(signal, (message) => {
        void extra.taskStore.updateTaskStatus(task.taskId, 'working', message).catch(() => undefined);
      });
      await extra.taskStore.storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result);
    } catch {
      // The task was cancelled (its status is terminal already) or the store dropped it: nothing to store.
    } finally {
      store.untrack(task.taskId);
    }
  })();
  return { task };
}

// Tasks for 2026-07-28 clients: the tasks extension `io.modelcontextprotocol/tasks` (SEP-2663). A client that declares
// the extension on a request (`_meta["io.modelcontextprotocol/clientCapabilities"].extensions`) and calls a tool that
// runs long (TASK_TOOLS: the crawl) gets a task at once — a flat CreateTaskResult, `resultType: "task"` — and reads
// it with `tasks/get`, which inlines the tool's result once it has ended; `tasks/cancel` stops it; `tasks/update`
// answers input a task asked for, which this server's tasks never do. There is no tasks/list and no tasks/result in
// this era (the SDK answers both -32601). A request that did not declare the extension gets the tool's result in
// the call, as always, and tasks/* answer it -32021 (Missing Required Client Capability).
//
// The task lives in the task store (src/shared-state/task-store.ts): this process's memory, or with REDIS_URL the one
// every replica reads, so a task one replica runs is read and cancelled through any other. Its work is the same
// runTool call as any other crawl, on the same resume store: a crawl stopped at its time limit or by a shutdown
// ends the task with its `continue_from` id, which any replica continues. A task whose replica dies (killed, its
// lease lapsed: task-store.ts) is ended by the first tasks/get or tasks/cancel that finds it so, on any replica, as
// `failed` with the crawl's `continue_from` id in its error (`data.continue_from`) and status message: the crawl is
// checkpointed at each page on the same Redis, so continuing it there reads on from its last committed page. Failed
// rather than continued by the reading replica: the crawl's reading options and headers are the caller's, never kept.
//
// Not handled: progress notifications and log lines of a task (the request that started it has been answered; its
// status message says how far it is instead); 2025 clients' tasks are server-tasks.ts's, in the 2025 shape.
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type Server,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { errorMessage } from './errors.js';
import { taskSentences } from './output/notices.js';
import { isEnded, type OrphanedTask, type TaskRecord, type TaskStore } from './shared-state/task-store.js';

/** The extension's identifier, under `capabilities.extensions` of both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a task (and its result) is kept after its last change. */
export const MODERN_TASK_TTL_MS = 60 * 60 * 1000;
/** How often a client should ask for a task's status. */
export const TASK_POLL_INTERVAL_MS = 1000;

/** Whether the request whose `_meta` envelope this is declared the tasks extension. */
export function declaresTasks(envelope: Record<string, unknown> | undefined): boolean {
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/** What a task's work tells its task while it runs. */
export interface TaskReport {
  /** How far it is: the task's status message. */
  status(message: string): void;
  /** The id that continues the work if this replica dies (a checkpointed crawl's continue_from). */
  continueFrom(id: string): void;
}

/** A task's work: the tool call, told when the client cancels, telling how far it is. */
export type TaskWork = (signal: AbortSignal, report: TaskReport) => Promise<CallToolResult>;

/** The tasks one server (HTTP: one endpoint; stdio: one connection) runs, on a task store. */
export interface ModernTasks {
  readonly store: TaskStore;
  /** Creates the task (durably: tasks/get finds it once this resolves), starts `work`, answers the tools/call. */
  start(work: TaskWork): Promise<Record<string, unknown>>;
  /** Aborts the work of every task still running here (the server is closing). */
  abortAll(): void;
}

export interface ModernTasksOptions {
  /** Told when a task's work starts and ends, so that a shutdown waits for it as for a call (graceful-stop.ts). */
  readonly calls?: { begin(): void; end(): void };
}

export function createModernTasks(store: TaskStore, options: ModernTasksOptions = {}): ModernTasks {
  const running = new Set<AbortController>();
  return {
    store,
    async start(work) {
      const time = new Date().toISOString();
      const task: TaskRecord = {
        taskId: randomUUID(),
        status: 'working',
        statusMessage: taskSentences.started,
        createdAt: time,
        lastUpdatedAt: time,
        ttlMs: MODERN_TASK_TTL_MS,
        pollIntervalMs: TASK_POLL_INTERVAL_MS,
      };
      await store.create(task);
      const controller = new AbortController();
      running.add(controller);
      options.calls?.begin();
      const stopWatching = store.watchCancel(task.taskId, () => controller.abort(new Error(taskSentences.cancelled)));
      // Writes go one after the other, so the result is never overwritten by a status message still on its way.
      let latest = task;
      let writes: Promise<unknown> = Promise.resolve();
      const write = (change: Partial<TaskRecord>) => {
        latest = { ...latest, ...change, lastUpdatedAt: new Date().toISOString() };
        const next = latest;
        writes = writes.then(() => store.update(next)).catch(() => undefined);
        return writes;
      };
      void (async () => {
        try {
          const result = await work(controller.signal, {
            status: (message) => void write({ statusMessage: message }),
            continueFrom: (id) => void write({ continueFrom: id }),
          });
          // A tool's own error is a completed task whose result says isError (SEP-2663 "error semantics"); a
          // cancelled task stays cancelled (the store refuses to change an ended task).
          // The result inlined as the call would have answered it in this era, `resultType` included (the tasks
          // extension's requester, @modelcontextprotocol/ext-tasks, refuses one without).
          await write({ status: 'completed', result: { ...result, resultType: 'complete' } });
        } catch (error) {
          const message = taskSentences.failed(errorMessage(error));
          await write({
            status: 'failed',
            statusMessage: message,
            error: { code: ProtocolErrorCode.InternalError, message },
          });
        } finally {
          stopWatching();
          running.delete(controller);
          options.calls?.end();
        }
      })();
      return { resultType: 'task', ...task };
    },
    abortAll() {
      for (const controller of running) controller.abort(new Error('Server closing'));
      running.clear();
    },
  };
}

const TaskParams = z.looseObject({ taskId: z.string() });

/** A task whose replica died (its lease lapsed) ends failed, handing out the id that continues its work. */
const orphaned: OrphanedTask = (task) => {
  const message = taskSentences.ownerLost(task.continueFrom);
  const data = task.continueFrom === undefined ? {} : { data: { continue_from: task.continueFrom } };
  return {
    ...task,
    status: 'failed',
    statusMessage: message,
    lastUpdatedAt: new Date().toISOString(),
    error: { code: ProtocolErrorCode.InternalError, message, ...data },
  };
};

/** The task as tasks/get answers it: without what only the server keeps. */
function answerOf(task: TaskRecord): Record<string, unknown> {
  const { continueFrom: _kept, ...answer } = task;
  return answer;
}

/** Answers tasks/get, tasks/update and tasks/cancel on `server` from `store`. */
export function registerTaskMethods(server: Server, store: TaskStore): void {
  async function find(method: string, taskId: string, envelope: Record<string, unknown> | undefined) {
    if (!declaresTasks(envelope)) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        taskSentences.undeclared(method, TASKS_EXTENSION),
      );
    }
    const task = await store.get(taskId, orphaned);
    if (!task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, taskSentences.unknown(taskId));
    return task;
  }
  server.setRequestHandler('tasks/get', { params: TaskParams }, async ({ taskId }, ctx) =>
    answerOf(await find('tasks/get', taskId, ctx.mcpReq.envelope)),
  );
  // This server's tasks never ask for input: an update of a task it has is acknowledged, and changes nothing.
  server.setRequestHandler('tasks/update', { params: TaskParams }, async ({ taskId }, ctx) => {
    await find('tasks/update', taskId, ctx.mcpReq.envelope);
    return {};
  });
  // An empty acknowledgement, for a running task as for an ended one (idempotent); the next tasks/get says cancelled.
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, async ({ taskId }, ctx) => {
    const task = await find('tasks/cancel', taskId, ctx.mcpReq.envelope);
    if (!isEnded(task.status)) {
      const time = new Date().toISOString();
      await store.update({ ...task, status: 'cancelled', statusMessage: taskSentences.cancelled, lastUpdatedAt: time });
    }
    return {};
  });
}

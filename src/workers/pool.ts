// A small pool of worker threads for synchronous CPU work (HTML parsing and extraction). Some real pages take
// seconds to extract; off the main thread, one such page cannot stall other calls or the MCP connection
// (SPEC "Safety and politeness"). A task over its time limit has its worker terminated and replaced.
//
// A fair share (issue 23): each caller (callers.ts) has its own queue, and a free worker takes the next task of the
// next caller in turn, so one caller's backlog never stands before another's first page. And one caller holds at
// most `size - 1` workers at once: four slow pages of one session leave a worker for everyone else's, instead of a
// small page waiting seconds behind them. The extractor sizes the pool one over the cores for that spare worker,
// which starts only when one caller holds all the others (mayGrow).
// A task's time limit runs from when its worker is ready: a worker script posts `{ ready: true }` once its modules
// are loaded, and a worker's start (hundreds of ms, seconds on a busy machine) never counts against the first
// task's limit; before, the first read on a loaded machine could fail EXTRACTION_TIMEOUT while the worker loaded.
// Not handled here: choosing what runs; the worker script dispatches by task name.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { ExtractionError } from '../errors.js';
import { currentCaller, type Caller } from './callers.js';

interface Job {
  readonly caller: Caller;
  readonly task: string;
  readonly input: unknown;
  readonly timeoutMs: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded its modules (its script said `{ ready: true }`): a task's time limit may run. */
  ready: boolean;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

export interface WorkerPool {
  run<T>(task: string, input: unknown, timeoutMs: number): Promise<T>;
  /**
   * Starts one worker ahead of the first task when none runs yet: a worker thread loads its modules on its own core
   * while the caller does other work (issue 23 item 7). Idle, it keeps no process alive.
   */
  warm(): void;
  close(): Promise<void>;
}

/**
 * The young generation of each worker's heap, in MB. V8's default (tens of MB for a semi-space pair, sized for the main
 * thread) let a 9 MB page's extraction leave that much short-lived garbage beside its tree before a scavenge:
 * bench:memory's 9 MB page added about 185 MB with it, about 155 MB with this (issue 23 item 8). Long-lived nodes are
 * promoted as before; only how much garbage waits for a scavenge changes.
 */
export const WORKER_YOUNG_GENERATION_MB = 8;

/** The old generation's cap of each worker, MB, for MAX_RESPONSE_SIZE's default (10 MB): see workerResourceLimits. */
const MIN_OLD_GENERATION_MB = 1024;
/** MB of old generation allowed per MB of MAX_RESPONSE_SIZE: a 9 MB page's extraction peaks near 155 MB. */
const OLD_GENERATION_PER_PAGE_MB = 100;

/**
 * Each extraction worker's heap limits. The young generation: above. The old generation is capped (V8's own limit is
 * the machine's, 4 GB here) for two reasons: a page whose extraction would need more fails alone — its worker ends
 * with ERR_WORKER_OUT_OF_MEMORY and is replaced, the read is EXTRACTION_FAILED — instead of growing the process until
 * the system ends it; and V8 grows a capped heap by a smaller factor between full collections, so the garbage of
 * earlier pages is collected sooner (bench:extract's modern set in the pool's worker: 116 MB peak with the cap,
 * 159–164 MB without, docs/benchmarks.md). The cap follows MAX_RESPONSE_SIZE, so a larger page limit keeps room.
 */
export function workerResourceLimits(maxResponseBytes = 10 * 1024 * 1024): ResourceLimits {
  const pageMb = Math.ceil(maxResponseBytes / (1024 * 1024));
  return {
    maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
    maxOldGenerationSizeMb: Math.max(MIN_OLD_GENERATION_MB, pageMb * OLD_GENERATION_PER_PAGE_MB),
  };
}

export function createWorkerPool(
  script: URL,
  size: number,
  limits: ResourceLimits = workerResourceLimits(),
): WorkerPool {
  const slots: Slot[] = [];
  // The callers with waiting tasks, in turn order (a Map keeps insertion order): the one served goes to the back.
  const waiting = new Map<Caller, Job[]>();
  const held = new Map<Caller, number>();
  const perCaller = Math.max(1, size - 1);
  let closed = false;

  /** The next task a free worker takes: the first caller in turn below its share, its oldest task. */
  function take(): Job | undefined {
    for (const [caller, jobs] of waiting) {
      if ((held.get(caller) ?? 0) >= perCaller) continue;
      const job = jobs.shift()!;
      waiting.delete(caller);
      if (jobs.length > 0) waiting.set(caller, jobs);
      held.set(caller, (held.get(caller) ?? 0) + 1);
      return job;
    }
    return undefined;
  }

  function release(job: Job): void {
    const count = (held.get(job.caller) ?? 1) - 1;
    if (count > 0) held.set(job.caller, count);
    else held.delete(job.caller);
  }

  function spawn(): Slot {
    const worker = new Worker(script, { resourceLimits: limits });
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined };
    // An idle pool must not keep the process alive (a CLI run ends when its output is written).
    slot.worker.unref();
    slot.worker.on('message', (message: { ready?: true; ok: boolean; value?: unknown; error?: string }) => {
      if (message.ready) {
        slot.ready = true;
        if (slot.job) arm(slot, slot.job);
        return;
      }
      const job = finish(slot);
      if (!job) return;
      if (message.ok) job.resolve(message.value);
      else job.reject(new ExtractionError('EXTRACTION_FAILED', `Extraction failed: ${message.error ?? 'unknown'}`));
      dispatch();
    });
    slot.worker.on('error', (error) => {
      const job = finish(slot);
      replace(slot);
      job?.reject(new ExtractionError('EXTRACTION_FAILED', `Extraction worker crashed: ${error.message}`));
    });
    return slot;
  }

  function finish(slot: Slot): Job | undefined {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    if (job) release(job);
    return job;
  }

  function replace(slot: Slot): void {
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (closed || index < 0) return;
    slots[index] = spawn();
    dispatch();
  }

  /**
   * Whether a worker may be added: up to `size - 1` whenever work waits; the last, spare one only once a caller holds
   * all those (its share), so that it is there for the others. Callers that each hold less share the regular workers:
   * on two cores, two workers, not three competing for them, and no third worker's start paid (issue 22's
   * benchmark: links at 1.20× the CPU of the build before the fair share, 0.89× with the spare spawned only then).
   */
  function mayGrow(): boolean {
    if (slots.length < perCaller) return true;
    if (slots.length >= size) return false;
    for (const count of held.values()) if (count >= perCaller) return true;
    return false;
  }

  /** Gives each free worker (spawning as mayGrow allows) the next task in turn; a worker left idle is unref'd. */
  function dispatch(): void {
    while (!closed) {
      let idle = slots.find((slot) => !slot.job);
      if (!idle && !mayGrow()) break;
      const job = take();
      if (!job) break;
      if (!idle) {
        idle = spawn();
        slots.push(idle);
      }
      start(idle, job);
    }
    for (const slot of slots) if (!slot.job) slot.worker.unref();
  }

  function start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    // A worker still loading takes the message when it is ready; the limit runs from then (arm, on `ready`).
    slot.worker.postMessage({ task: job.task, input: job.input });
    if (slot.ready) arm(slot, job);
  }

  function arm(slot: Slot, job: Job): void {
    slot.timer = setTimeout(() => {
      finish(slot);
      replace(slot);
      job.reject(
        new ExtractionError('EXTRACTION_TIMEOUT', `Extraction took longer than ${job.timeoutMs} ms and was stopped.`),
      );
    }, job.timeoutMs);
  }

  return {
    run<T>(task: string, input: unknown, timeoutMs: number): Promise<T> {
      if (closed) return Promise.reject(new Error('worker pool is closed'));
      const caller = currentCaller();
      return new Promise<T>((resolve, reject) => {
        const job: Job = { caller, task, input, timeoutMs, resolve: resolve as (value: unknown) => void, reject };
        const queue = waiting.get(caller);
        if (queue) queue.push(job);
        else waiting.set(caller, [job]);
        dispatch();
      });
    },
    warm(): void {
      if (!closed && slots.length === 0) slots.push(spawn());
    },
    async close(): Promise<void> {
      closed = true;
      const queued = [...waiting.values()].flat();
      waiting.clear();
      for (const job of queued) job.reject(new Error('worker pool is closed'));
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}

// A small pool of worker threads for synchronous CPU work (HTML parsing and extraction). Some real pages take
// seconds to extract; off the main thread, one such page cannot stall other calls or the MCP connection
// (SPEC "Safety and politeness"). A task over its time limit has its worker terminated and replaced.
// Not handled here: choosing what runs; the worker script dispatches by task name.
import { Worker } from 'node:worker_threads';
import { ExtractionError } from '../errors.js';

interface Job {
  readonly task: string;
  readonly input: unknown;
  readonly timeoutMs: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

export interface WorkerPool {
  run<T>(task: string, input: unknown, timeoutMs: number): Promise<T>;
  close(): Promise<void>;
}

export function createWorkerPool(script: URL, size: number): WorkerPool {
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  let closed = false;

  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(script), job: undefined, timer: undefined };
    // An idle pool must not keep the process alive (a CLI run ends when its output is written).
    slot.worker.unref();
    slot.worker.on('message', (message: { ok: boolean; value?: unknown; error?: string }) => {
      const job = finish(slot);
      if (!job) return;
      if (message.ok) job.resolve(message.value);
      else job.reject(new ExtractionError('EXTRACTION_FAILED', `Extraction failed: ${message.error ?? 'unknown'}`));
      next(slot);
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
    return job;
  }

  function replace(slot: Slot): void {
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (closed || index < 0) return;
    const fresh = spawn();
    slots[index] = fresh;
    next(fresh);
  }

  function next(slot: Slot): void {
    const job = waiting.shift();
    if (!job) {
      slot.worker.unref();
      return;
    }
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      finish(slot);
      replace(slot);
      job.reject(
        new ExtractionError('EXTRACTION_TIMEOUT', `Extraction took longer than ${job.timeoutMs} ms and was stopped.`),
      );
    }, job.timeoutMs);
    slot.worker.postMessage({ task: job.task, input: job.input });
  }

  return {
    run<T>(task: string, input: unknown, timeoutMs: number): Promise<T> {
      if (closed) return Promise.reject(new Error('worker pool is closed'));
      return new Promise<T>((resolve, reject) => {
        waiting.push({ task, input, timeoutMs, resolve: resolve as (value: unknown) => void, reject });
        let idle = slots.find((slot) => !slot.job);
        if (!idle && slots.length < size) {
          idle = spawn();
          slots.push(idle);
        }
        if (idle) next(idle);
      });
    },
    async close(): Promise<void> {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new Error('worker pool is closed'));
      await Promise.all(slots.splice(0).map((slot) => slot.worker.terminate()));
    },
  };
}

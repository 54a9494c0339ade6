// Worker thread entry: runs one named pure task per message and posts back its result or its error message.
import { parentPort } from 'node:worker_threads';
import { TASKS } from './tasks.js';

// Loaded: the pool runs a task's time limit from here on, not while this thread was starting (pool.ts).
parentPort?.postMessage({ ready: true });

// A task may return a promise (PDF.js is asynchronous): the pool sends one job at a time, so awaiting is safe.
parentPort?.on('message', async (message: { task: string; input: never }) => {
  try {
    const run = TASKS[message.task];
    if (!run) throw new Error(`unknown task '${message.task}'`);
    parentPort?.postMessage({ ok: true, value: await run(message.input) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});

// RENDER_CONCURRENCY: pages rendered at once. A render beyond it waits for a slot, but never past its own deadline
// or cancellation: its signal takes it out of the line.

export interface RenderSlots {
  /** Resolves with a release function once a slot is free; rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void>;
  /** Renders running now and renders waiting. */
  readonly running: number;
  readonly waiting: number;
}

export function createRenderSlots(size: number): RenderSlots {
  let running = 0;
  const line: Array<() => void> = [];

  function release() {
    running--;
    line.shift()?.();
  }

  function once(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  return {
    get running() {
      return running;
    },
    get waiting() {
      return line.length;
    },
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (running < size) {
        running++;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const take = () => {
          signal.removeEventListener('abort', onAbort);
          running++;
          resolve(once());
        };
        const onAbort = () => {
          const index = line.indexOf(take);
          if (index >= 0) line.splice(index, 1);
          reject(signal.reason);
        };
        line.push(take);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

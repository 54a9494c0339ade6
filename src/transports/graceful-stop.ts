// Shutdown in two steps, shared by both transports (issue 10, scope 3): first a graceful stop — `stopSignal`
// tells running tools to stop starting new work and return what they have (a crawl marks its result as stopped) —
// then, once the grace period has passed with calls still running, a cancellation (`cancelSignal`).
import { setMaxListeners } from 'node:events';

/** How long a shutdown lets running calls finish before cancelling them. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export class GracefulStop {
  readonly #stop = new AbortController();
  readonly #cancel = new AbortController();
  #running = 0;
  #idle: (() => void)[] = [];

  constructor() {
    // Process-long signals that hold one listener per running call (a JSON API call's on cancelSignal, a crawl's on
    // stopSignal), each removed when its call ends: more than 10 calls at once is load, not a leak, and Node's
    // MaxListenersExceededWarning must not say otherwise (issue 23).
    setMaxListeners(0, this.#stop.signal, this.#cancel.signal);
  }

  /** Aborted when shutdown begins: tools return early with what they have. */
  get stopSignal(): AbortSignal {
    return this.#stop.signal;
  }

  /** Aborted when the grace period ends: what still runs is abandoned. */
  get cancelSignal(): AbortSignal {
    return this.#cancel.signal;
  }

  get running(): number {
    return this.#running;
  }

  /** A call started; shutdown waits for its `end()`. */
  begin(): void {
    this.#running += 1;
  }

  end(): void {
    this.#running -= 1;
    if (this.#running > 0) return;
    for (const wake of this.#idle.splice(0)) wake();
  }

  /**
   * Aborts `stopSignal`, waits until no call runs or `graceMs` has passed, then aborts `cancelSignal`.
   * Resolves with the number of calls that were still running at the deadline (cancelled).
   */
  async stop(graceMs: number, reason = 'The server is shutting down.'): Promise<number> {
    this.#stop.abort(new Error(reason));
    if (this.#running > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.#idle.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    const left = this.#running;
    this.#cancel.abort(new Error(`${reason} Cancelled after the ${graceMs} ms grace period.`));
    return left;
  }
}

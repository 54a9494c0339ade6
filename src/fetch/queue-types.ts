// The request queue's terms (src/fetch/queue.ts, which says what each limit bounds): its options, the shared turns
// of other replicas, a call's options, and the queue itself.
export interface QueueOptions {
  readonly maxConcurrent: number;
  readonly perDomainIntervalMs: number;
  /** QUEUE_TIMEOUT: the longest a call waits for its turn before it is refused with QUEUE_TIMEOUT. */
  readonly maxWaitMs: number;
  /** Replaceable in tests; DEFAULT_SLOW_AFTER_MS otherwise. */
  readonly slowAfterMs?: number;
  /** The clock, replaceable in tests. */
  readonly now?: () => number;
  /** PER_DOMAIN_INTERVAL across replicas; none: this process's spacing is the only one. */
  readonly turns?: HostTurns;
}

/**
 * A host's turns shared with other processes. The stored fact is when the host's last request started; each caller
 * measures its own interval from it, so PER_DOMAIN_INTERVAL and a longer Crawl-delay can share one key.
 */
export interface HostTurns {
  /**
   * Takes the host's turn when `intervalMs` has passed since the last start any process took (resolves 0), or
   * takes nothing and resolves with the milliseconds left. Never rejects: a store that cannot answer resolves 0,
   * leaving this process's own spacing in force.
   */
  take(key: string, intervalMs: number): Promise<number>;
}

export interface ScheduleOptions {
  /** The caller's cancellation: a waiting call leaves the queue, a running one answers at once, with its reason. */
  readonly signal?: AbortSignal;
  /** The network deadline, counted from the moment the task leaves the queue; passing it aborts the task's signal. */
  readonly timeoutMs: number;
  /** A request nobody asked for: an idle turn, which yields to every caller's request (see above). */
  readonly idle?: boolean;
}

export interface RequestQueue {
  /**
   * Runs `task` when the URL's host may be contacted again and a slot is free. The task receives one signal that
   * aborts on the caller's cancellation or on the deadline (with a TimeoutError as its reason). Rejects with a
   * QUEUE_TIMEOUT TimeoutError when the call cannot start within the wait limit.
   */
  schedule<T>(url: string, task: (signal: AbortSignal) => Promise<T>, options: ScheduleOptions): Promise<T>;
  /** Requests running now (slow ones included) and calls waiting; for tests and diagnostics. */
  readonly active: number;
  readonly waiting: number;
}

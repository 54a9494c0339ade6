// Politeness and load control for network fetches (seeds/url-reader-architecture.md services/queue.ts): at most
// MAX_CONCURRENT requests run at once, and requests to one host start at least PER_DOMAIN_INTERVAL apart. A call
// waiting for its turn still honours its own deadline (FETCH_TIMEOUT, or web_scraper's `timeout`) and cancellation:
// it leaves the queue at once, and the deadline covers the wait and the request together.
// Not handled: Crawl-delay from robots.txt (the crawler asks for its own spacing).
import { TimeoutError } from '../errors.js';

export interface QueueOptions {
  readonly maxConcurrent: number;
  readonly perDomainIntervalMs: number;
  /** The clock, replaceable in tests. */
  readonly now?: () => number;
}

export interface ScheduleOptions {
  /** The caller's cancellation: a call still waiting leaves the queue with the signal's reason. */
  readonly signal?: AbortSignal;
  /** The whole-call deadline, from the moment of scheduling; passing it rejects with a TimeoutError. */
  readonly timeoutMs: number;
}

export interface RequestQueue {
  /**
   * Runs `task` when a slot is free and the URL's host may be contacted again. The task receives one signal that
   * aborts on the caller's cancellation or on the deadline (with a TimeoutError as its reason).
   */
  schedule<T>(url: string, task: (signal: AbortSignal) => Promise<T>, options: ScheduleOptions): Promise<T>;
  /** Calls running now and calls waiting; for tests and diagnostics. */
  readonly active: number;
  readonly waiting: number;
}

interface Waiter {
  readonly host: string;
  readonly start: () => void;
}

/** The host a spacing applies to: the name with its port, lower-case (one server, one interval). */
export function queueKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url; // the caller validated the URL; an unparseable one gets a bucket of its own
  }
}

export function createRequestQueue(options: QueueOptions): RequestQueue {
  const now = options.now ?? Date.now;
  const maxConcurrent = Math.max(1, options.maxConcurrent);
  const interval = Math.max(0, options.perDomainIntervalMs);
  const lastStart = new Map<string, number>();
  const waiting: Waiter[] = [];
  let active = 0;
  let timer: NodeJS.Timeout | undefined;

  // Starts every waiter that may start now, in arrival order; a waiter held back by its host's interval does not
  // hold back another host's. Then sleeps until the next host becomes free.
  function pump(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    let wakeAt = Infinity;
    for (let index = 0; index < waiting.length && active < maxConcurrent;) {
      const waiter = waiting[index]!;
      const readyAt = (lastStart.get(waiter.host) ?? -Infinity) + interval;
      if (readyAt <= now()) {
        waiting.splice(index, 1);
        lastStart.set(waiter.host, now());
        active++;
        waiter.start();
      } else {
        wakeAt = Math.min(wakeAt, readyAt);
        index++;
      }
    }
    forgetIdleHosts();
    if (wakeAt !== Infinity && active < maxConcurrent) {
      timer = setTimeout(pump, Math.max(0, wakeAt - now()));
      // A pending wake-up must not keep a finished CLI run alive; the waiting calls' own timers do that.
      timer.unref();
    }
  }

  // A host last contacted longer than the interval ago needs no entry: keeps the map small on long crawls.
  function forgetIdleHosts(): void {
    if (lastStart.size < 1024) return;
    for (const [host, at] of lastStart) if (at + interval <= now()) lastStart.delete(host);
  }

  function schedule<T>(url: string, task: (signal: AbortSignal) => Promise<T>, opts: ScheduleOptions): Promise<T> {
    const deadline = new AbortController();
    const deadlineTimer = setTimeout(() => deadline.abort(new TimeoutError(url, opts.timeoutMs)), opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([deadline.signal, opts.signal]) : deadline.signal;
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        clearTimeout(deadlineTimer);
        reject(signal.reason);
        return;
      }
      const waiter: Waiter = {
        host: queueKey(url),
        start: () => {
          signal.removeEventListener('abort', leave);
          task(signal)
            .then(resolve, reject)
            .finally(() => {
              clearTimeout(deadlineTimer);
              active--;
              pump();
            });
        },
      };
      function leave(): void {
        const index = waiting.indexOf(waiter);
        if (index < 0) return;
        waiting.splice(index, 1);
        clearTimeout(deadlineTimer);
        reject(signal.reason);
        pump();
      }
      signal.addEventListener('abort', leave, { once: true });
      waiting.push(waiter);
      pump();
    });
  }

  return {
    schedule,
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

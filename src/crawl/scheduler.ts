// The crawl's slot scheduler: which visits run and when the crawl stops waiting for them.
//
// Order and concurrency: up to `concurrency` URLs from the head of the frontier are fetched at once (the shared
// queue still enforces MAX_CONCURRENT and PER_DOMAIN_INTERVAL), but results are committed in frontier order, so the
// pages, the budget and the links enqueued are exactly those of a one-at-a-time BFS. When the frontier runs dry
// behind a page still being read, links of later finished pages are started early and taken over at their turn.
// Pages are never started beyond what max_pages could still use.
//
// Time: the crawl's deadline (the tool's max_seconds) and its graceful stop (server shutdown) halt it at once:
// what has already been fetched at the head of the frontier is still committed, nothing new starts, and the
// visits in flight are not waited on (crawl-site.ts abandons them and returns them to the frontier).
import type { BudgetStop, StopReason } from './commit.js';
import type { CrawlEntry, Frontier } from './frontier.js';
import type { VisitResult } from './visit.js';

/** Finished visits that may wait for an earlier one, per unit of concurrency. */
const LOOKAHEAD_FACTOR = 4;

/** Why a crawl ended early on purpose, as opposed to a limit of its budget. */
export type Halt = 'time_limit' | 'stopped';

export interface SchedulerOptions {
  readonly frontier: Frontier;
  readonly visit: (entry: CrawlEntry) => Promise<VisitResult>;
  readonly concurrency: number;
  readonly maxPages: number;
  /** Pages read over the whole crawl. */
  readonly pagesRead: () => number;
  /** Cancellation: the loop ends with stop reason 'cancelled'. */
  readonly signal: AbortSignal;
  readonly timeLimitMs?: number | undefined;
  readonly stopSignal?: AbortSignal | undefined;
}

export interface Scheduler {
  /** Why the crawl was halted, once its time limit passed or it was stopped. */
  halted(): Halt | undefined;
  /** Settles when the crawl is halted (never otherwise): what a wait races against. */
  readonly halt: Promise<void>;
  /**
   * Visits the frontier and hands each result to `commit` in frontier order, until `limit` says a budget is spent,
   * the crawl is halted or cancelled, or nothing is left. Ends the time limit's timer and stop listener.
   */
  run(commit: (result: VisitResult) => Promise<void>, limit: () => BudgetStop | undefined): Promise<StopReason>;
  /** Entries taken from the frontier and not committed yet, in frontier order. */
  inFlight(): CrawlEntry[];
  /** URLs started ahead of their turn and not taken over by the frontier. */
  earlyUrls(): string[];
  /** Resolves once every visit started has ended. */
  settled(): Promise<void>;
}

interface Task {
  readonly entry: CrawlEntry;
  readonly result: Promise<VisitResult>;
  done: boolean;
  /** The result once settled: a finished page's links can be read before its turn. */
  value?: VisitResult;
  /** How many of its links have been looked at for pages to start early. */
  linksLooked: number;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { frontier, visit, concurrency, maxPages, pagesRead, signal, stopSignal } = options;

  // `halted` is what the loop checks; `halt` is what it waits on beside the pages in flight, so a deadline that
  // passes while a page is slow ends the wait at once.
  let halted: Halt | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const halt = new Promise<void>((resolve) => {
    const end = (reason: Halt) => {
      halted ??= reason;
      resolve();
    };
    if (options.timeLimitMs !== undefined) timer = setTimeout(() => end('time_limit'), options.timeLimitMs);
    onStop = () => end('stopped');
    if (stopSignal?.aborted) end('stopped');
    else stopSignal?.addEventListener('abort', onStop, { once: true });
  });

  // Visits in frontier order. Up to `concurrency` run at once; a finished one frees its slot at once, even while an
  // earlier one is still running, and results wait (at most LOOKAHEAD of them) to be committed in frontier order.
  const inFlight: Task[] = [];
  // Pages started ahead of their turn. When the frontier has run dry while an earlier page is still being read (a
  // site whose pages link to few others), the links of later pages that have finished are started early; each
  // joins the frontier in its proper order when its page is committed and takes the result already fetched. Pages,
  // order and budget stay those of a one-at-a-time BFS.
  const early = new Map<string, Task>();
  const lookahead = concurrency * LOOKAHEAD_FACTOR;

  function start(entry: CrawlEntry): Task {
    return settle({ entry, result: visit(entry), done: false, linksLooked: 0 });
  }

  /** A task started early, now at its turn in the frontier: its result, under the frontier's entry. */
  function adopt(task: Task, entry: CrawlEntry): Task {
    return settle({ entry, result: task.result.then((result) => ({ ...result, entry })), done: false, linksLooked: 0 });
  }

  function settle(task: Task): Task {
    // Rejections (cancellation) are collected below; this only keeps a not-yet-awaited one from being reported.
    task.result.then(
      (value) => {
        task.done = true;
        task.value = value;
      },
      () => (task.done = true),
    );
    return task;
  }

  const running = (): Task[] => [...inFlight, ...early.values()].filter((task) => !task.done);

  /** The next link of a finished page waiting for its turn that the crawl does not know yet and may follow. */
  function nextEarlyEntry(): CrawlEntry | undefined {
    for (const task of inFlight) {
      if (task.value?.kind !== 'page') continue;
      const { links } = task.value;
      while (task.linksLooked < links.length) {
        const depth = task.entry.depth + 1;
        const url = frontier.followable(links[task.linksLooked++]!, depth);
        if (url && !early.has(url)) return { url, depth };
      }
    }
    return undefined;
  }

  // Starts what may start: the frontier's next entries in order (an entry started early is taken over without a
  // new slot), then, with the frontier dry and slots free, pages ahead of their turn. Early starts count against
  // max_pages and the look-ahead among themselves only, so they never hold up the frontier.
  function fill(): void {
    for (;;) {
      const entry = frontier.peek();
      const ahead = entry && early.get(entry.url);
      if (entry && ahead) {
        frontier.take();
        early.delete(entry.url);
        inFlight.push(adopt(ahead, entry));
        continue;
      }
      if (running().length >= concurrency) return;
      if (entry) {
        if (inFlight.length >= lookahead || pagesRead() + inFlight.length >= maxPages) return;
        frontier.take();
        inFlight.push(start(entry));
        continue;
      }
      const started = pagesRead() + inFlight.length + early.size;
      if (inFlight.length + early.size >= lookahead || started >= maxPages) return;
      const next = nextEarlyEntry();
      if (!next) return;
      early.set(next.url, start(next));
    }
  }

  async function run(
    commit: (result: VisitResult) => Promise<void>,
    limit: () => BudgetStop | undefined,
  ): Promise<StopReason> {
    try {
      for (;;) {
        const reached = limit();
        if (reached) return reached;
        signal.throwIfAborted();
        // Halted: what has already been fetched at the head is still taken (it costs no more waiting); nothing new
        // starts.
        if (!halted) fill();
        const next = inFlight[0];
        if (next?.done && next.value) {
          inFlight.shift();
          await commit(next.value);
          continue;
        }
        if (next?.done) await next.result; // rejected: cancellation, rethrown here
        if (halted) return halted;
        const busy = running();
        if (busy.length === 0) return 'frontier_empty';
        // Wait for whichever running visit ends first (its slot is refilled, or the head committed, on the next
        // turn), or for the time limit or a stop.
        await Promise.race([...busy.map((task) => task.result), halt]);
      }
    } catch (error) {
      if (!signal.aborted) throw error;
      return 'cancelled';
    } finally {
      clearTimeout(timer);
      if (onStop) stopSignal?.removeEventListener('abort', onStop);
    }
  }

  return {
    halted: () => halted,
    halt,
    run,
    inFlight: () => inFlight.map((task) => task.entry),
    earlyUrls: () => [...early.keys()],
    settled: async () => {
      await Promise.allSettled([...inFlight, ...early.values()].map((task) => task.result));
    },
  };
}

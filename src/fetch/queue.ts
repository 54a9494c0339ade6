// Politeness and load control for network fetches (seeds/url-reader-architecture.md services/queue.ts; SPEC "Calls
// that end in time"). What each limit bounds:
//
//  - PER_DOMAIN_INTERVAL: the starts of two requests to one host (name and port) are at least this far apart. One
//    host is read at most once per interval: a crawl of one site at the default 2 s reads at most 30 pages a minute.
//  - MAX_CONCURRENT: the requests being fetched at once, across all hosts (the seed's "global concurrent
//    requests"), and the requests in flight to any one host. A request still running after `slowAfterMs` gives
//    its shared slot back: it is waiting on a slow or stalled origin, not using our bandwidth or CPU. It still
//    counts towards its host's limit and towards a ceiling of IN_FLIGHT_FACTOR × MAX_CONCURRENT requests in flight
//    overall (sockets and response buffers stay bounded). A freed slot goes to the host with the fewest requests
//    in flight, then to the call that has waited longest. Together: three stalled origins hold at most their
//    three requests and calls to a healthy host start within `slowAfterMs`, not after the stalled ones' deadline.
//  - QUEUE_TIMEOUT (`maxWaitMs`): how long a call may wait for its turn. A call that cannot start in time gets a
//    TimeoutError with code QUEUE_TIMEOUT ("busy: N requests ahead for host H, retry in S s"): at once when its
//    place in the host's line already needs longer (100 calls to one host 2 s apart need 200 s; no client waits
//    that long), else when the wait runs out.
//  - FETCH_TIMEOUT (or web_scraper's `timeout`): the network deadline. It starts when the request leaves the
//    queue, so time spent waiting is never reported as a network time-out.
//
//  - Other replicas (REDIS_URL): with `turns`, a host whose own interval has passed also asks the shared store for
//    its turn before a call starts (src/shared-state/redis-host-turns.ts); told to wait, the host sleeps that long
//    and asks again. Its MAX_CONCURRENT slot is held only for the question, never for the wait.
//
//  - An idle turn (ScheduleOptions.idle): a request nobody asked for (the /llms.txt lookup, engine/llms-txt-index.ts)
//    never costs a caller. It starts only when its host has no caller's request waiting or running, no sooner than
//    PER_DOMAIN_INTERVAL after the host's last start, one at a time per host, without a MAX_CONCURRENT slot and
//    without asking `turns`; and it takes no turn: the next caller's request is spaced from the caller's request
//    before it, not from the lookup, so it may follow the lookup sooner than PER_DOMAIN_INTERVAL (one small request
//    per origin per hour at most). Its QUEUE_TIMEOUT timer keeps no process alive.
//
// Whose context a task runs in: a call starts when another call's request finishes or a timer fires, so pump()
// runs on someone else's stack. Each waiter's start is bound to its own caller's async context (AsyncResource.bind)
// so that its fetch, and every log line of it, belongs to the call that asked (src/log.ts: a line reaches only the
// MCP client whose call caused it).
//
// Not handled: Crawl-delay from robots.txt (the crawler asks for its own spacing).
import { AsyncResource } from 'node:async_hooks';
import { TimeoutError } from '../errors.js';
import { log, logUrl } from '../log.js';
import { observeQueueWait } from '../metrics.js';
import { linkSignal } from './linked-signal.js';
import type { QueueOptions, RequestQueue, ScheduleOptions } from './queue-types.js';

export type { HostTurns, QueueOptions, RequestQueue, ScheduleOptions } from './queue-types.js';

/** A request that has not finished after this long gives its MAX_CONCURRENT slot back (see above). */
export const DEFAULT_SLOW_AFTER_MS = 2000;

/** The ceiling on requests in flight, slow ones included, as a multiple of MAX_CONCURRENT. */
export const IN_FLIGHT_FACTOR = 4;

/** A call that waited this long for its turn gets a log line: why its read was slow when the network was not. */
export const QUEUE_WAIT_LOG_MS = 1000;

interface Running {
  readonly host: Host;
  /** When the task's deadline passes: by then it has been aborted. */
  deadlineAt: number;
  readonly slowAt: number;
  isSlow: boolean;
  /** An idle turn's request: in no host's `running`, holding no MAX_CONCURRENT slot. */
  readonly idle?: boolean;
}

interface Waiter {
  /** Arrival order, across hosts. */
  readonly seq: number;
  readonly host: Host;
  readonly start: (running: Running) => void;
}

interface Host {
  readonly key: string;
  lastStart: number;
  /** Not before this time: another process holds the host's turn (HostTurns). */
  notBefore: number;
  /** A question to HostTurns is under way; the host starts nothing until it is answered. */
  isAsking: boolean;
  readonly line: Waiter[];
  readonly running: Set<Running>;
  /** Requests nobody asked for, waiting for the host to be idle; and whether one of them runs now. */
  readonly idleLine: Waiter[];
  isIdleRunning: boolean;
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
  const maxInFlight = maxConcurrent * IN_FLIGHT_FACTOR;
  const interval = Math.max(0, options.perDomainIntervalMs);
  // setTimeout fires at once for delays past 2^31 - 1 ms (~24.8 days); a longer limit is as good as none.
  const maxWaitMs = Math.min(Math.max(0, options.maxWaitMs), 2 ** 31 - 1);
  const slowAfterMs = Math.max(0, options.slowAfterMs ?? DEFAULT_SLOW_AFTER_MS);
  const hosts = new Map<string, Host>();
  /** Hosts with calls waiting, so picking the next call does not walk every host ever contacted. */
  const lined = new Set<Host>();
  /** Hosts with idle-turn requests waiting. */
  const idleLined = new Set<Host>();
  const running = new Set<Running>();
  let fast = 0; // running requests not yet slow: the ones MAX_CONCURRENT counts
  let waitingCount = 0;
  let asking = 0; // slots held by questions to `turns`
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;

  const hasSlot = () => fast + asking < maxConcurrent && running.size + asking < maxInFlight;
  const turns = interval > 0 ? options.turns : undefined;

  function hostOf(key: string): Host {
    let host = hosts.get(key);
    if (!host) {
      host = {
        key,
        lastStart: -Infinity,
        notBefore: -Infinity,
        isAsking: false,
        line: [],
        running: new Set(),
        idleLine: [],
        isIdleRunning: false,
      };
      hosts.set(key, host);
    }
    return host;
  }

  // Starts every call that may start now. Among hosts whose interval has passed and that are under their own
  // limit, the one with the fewest requests in flight goes first (then the longest-waiting call): a host that
  // holds slots with stalled requests is served last. Then sleeps until the next host's interval passes.
  function pump(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const time = now();
    let wakeAt = Infinity;
    while (hasSlot()) {
      let best: Host | undefined;
      for (const host of lined) {
        if (host.running.size >= maxConcurrent || host.isAsking) continue;
        const readyAt = Math.max(host.lastStart + interval, host.notBefore);
        if (readyAt > time) {
          wakeAt = Math.min(wakeAt, readyAt);
          continue;
        }
        if (
          !best ||
          host.running.size < best.running.size ||
          (host.running.size === best.running.size && host.line[0]!.seq < best.line[0]!.seq)
        ) {
          best = host;
        }
      }
      if (!best) break;
      if (turns) askTurn(best);
      else startNext(best, time);
    }
    wakeAt = Math.min(wakeAt, startIdleTurns(time));
    forgetIdleHosts(time);
    if (wakeAt !== Infinity && (hasSlot() || idleLined.size > 0)) {
      timer = setTimeout(pump, Math.max(0, wakeAt - time));
      // A pending wake-up must not keep a finished CLI run alive; the waiting calls' own timers do that.
      timer.unref();
    }
  }

  // Idle turns: a host with no caller's request waiting or running, its interval passed, starts its first idle
  // request; it takes no turn (lastStart stays the last caller's start) and no MAX_CONCURRENT slot. Returns when to
  // look again.
  function startIdleTurns(time: number): number {
    let wakeAt = Infinity;
    for (const host of idleLined) {
      if (host.isIdleRunning || host.line.length > 0 || host.running.size > 0 || host.isAsking) continue;
      const readyAt = Math.max(host.lastStart + interval, host.notBefore);
      if (readyAt > time) {
        wakeAt = Math.min(wakeAt, readyAt);
        continue;
      }
      if (running.size >= maxInFlight) break;
      const waiter = host.idleLine.shift()!;
      if (host.idleLine.length === 0) idleLined.delete(host);
      host.isIdleRunning = true;
      const entry: Running = { host, deadlineAt: Infinity, slowAt: Infinity, isSlow: true, idle: true };
      running.add(entry);
      waiter.start(entry);
    }
    return wakeAt;
  }

  // The host is ready here; is it ready everywhere? The answer comes back after other pumps may have run, so the
  // line is looked at again then (its first caller may have left).
  function askTurn(host: Host): void {
    host.isAsking = true;
    asking++;
    const answered = (waitMs: number) => {
      host.isAsking = false;
      asking--;
      if (waitMs > 0) host.notBefore = now() + waitMs;
      else if (host.line.length > 0) startNext(host, now());
      pump();
    };
    turns!.take(host.key, interval).then(answered, () => answered(0));
  }

  function startNext(host: Host, time: number): void {
    const waiter = host.line.shift()!;
    waitingCount--;
    if (host.line.length === 0) lined.delete(host);
    host.lastStart = time;
    const entry: Running = { host, deadlineAt: Infinity, slowAt: time + slowAfterMs, isSlow: false };
    host.running.add(entry);
    running.add(entry);
    fast++;
    waiter.start(entry);
  }

  function markSlow(entry: Running): void {
    if (entry.isSlow || !running.has(entry)) return;
    entry.isSlow = true;
    fast--;
    pump();
  }

  function finish(entry: Running): void {
    if (!entry.isSlow) fast--;
    if (entry.idle) entry.host.isIdleRunning = false;
    running.delete(entry);
    entry.host.running.delete(entry);
    pump();
  }

  // A host with nothing waiting or running and its interval passed needs no entry: keeps the map small on long
  // crawls and busy servers.
  function forgetIdleHosts(time: number): void {
    if (hosts.size < 1024) return;
    for (const [key, host] of hosts) {
      const isIdle = host.line.length === 0 && host.running.size === 0 && !host.isAsking;
      if (isIdle && host.idleLine.length === 0 && !host.isIdleRunning && host.lastStart + interval <= time) {
        hosts.delete(key);
      }
    }
  }

  // The earliest the call at `position` in its host's line can start, from now: the host's spacing for it and for
  // each call ahead of it. A lower bound (slots may be busy too), so refusing on it never refuses a call that
  // could have started in time.
  function spacingWait(host: Host, position: number): number {
    const time = now();
    return Math.max(time, host.lastStart + interval, host.notBefore) + position * interval - time;
  }

  // For "retry in S s": the spacing, and, when no slot is free, the latest moment one must free up (a running
  // request turns slow or reaches its deadline). Calls to other hosts may still take that slot first.
  function estimateWait(host: Host, position: number): number {
    const time = now();
    const soonest = (entries: Iterable<Running>, end: (entry: Running) => number) =>
      Math.min(...[...entries].map(end)) - time;
    let wait = spacingWait(host, position);
    if (host.running.size >= maxConcurrent) {
      wait = Math.max(
        wait,
        soonest(host.running, (entry) => entry.deadlineAt),
      );
    }
    if (running.size >= maxInFlight) {
      wait = Math.max(
        wait,
        soonest(running, (entry) => entry.deadlineAt),
      );
    }
    if (fast >= maxConcurrent) {
      const fastOnes = [...running].filter((entry) => !entry.isSlow);
      wait = Math.max(
        wait,
        soonest(fastOnes, (entry) => Math.min(entry.slowAt, entry.deadlineAt)),
      );
    }
    return Number.isFinite(wait) ? wait : maxWaitMs;
  }

  // The words, then what bounds the wait, so an agent (or its operator) knows what to change.
  function queueTimeout(url: string, host: Host, position: number, waitMs: number): TimeoutError {
    const ahead = position + host.running.size;
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    const slots = hasSlot() ? '' : ` All ${maxConcurrent} fetch slots (MAX_CONCURRENT) are in use.`;
    const message =
      `busy: ${ahead} requests ahead for host ${host.key}, retry in ${retryAfterSeconds} s.${slots} ` +
      `Requests to one host start ${interval} ms apart (PER_DOMAIN_INTERVAL) and a call waits at most ` +
      `${maxWaitMs} ms for its turn (QUEUE_TIMEOUT).`;
    return new TimeoutError(url, maxWaitMs, { message, retryAfterSeconds });
  }

  function schedule<T>(url: string, task: (signal: AbortSignal) => Promise<T>, opts: ScheduleOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const caller = opts.signal;
      if (caller?.aborted) {
        reject(caller.reason);
        return;
      }
      const host = hostOf(queueKey(url));
      const line = opts.idle ? host.idleLine : host.line;
      const lines = opts.idle ? idleLined : lined;
      // Its place in the host's line alone needs longer than the wait limit: say so now, not after the wait.
      if (!opts.idle && spacingWait(host, host.line.length) > maxWaitMs) {
        reject(queueTimeout(url, host, host.line.length, estimateWait(host, host.line.length)));
        return;
      }

      const leave = (reason: unknown) => {
        const index = line.indexOf(waiter);
        if (index < 0) return;
        line.splice(index, 1);
        if (!opts.idle) waitingCount--;
        if (line.length === 0) lines.delete(host);
        clearTimeout(waitTimer);
        caller?.removeEventListener('abort', onCallerAbort);
        reject(reason);
        pump();
      };
      const onCallerAbort = () => leave(caller!.reason);
      const waitTimer = setTimeout(() => {
        const position = line.indexOf(waiter);
        leave(queueTimeout(url, host, position, estimateWait(host, position)));
      }, maxWaitMs);
      if (opts.idle) waitTimer.unref(); // a request nobody asked for keeps no process alive

      const queuedAt = now();
      const waiter: Waiter = {
        seq: seq++,
        host,
        // Bound to this caller's context: pump() calls it from whichever call or timer freed the turn (see above).
        start: AsyncResource.bind((entry: Running) => {
          clearTimeout(waitTimer);
          caller?.removeEventListener('abort', onCallerAbort);
          const waitedMs = now() - queuedAt;
          if (!opts.idle) observeQueueWait(waitedMs);
          if (waitedMs >= QUEUE_WAIT_LOG_MS && !opts.idle) {
            log(
              'info',
              `waited ${(waitedMs / 1000).toFixed(1)} s in the queue before fetching ${logUrl(url)}: requests to ` +
                `${host.key} start ${interval} ms apart (PER_DOMAIN_INTERVAL), at most ${maxConcurrent} at once ` +
                `(MAX_CONCURRENT)`,
            );
          }
          run(entry);
        }),
      };

      // From here on the network deadline runs. The call answers as soon as its signal aborts, even if the task
      // is slow to notice; the slot stays taken until the task has really stopped. A kept duplicate: fetchPage
      // (guarded-fetch.ts) arms the same deadline for the network itself; keep the two in step.
      function run(entry: Running): void {
        const deadline = new AbortController();
        const deadlineTimer = setTimeout(() => deadline.abort(new TimeoutError(url, opts.timeoutMs)), opts.timeoutMs);
        entry.deadlineAt = now() + opts.timeoutMs;
        const slowTimer = setTimeout(() => markSlow(entry), slowAfterMs);
        slowTimer.unref();
        const unlink = linkSignal(deadline, caller);
        const signal = deadline.signal;
        const answerNow = () => reject(signal.reason);
        signal.addEventListener('abort', answerNow, { once: true });
        let result: Promise<T>;
        try {
          result = task(signal);
        } catch (error) {
          result = Promise.reject(error);
        }
        result.then(resolve, reject).finally(() => {
          unlink();
          clearTimeout(deadlineTimer);
          clearTimeout(slowTimer);
          signal.removeEventListener('abort', answerNow);
          finish(entry);
        });
      }

      caller?.addEventListener('abort', onCallerAbort, { once: true });
      line.push(waiter);
      lines.add(host);
      if (!opts.idle) waitingCount++;
      pump();
    });
  }

  return {
    schedule,
    get active() {
      return running.size;
    },
    get waiting() {
      return waitingCount;
    },
  };
}

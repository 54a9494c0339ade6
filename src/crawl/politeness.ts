// Politeness toward the sites a crawl visits: robots.txt rules per origin (RFC 9309; loaded through CrawlIO from the
// engine's one robots gate, src/fetch/robots-gate.ts, which fetches and caches them for every tool), and request
// starts to one origin spaced by its Crawl-delay, which holds across the calls that continue a crawl. The rules are
// asked once per origin per crawl call, so one call obeys one version of a site's rules even if the gate's copy
// expires during it. Not here: MAX_CONCURRENT and
// PER_DOMAIN_INTERVAL, which the engine's shared queue enforces for every tool.
import type { RobotsRules } from '../fetch/robots.js';
import type { CrawlIO } from './crawl-io.js';

/** A Crawl-delay above this is treated as this: one robots.txt line must not hold a crawl for hours. */
export const MAX_CRAWL_DELAY_SECONDS = 30;

export interface PolitenessOptions {
  readonly io: Pick<CrawlIO, 'loadRobots'>;
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Origin → when its last request started (epoch ms), from the crawl this one continues. */
  readonly lastStartByOrigin?: Readonly<Record<string, number>>;
}

export interface Politeness {
  /** The robots.txt rules for the URL's origin, asked of the gate once per crawl call. */
  robotsFor(url: string): Promise<RobotsRules>;
  /** Resolves when a request to the URL's origin may start, `delaySeconds` after the previous one started. */
  waitForTurn(url: string, delaySeconds: number): Promise<void>;
  /** When each origin's last request started, for the state a continuation takes. */
  lastStarts(): Record<string, number>;
}

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    function stop(): void {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}

export function createPoliteness(options: PolitenessOptions): Politeness {
  const { signal, now } = options;
  const sleep = options.sleep ?? sleepFor;
  const robotsByOrigin = new Map<string, Promise<RobotsRules>>();
  const lastStartByOrigin = new Map<string, Promise<number>>(
    Object.entries(options.lastStartByOrigin ?? {}).map(([origin, at]) => [origin, Promise.resolve(at)]),
  );
  // The same starts as plain numbers, for the state a continuation takes.
  const lastStartTimes = new Map<string, number>(Object.entries(options.lastStartByOrigin ?? {}));

  return {
    robotsFor(url) {
      const origin = new URL(url).origin;
      let rules = robotsByOrigin.get(origin);
      if (!rules) {
        rules = options.io.loadRobots(url, signal);
        robotsByOrigin.set(origin, rules);
      }
      return rules;
    },
    // Each request waits for the previous one's actual start (not its planned one), so a late timer on a busy event
    // loop delays the requests after it instead of squeezing the next gap.
    async waitForTurn(url, delaySeconds) {
      const origin = new URL(url).origin;
      const delayMs = Math.min(delaySeconds, MAX_CRAWL_DELAY_SECONDS) * 1000;
      const previous = lastStartByOrigin.get(origin);
      const turn = (async () => {
        const previousStart = previous ? await previous : -Infinity;
        const wait = previousStart + delayMs - now();
        if (wait > 0) await sleep(wait, signal);
        const at = now();
        lastStartTimes.set(origin, at);
        return at;
      })();
      // A cancelled wait ends the crawl; later waiters only need a time to count from.
      lastStartByOrigin.set(
        origin,
        turn.catch(() => now()),
      );
      await turn;
    },
    lastStarts: () => Object.fromEntries(lastStartTimes),
  };
}

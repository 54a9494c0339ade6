// Crawl states on Redis (issue 16, docs/scale-out.md "Crawls"): a continue_from id works on any replica, and a crawl
// is checkpointed while it runs, so when the replica running it dies another continues it from its last committed
// page. Two keys per crawl: `crawl:<id>`, its state as JSON, kept CRAWL_RESUME_TTL after its last write, and
// `crawl-lease:<id>`, the running replica's token, kept CRAWL_LEASE_MS after its last renewal. A crawl has one
// owner at a time: a continue finds the lease held and is refused with when to try again; a dead owner stops
// renewing, its lease lapses, and the state it last wrote is there to continue. A crawl keeps its id for its whole
// life (issue 23): continuing it takes its lease, under the same id, so whichever id a client holds (the first, the
// one it sent, the one it received) is the crawl's. A complete crawl's lease says `done` for CRAWL_RESUME_TTL.
//
// Redis unreachable (redis-link.ts): ids are saved in and taken from this process's memory store (`local`), a new
// crawl runs without checkpoints, and a checkpoint that fails leaves the previous one. One warning per outage, from
// the link; nothing waits on Redis for more than its command timeout.
//
// Not handled: a replica cut off from Redis longer than a lease while its crawl runs on. Another replica may then
// take the crawl over from its last checkpoint; the first finds its lease taken at its next checkpoint, stops
// writing, and hands out no id (`lost`), but the pages it read meanwhile may be read again by the other.
import { randomUUID } from 'node:crypto';
import type { CrawlState } from '../crawl/frontier.js';
import { crawlRunningError, isResumeId, type ResumeStore, type RunningCrawl } from '../crawl/resume-store.js';
import { log } from '../log.js';
import type { RedisLink } from './redis-link.js';

/** How long a crawl's lease outlives its last renewal: how soon a dead replica's crawl can be continued. */
export const CRAWL_LEASE_MS = 8000;
/** A running crawl renews its lease this often (and at every checkpoint), well within CRAWL_LEASE_MS. */
export const CRAWL_LEASE_RENEW_MS = 2000;

// This process, in every lease it holds: a continue refused because the crawl runs here can say so.
const PROCESS_ID = randomUUID();

const stateKey = (id: string) => `crawl:${id}`;
const leaseKey = (id: string) => `crawl-lease:${id}`;
// The token of the last call to hold the crawl, kept as long as its state: an owner whose lease lapsed (a long
// pause) while another call took the crawl over, and perhaps let it go again, finds another token there at its next
// checkpoint and stops, instead of taking the lease again and writing an older state over the newer one.
const ownerKey = (id: string) => `crawl-owner:${id}`;
const keysOf = (id: string) => [stateKey(id), leaseKey(id), ownerKey(id)] as const;

// A complete crawl's lease says so for as long as a state would live: its id answers "complete", and nothing
// writes it again.
const DONE = 'done';

// KEYS: state, lease, owner. ARGV: token, lease ms, state ms. 'done' for a complete crawl, the owner and how long its
// lease lasts while one is held, nothing for a missing state; else the state, its lease and owner now the caller's
// and its TTL renewed, in one step: no moment when a crawl has two owners.
const TAKE_OVER = `
local lease = redis.call('GET', KEYS[2])
if lease == '${DONE}' then return {'done'} end
if lease then return {'busy', lease, redis.call('PTTL', KEYS[2])} end
local state = redis.call('GET', KEYS[1])
if not state then return {'none'} end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'state', state}
`;

// Whether ARGV[1] may write the crawl (KEYS[2] lease, KEYS[3] owner): no one else holds its lease, and no one else
// took it over since this token did. A lease that lapsed without another taking the crawl (a Redis restarted
// empty, a long pause) is taken again.
const MAY_WRITE = `
local lease = redis.call('GET', KEYS[2])
local owner = redis.call('GET', KEYS[3])
if (lease and lease ~= ARGV[1]) or (owner and owner ~= ARGV[1]) then return 0 end
`;

// KEYS: state, lease, owner. ARGV: token, state, state ms, lease ms.
const CHECKPOINT = `${MAY_WRITE}
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[4])
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[3])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

// KEYS: state, lease, owner. ARGV: token, lease ms.
const RENEW = `${MAY_WRITE}
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1
`;

// KEYS: state, lease, owner. ARGV: token, 'keep' or 'drop', the final state or '', state ms.
const RELEASE = `${MAY_WRITE}
if ARGV[2] == 'drop' then
  redis.call('DEL', KEYS[1], KEYS[3])
  redis.call('SET', KEYS[2], '${DONE}', 'PX', ARGV[4])
  return 1
end
redis.call('DEL', KEYS[2])
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
return 1
`;

// KEYS: state, lease, owner. ARGV: state ms. The crawl ended (a call that continued it without a lease).
const COMPLETE = `
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('SET', KEYS[2], '${DONE}', 'PX', ARGV[1])
return 1
`;

export interface RedisResumeStoreOptions {
  /** CRAWL_RESUME_TTL: how long a state is kept after it was last written. */
  readonly ttlSeconds: number;
  /** Where ids are kept while Redis is unreachable (the memory store a server has without REDIS_URL). */
  readonly local: ResumeStore;
  readonly leaseMs?: number;
  readonly renewMs?: number;
  /** Names this process in its leases (tests: two replicas in one process); random by default. */
  readonly processId?: string;
}

type TakeAnswer = ['busy', string | null, number] | ['none'] | ['done'] | ['state', string];

function parseState(text: string): CrawlState | undefined {
  try {
    const state = JSON.parse(text) as CrawlState;
    return state.version === 1 ? state : undefined;
  } catch {
    return undefined; // not ours: it continues nothing, and the caller is told to start a new crawl
  }
}

export function createRedisResumeStore(link: RedisLink, options: RedisResumeStoreOptions): ResumeStore {
  const { local } = options;
  const ttlMs = options.ttlSeconds * 1000;
  const leaseMs = options.leaseMs ?? CRAWL_LEASE_MS;
  const renewMs = options.renewMs ?? CRAWL_LEASE_RENEW_MS;
  const takeOver = link.script(TAKE_OVER, 3);
  const checkpoint = link.script(CHECKPOINT, 3);
  const renew = link.script(RENEW, 3);
  const release = link.script(RELEASE, 3);
  const complete = link.script(COMPLETE, 3);
  const processId = options.processId ?? PROCESS_ID;
  const newToken = () => `${processId}:${randomUUID()}`;
  const refuse = (id: string, owner: string | null, leftMs: number) =>
    crawlRunningError(id, owner?.startsWith(`${processId}:`) ? 'here' : 'elsewhere', leftMs);

  function running(id: string, token: string): RunningCrawl {
    let isLost = false;
    // Set when the call is over: a checkpoint or renewal still on its way then (a crawl stopped at its time limit
    // does not wait for the commit in flight) would take the lease again after the release, and the crawl's own id
    // would be refused as running. Each write goes after the one before; the release waits for them.
    let isOver = false;
    let writes: Promise<unknown> = Promise.resolve();
    const write = <T>(step: () => Promise<T>): Promise<T> => {
      const next = writes.then(step);
      writes = next.catch(() => undefined);
      return next;
    };
    // Unreachable (-1): the lease is renewed again next time, or lapses, which is what an outage should do.
    const timer = setInterval(() => {
      void write(async () => {
        if (isOver || isLost) return;
        const answer = await link.attempt((redis) => renew(redis, ...keysOf(id), token, leaseMs), -1);
        if (answer === 0) lose();
      });
    }, renewMs);
    function lose(): void {
      clearInterval(timer);
      if (isLost) return;
      isLost = true;
      log(
        'warn',
        `Crawl ${id} was taken over by another replica (its lease lapsed): this call stops checkpointing it.`,
      );
    }
    function end(): Promise<unknown> {
      isOver = true;
      clearInterval(timer);
      return writes;
    }
    timer.unref(); // a lease never keeps a process alive
    return {
      id,
      checkpoint: (state) =>
        write(async () => {
          if (isLost || isOver) return;
          const text = JSON.stringify(state);
          const answer = await link.attempt(
            (redis) => checkpoint(redis, ...keysOf(id), token, text, ttlMs, leaseMs),
            -1,
          );
          if (answer === 0) lose();
        }),
      async release(final) {
        await end();
        if (isLost) return 'lost';
        const text = final ? JSON.stringify(final) : '';
        const answer = await link.attempt((redis) => release(redis, ...keysOf(id), token, 'keep', text, ttlMs), -1);
        if (answer === 0) lose();
        return answer === 1 ? 'kept' : answer === 0 ? 'lost' : 'unreachable';
      },
      async discard() {
        await end();
        if (isLost) return;
        await link.attempt((redis) => release(redis, ...keysOf(id), token, 'drop', '', ttlMs), -1);
      },
    };
  }

  /** The crawl taken over under its own id with a new lease; `local`'s answer when Redis has none or is away. */
  async function takeOverCrawl(id: string, holdMs: number) {
    if (!isResumeId(id)) return undefined;
    const token = newToken();
    const answer = (await link.attempt(
      (redis) => takeOver(redis, ...keysOf(id), token, leaseMs, ttlMs),
      null,
    )) as TakeAnswer | null;
    if (answer?.[0] === 'busy') throw refuse(id, answer[1], answer[2]);
    if (answer?.[0] === 'done') return 'complete' as const;
    if (answer?.[0] === 'state') {
      const crawl = running(id, token);
      const state = parseState(answer[1]);
      if (state) return { state, running: crawl };
      await crawl.discard();
      return undefined;
    }
    // Not on Redis, or Redis away: an id this process saved in its memory during an outage.
    const state = await local.take(id, holdMs);
    return state === 'complete' || state === undefined ? state : { state };
  }

  return {
    outlivesProcess: true,
    async save(state, id = randomUUID()) {
      const text = JSON.stringify(state);
      const answer = await link.attempt((redis) => redis.set(stateKey(id), text, 'PX', ttlMs), null);
      return answer === 'OK' ? id : local.save(state, id);
    },
    // A take through Redis is a take-over whose lease is let go at once, so it holds nothing: a caller that runs the
    // crawl takes it with checkpoints.takeOver (crawl-run.ts), whose lease it holds while it runs.
    async take(id, holdMs) {
      const taken = await takeOverCrawl(id, holdMs);
      if (taken === undefined || taken === 'complete') return taken;
      await taken.running?.release();
      return taken.state;
    },
    async complete(id) {
      if (!isResumeId(id)) return;
      const answer = await link.attempt((redis) => complete(redis, ...keysOf(id), ttlMs), -1);
      if (answer !== 1) await local.complete(id);
    },
    checkpoints: {
      async begin() {
        const id = randomUUID();
        const token = newToken();
        const answer = await link.attempt((redis) => redis.set(leaseKey(id), token, 'PX', leaseMs, 'NX'), null);
        return answer === 'OK' ? running(id, token) : undefined;
      },
      takeOver: takeOverCrawl,
    },
  };
}

// Crawl states on Redis (issue 16, docs/scale-out.md "Crawls"): a continue_from id works on any replica, and a crawl
// is checkpointed while it runs, so when the replica running it dies another continues it from its last committed
// page. Two keys per crawl: `crawl:<id>`, its state as JSON, kept CRAWL_RESUME_TTL after its last write, and
// `crawl-lease:<id>`, the running replica's token, kept CRAWL_LEASE_MS after its last renewal. A crawl has one
// owner at a time: a continue finds the lease held and is refused with when to try again; a dead owner stops
// renewing, its lease lapses, and the state it last wrote is there to continue.
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
import { isResumeId, type ResumeStore, type RunningCrawl } from '../crawl/resume-store.js';
import { TimeoutError } from '../errors.js';
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

// A taken id's lease says so for as long as a state lives: an owner whose lease had lapsed (a long pause) finds it
// at its next checkpoint and stops, instead of taking the lease again and bringing a used id back to life.
const TAKEN = 'taken';

// The start of TAKE and TAKE_OVER (KEYS[1] state, KEYS[2] lease): nothing for a taken or missing id, the owner and
// how long its lease lasts while one is held, else the state, removed.
const TAKE_STATE = `
local owner = redis.call('GET', KEYS[2])
if owner == '${TAKEN}' then return {'none'} end
if owner then return {'busy', owner, redis.call('PTTL', KEYS[2])} end
local state = redis.call('GET', KEYS[1])
if not state then return {'none'} end
redis.call('DEL', KEYS[1])
`;

// KEYS: state, lease. ARGV: state ms. The state, the id marked taken.
const TAKE = `${TAKE_STATE}
redis.call('SET', KEYS[2], '${TAKEN}', 'PX', ARGV[1])
return {'state', state}
`;

// KEYS: state, lease, new state, new lease. ARGV: token, lease ms, state ms. TAKE, and the state moved to the new id
// under the caller's lease in the same step: no moment when a crawl is in neither place, or in both.
const TAKE_OVER = `${TAKE_STATE}
redis.call('SET', KEYS[2], '${TAKEN}', 'PX', ARGV[3])
redis.call('SET', KEYS[4], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[3], state, 'PX', ARGV[3])
return {'state', state}
`;

// KEYS: state, lease. ARGV: token, state, state ms, lease ms. Written only by the owner; a lease that lapsed
// without another taking it (a Redis restarted empty, a long pause) is taken again.
const CHECKPOINT = `
local owner = redis.call('GET', KEYS[2])
if owner and owner ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[4])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

// KEYS: lease. ARGV: token, lease ms.
const RENEW = `
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

// KEYS: state, lease. ARGV: token, 'keep' or 'drop', the final state or '', state ms.
const RELEASE = `
local owner = redis.call('GET', KEYS[2])
if owner and owner ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
if ARGV[2] == 'drop' then
  redis.call('DEL', KEYS[1])
elseif ARGV[3] ~= '' then
  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
end
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

type TakeAnswer = ['busy', string | null, number] | ['none'] | ['state', string];

function parseState(text: string): CrawlState | undefined {
  try {
    const state = JSON.parse(text) as CrawlState;
    return state.version === 1 ? state : undefined;
  } catch {
    return undefined; // not ours: it continues nothing, and the caller is told to start a new crawl
  }
}

/** The refusal of a continue while the crawl's owner holds its lease. */
function runningError(id: string, isOwnProcess: boolean, leftMs: number): TimeoutError {
  const seconds = Math.max(1, Math.ceil(leftMs / 1000));
  const where = isOwnProcess ? 'on this server' : 'on another replica';
  const message =
    `continue_from '${id}': this crawl is running ${where}; try again in ${seconds} s. A crawl has one owner at ` +
    `a time: its result gives the id to continue from, and if its replica has died, the crawl can be continued ` +
    `from its last committed page once its lease lapses.`;
  return new TimeoutError(`continue_from:${id}`, 0, { message, retryAfterSeconds: seconds });
}

export function createRedisResumeStore(link: RedisLink, options: RedisResumeStoreOptions): ResumeStore {
  const { local } = options;
  const ttlMs = options.ttlSeconds * 1000;
  const leaseMs = options.leaseMs ?? CRAWL_LEASE_MS;
  const renewMs = options.renewMs ?? CRAWL_LEASE_RENEW_MS;
  const take = link.script(TAKE, 2);
  const takeOver = link.script(TAKE_OVER, 4);
  const checkpoint = link.script(CHECKPOINT, 2);
  const renew = link.script(RENEW, 1);
  const release = link.script(RELEASE, 2);
  const processId = options.processId ?? PROCESS_ID;
  const newToken = () => `${processId}:${randomUUID()}`;
  const refuse = (id: string, owner: string | null, leftMs: number) =>
    runningError(id, owner?.startsWith(`${processId}:`) ?? false, leftMs);

  function running(id: string, token: string): RunningCrawl {
    let isLost = false;
    // Unreachable (-1): the lease is renewed again next time, or lapses, which is what an outage should do.
    const timer = setInterval(() => {
      void link
        .attempt((redis) => renew(redis, leaseKey(id), token, leaseMs), -1)
        .then((answer) => {
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
    timer.unref(); // a lease never keeps a process alive
    return {
      id,
      async checkpoint(state) {
        if (isLost) return;
        const text = JSON.stringify(state);
        const answer = await link.attempt(
          (redis) => checkpoint(redis, stateKey(id), leaseKey(id), token, text, ttlMs, leaseMs),
          -1,
        );
        if (answer === 0) lose();
      },
      async release(final) {
        clearInterval(timer);
        if (isLost) return 'lost';
        const text = final ? JSON.stringify(final) : '';
        const answer = await link.attempt(
          (redis) => release(redis, stateKey(id), leaseKey(id), token, 'keep', text, ttlMs),
          -1,
        );
        if (answer === 0) lose();
        return answer === 1 ? 'kept' : answer === 0 ? 'lost' : 'unreachable';
      },
      async discard() {
        clearInterval(timer);
        if (isLost) return;
        await link.attempt((redis) => release(redis, stateKey(id), leaseKey(id), token, 'drop', '', ttlMs), -1);
      },
    };
  }

  return {
    outlivesProcess: true,
    async save(state) {
      const id = randomUUID();
      const text = JSON.stringify(state);
      const answer = await link.attempt((redis) => redis.set(stateKey(id), text, 'PX', ttlMs), null);
      return answer === 'OK' ? id : local.save(state);
    },
    async take(id) {
      if (!isResumeId(id)) return undefined;
      const answer = (await link.attempt(
        (redis) => take(redis, stateKey(id), leaseKey(id), ttlMs),
        null,
      )) as TakeAnswer | null;
      if (answer?.[0] === 'busy') throw refuse(id, answer[1], answer[2]);
      if (answer?.[0] === 'state') return parseState(answer[1]);
      // Not on Redis, or Redis away: an id this process saved in its memory during an outage.
      return local.take(id);
    },
    checkpoints: {
      async begin() {
        const id = randomUUID();
        const token = newToken();
        const answer = await link.attempt((redis) => redis.set(leaseKey(id), token, 'PX', leaseMs, 'NX'), null);
        return answer === 'OK' ? running(id, token) : undefined;
      },
      async takeOver(id) {
        if (!isResumeId(id)) return undefined;
        const newId = randomUUID();
        const token = newToken();
        const keys = [stateKey(id), leaseKey(id), stateKey(newId), leaseKey(newId)];
        const answer = (await link.attempt(
          (redis) => takeOver(redis, ...keys, token, leaseMs, ttlMs),
          null,
        )) as TakeAnswer | null;
        if (answer?.[0] === 'busy') throw refuse(id, answer[1], answer[2]);
        if (answer?.[0] === 'state') {
          const crawl = running(newId, token);
          const state = parseState(answer[1]);
          if (state) return { state, running: crawl };
          await crawl.discard();
          return undefined;
        }
        const state = await local.take(id);
        return state && { state };
      },
    },
  };
}

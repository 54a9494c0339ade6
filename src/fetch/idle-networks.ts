// Keep-alive across calls for the guarded fetcher (guarded-fetch.ts): each call gets its own dispatchers (a "call
// network") whose connector reads that call's signal; a call that ends cleanly hands its network, with its idle
// keep-alive connections, to the next call of an origin it is connected to, for at most IDLE_NETWORK_MS. Why one
// network per call and not one long-lived Agent: see guarded-fetch.ts's header.
import type { Agent, Pool } from 'undici';

/**
 * The dispatchers one call uses: the guarded agent and, for plain http:// via a proxy, its pools. Owned by one
 * call at a time; `signal` is the owner's (an aborted one while idle, so a stray connect fails at once).
 */
export interface CallNetwork {
  signal: AbortSignal;
  /** Taken from IdleNetworks and its first request not sent yet: that request goes over an idle connection. */
  handedOn: boolean;
  readonly agent: Agent;
  readonly proxyPools: Map<string, Pool>;
}

/** How long an idle network waits for the next call: undici's default keep-alive timeout (4 s), RFC 9112 §9.3. */
export const IDLE_NETWORK_MS = 4_000;
/** At most this many idle networks (each holding its few keep-alive sockets) wait for a next call. */
const MAX_IDLE_NETWORKS = 64;

const IDLE = AbortSignal.abort(new Error('this connection pool is idle: no call owns it'));

/** The error of a request whose connection was closed or reset under it before any response. */
export function isClosedConnection(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

export function destroyNetwork(network: CallNetwork): void {
  // destroy, not close: a deadline may leave a socket mid-handshake or mid-body that must not linger.
  network.agent.destroy().catch(() => {});
  for (const pool of network.proxyPools.values()) pool.destroy().catch(() => {});
}

/** The key a network is found by: the origin it holds a connection to, or the proxy for plain http:// via one. */
export function proxyKey(proxyOrigin: string): string {
  return `proxy ${proxyOrigin}`;
}

/**
 * The keys of the open, idle connections of `network`, or undefined when anything is still queued, connecting
 * or running in it (then it is not handed on: what it is doing belongs to the call that ended).
 */
function idleKeys(network: CallNetwork): string[] | undefined {
  const keys: string[] = [];
  for (const [origin, stats] of Object.entries(network.agent.stats)) {
    if (stats.size > 0) return undefined;
    if (Number(stats.connected) > 0) keys.push(origin);
  }
  for (const [origin, pool] of network.proxyPools) {
    const stats = pool.stats;
    if (stats.size > 0) return undefined;
    if (stats.connected > 0) keys.push(proxyKey(origin));
  }
  return keys;
}

/**
 * Networks whose call has ended, each kept for IDLE_NETWORK_MS for the next call to an origin it is connected
 * to; the most recently used one first (its connection is the least likely to have been closed by the server).
 */
export class IdleNetworks {
  readonly #byKey = new Map<string, CallNetwork[]>();
  readonly #entries = new Map<CallNetwork, { readonly keys: string[]; readonly timer: NodeJS.Timeout }>();

  /** An idle network connected to `key`, now owned by the caller, or undefined. */
  take(key: string): CallNetwork | undefined {
    for (;;) {
      const network = this.#byKey.get(key)?.at(-1);
      if (!network) return undefined;
      this.#remove(network);
      // The server may have closed it meanwhile (undici drops the pool of a closed connection).
      if (idleKeys(network)?.includes(key)) return network;
      destroyNetwork(network);
    }
  }

  /** Keeps a network whose call has ended, or destroys it when it is busy, unconnected or one too many. */
  put(network: CallNetwork): void {
    network.signal = IDLE;
    const keys = idleKeys(network);
    if (!keys || keys.length === 0) return destroyNetwork(network);
    if (this.#entries.size >= MAX_IDLE_NETWORKS) {
      const oldest = this.#entries.keys().next().value!;
      this.#remove(oldest);
      destroyNetwork(oldest);
    }
    const timer = setTimeout(() => {
      this.#remove(network);
      destroyNetwork(network);
    }, IDLE_NETWORK_MS).unref();
    this.#entries.set(network, { keys, timer });
    for (const key of keys) {
      const list = this.#byKey.get(key);
      if (list) list.push(network);
      else this.#byKey.set(key, [network]);
    }
  }

  #remove(network: CallNetwork): void {
    const entry = this.#entries.get(network);
    if (!entry) return;
    this.#entries.delete(network);
    clearTimeout(entry.timer);
    for (const key of entry.keys) {
      const list = this.#byKey.get(key)!;
      list.splice(list.indexOf(network), 1);
      if (list.length === 0) this.#byKey.delete(key);
    }
  }
}

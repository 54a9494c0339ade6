// The cancellation bus (issue 16 scope 1): an MCP notifications/cancelled, or a session's end, that lands on one
// replica reaches the replica running the call. Redis pub/sub on one channel: every replica hears every message
// and acts on those for sessions it holds. At most once (pub/sub keeps nothing): a message published while a
// replica's subscription is down is lost to it, and its call runs on to its own end or deadline.
//
// A broadcast, not a record of which replica runs which request: a cancellation is rare next to a call, so one
// PUBLISH when it happens costs less than writing down every call's owner as it starts.
import { randomUUID } from 'node:crypto';
import type { RedisLink } from './redis-link.js';

/** A message on the bus. `requestId`: cancel that request of the session; none: the session has ended. */
export interface SessionSignal {
  readonly sessionId: string;
  readonly requestId?: string | number;
  readonly reason?: string;
}

export interface CancelBus {
  /** Tells every other replica; resolves once sent (or at once while Redis is unreachable: nobody hears it). */
  publish(signal: SessionSignal): Promise<void>;
  /** Hears what other replicas publish (never this replica's own). Resolves once listening. */
  listen(onSignal: (signal: SessionSignal) => void): Promise<void>;
}

/** Keys carry REDIS_KEY_PREFIX from ioredis; channels do not, so the channel spells it. */
export const CANCEL_CHANNEL = 'web-reader:mcp-cancel';

function isSignal(value: unknown): value is SessionSignal & { from: string } {
  if (typeof value !== 'object' || value === null) return false;
  const signal = value as Record<string, unknown>;
  return (
    typeof signal.from === 'string' &&
    typeof signal.sessionId === 'string' &&
    (signal.requestId === undefined || typeof signal.requestId === 'string' || typeof signal.requestId === 'number') &&
    (signal.reason === undefined || typeof signal.reason === 'string')
  );
}

export function createRedisCancelBus(link: RedisLink): CancelBus {
  // Every replica hears its own messages too; it has acted on them already.
  const self = randomUUID();
  return {
    async publish(signal) {
      const message = JSON.stringify({ from: self, ...signal });
      await link.attempt((redis) => redis.publish(CANCEL_CHANNEL, message), 0);
    },
    listen(onSignal) {
      return link.subscribe(CANCEL_CHANNEL, (message) => {
        let signal: unknown;
        try {
          signal = JSON.parse(message);
        } catch {
          return; // not ours: someone else publishing on our channel
        }
        if (!isSignal(signal) || signal.from === self) return;
        const { from: _from, ...rest } = signal;
        onSignal(rest);
      });
    },
  };
}

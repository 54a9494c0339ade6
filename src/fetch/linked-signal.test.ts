import { describe, expect, it } from 'vitest';
import { deadlineSignal, linkSignal } from './linked-signal.js';

describe('linkSignal', () => {
  it("aborts the request's controller with the outer reason, and not after release", () => {
    const outer = new AbortController();
    const own = new AbortController();
    linkSignal(own, outer.signal);
    outer.abort(new Error('stopped'));
    expect((own.signal.reason as Error).message).toBe('stopped');

    const later = new AbortController();
    const mine = new AbortController();
    const release = linkSignal(mine, later.signal);
    release();
    later.abort();
    expect(mine.signal.aborted).toBe(false);
  });

  it('aborts at once for an outer signal already aborted; an own abort keeps its reason', () => {
    const own = new AbortController();
    linkSignal(own, AbortSignal.abort('gone'));
    expect(own.signal.reason).toBe('gone');
    const outer = new AbortController();
    const timed = new AbortController();
    linkSignal(timed, outer.signal);
    timed.abort('deadline');
    outer.abort('late');
    expect(timed.signal.reason).toBe('deadline');
  });

  it('leaves no listener on a long-lived signal after many released requests', () => {
    const outer = new AbortController();
    let listeners = 0;
    const add = outer.signal.addEventListener.bind(outer.signal);
    const remove = outer.signal.removeEventListener.bind(outer.signal);
    outer.signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add;
    outer.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (
      listeners--,
      remove(...args)
    )) as typeof remove;
    for (let i = 0; i < 1000; i++) linkSignal(new AbortController(), outer.signal)();
    expect(listeners).toBe(0);
  });
});

describe('deadlineSignal', () => {
  it('aborts at its deadline, or with the outer reason first; released, neither', async () => {
    const timed = deadlineSignal(20);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((timed.signal.reason as DOMException).name).toBe('TimeoutError');

    const outer = new AbortController();
    const followed = deadlineSignal(60_000, outer.signal);
    outer.abort('cancelled');
    expect(followed.signal.reason).toBe('cancelled');
    followed.release();

    const other = new AbortController();
    const released = deadlineSignal(20, other.signal);
    released.release();
    other.abort();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(released.signal.aborted).toBe(false);
  });
});

// "The work stopped", asserted so a loaded machine cannot fail it: not "no new hit in the fixed time after the
// cancellation" (a busy machine delivers a cancellation, or a request already sent, late), but "the count goes quiet
// for `quietMs`, within a control far longer than any delivery takes". Work that was not stopped never goes quiet,
// and fails at the control.
import { expect } from 'vitest';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `count()` has not changed for `quietMs`; fails if that has not happened within `controlMs`. */
export async function expectStopsGrowing(
  count: () => number,
  what: string,
  { quietMs, controlMs = 20_000 }: { quietMs: number; controlMs?: number },
): Promise<void> {
  const began = Date.now();
  let last = count();
  let changedAt = Date.now();
  while (Date.now() - changedAt < quietMs) {
    expect(Date.now() - began, `${what} (${count()} so far) kept growing`).toBeLessThan(controlMs);
    await sleep(Math.min(50, quietMs / 4));
    if (count() !== last) {
      last = count();
      changedAt = Date.now();
    }
  }
}

// Spacing as the origin sees it, asserted so a loaded machine cannot fail it and an unspaced run cannot pass. A turn
// is taken just before a request is sent; a sender whose event loop is busy (or is not scheduled) sends it later,
// which shortens the gap before and lengthens the one after, so no single gap has a lower bound load cannot break.
// What load cannot do is bring the whole run, or three arrivals in a row, together: a run at full spacing spans
// (n - 1) intervals, less what its two ends were delayed; three arrivals span two intervals, less one delay. An
// unspaced run fails both by far (its requests arrive milliseconds apart), and so does spacing kept per sender
// instead of per host (the span shrinks by the number of senders).
import { expect } from 'vitest';

/** Asserts `times` (arrivals, ms, any order) are spaced by `intervalMs`, allowing one interval of delay at the ends. */
export function expectSpaced(times: readonly number[], intervalMs: number): void {
  const sorted = [...times].sort((a, b) => a - b);
  const report = `arrivals ${sorted.map((at) => Math.round(at - sorted[0]!)).join(', ')} ms, interval ${intervalMs} ms`;
  expect(sorted.length, report).toBeGreaterThanOrEqual(3);
  expect(sorted.at(-1)! - sorted[0]!, report).toBeGreaterThanOrEqual((sorted.length - 2) * intervalMs);
  for (let i = 2; i < sorted.length; i++)
    expect(sorted[i]! - sorted[i - 2]!, report).toBeGreaterThanOrEqual(intervalMs);
}

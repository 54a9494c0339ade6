/**
 * Markup put together at random from `parts`, reproducibly: the same seed gives the same document (a linear
 * congruential generator), so a failing case can be read again from its seed.
 */
export function randomMarkup(seed: number, length: number, parts: readonly string[]): string {
  let state = seed;
  let out = '';
  while (out.length < length) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += parts[state % parts.length];
  }
  return out;
}

import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    ['120', 120],
    [' 0 ', 0],
    ['Thu, 01 Jan 2026 00:02:00 GMT', 120],
    ['Thu, 01 Jan 2026 00:00:00 GMT', 0],
    ['Wed, 31 Dec 2025 23:00:00 GMT', 0],
  ])('reads %j as %i seconds', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  it.each([undefined, '', 'soon', '-5', '1.5'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

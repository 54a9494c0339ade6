import { describe, expect, it } from 'vitest';
import { QUOTE_MAX_CHARS, quoteInput } from './quote.js';

describe('quoteInput', () => {
  it('returns a short value as it is', () => {
    expect(quoteInput('https://example.com/')).toBe('https://example.com/');
    expect(quoteInput('x'.repeat(QUOTE_MAX_CHARS))).toBe('x'.repeat(QUOTE_MAX_CHARS));
  });

  it('quotes the first 200 characters of a long value, then its length', () => {
    expect(quoteInput('y'.repeat(9000))).toBe(`${'y'.repeat(200)}… (9000 characters)`);
    expect(quoteInput('abcdef', 3)).toBe('abc… (6 characters)');
  });

  it('never cuts a surrogate pair in half', () => {
    const quoted = quoteInput(`${'a'.repeat(199)}😀${'b'.repeat(100)}`);
    expect(quoted.startsWith(`${'a'.repeat(199)}…`)).toBe(true);
    expect(quoted).toContain('(301 characters)');
  });
});

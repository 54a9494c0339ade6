import { describe, expect, it } from 'vitest';
import { quoteInput, QUOTE_MAX } from './quote.js';

describe('quoteInput', () => {
  it('returns a short value as it is', () => {
    expect(quoteInput('fetch')).toBe('fetch');
    expect(quoteInput('a'.repeat(QUOTE_MAX))).toBe('a'.repeat(QUOTE_MAX));
  });

  it('cuts a long value to its first 200 characters and gives the length', () => {
    const quoted = quoteInput(`https://example.com/${'a'.repeat(10_000)}`);
    expect(quoted).toBe(`https://example.com/${'a'.repeat(180)}… (10020 characters)`);
  });

  it('takes another limit, and never splits a surrogate pair', () => {
    expect(quoteInput('abcdef', 3)).toBe('abc… (6 characters)');
    expect(quoteInput('ab😀cd', 3)).toBe('ab… (6 characters)');
  });
});

describe('quoteInput cleans what it echoes', () => {
  it('drops control, bidi and invisible characters from a quoted input, short or long', () => {
    expect(quoteInput('fe\u0007tch\u202e\u200b')).toBe('fetch');
    const long = `\u202e${'a'.repeat(300)}`;
    expect(quoteInput(long)).toBe(`${'a'.repeat(199)}… (301 characters)`);
  });
});

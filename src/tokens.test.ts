import { expect, test } from 'vitest';
import { countTokens, prefixLengthWithinTokens } from './tokens.js';

test('counts tokens with a real BPE tokenizer, not characters / 4', () => {
  expect(countTokens('hello world')).toBe(2);
  expect(countTokens('')).toBe(0);
});

test('the prefix that fits a token budget really fits and is a prefix of the text', () => {
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
  const length = prefixLengthWithinTokens(text, 100);
  expect(length).toBeLessThan(text.length);
  expect(countTokens(text.slice(0, length))).toBeLessThanOrEqual(100);
  expect(countTokens(text.slice(0, length + 20))).toBeGreaterThan(100);
});

test('text within the budget is kept whole', () => {
  expect(prefixLengthWithinTokens('short text', 100)).toBe('short text'.length);
});

test('never ends on half a multi-byte character', () => {
  const text = '日本語のテキスト。'.repeat(100);
  const length = prefixLengthWithinTokens(text, 50);
  expect(text.slice(0, length)).not.toContain('\ufffd');
  expect(countTokens(text.slice(0, length))).toBeLessThanOrEqual(50);
});

test('text quoting a special token is counted and cut as plain text, not refused', () => {
  const text = 'Models end a document with <|endoftext|> and chats with <|im_end|>. '.repeat(40);
  expect(countTokens('<|endoftext|>')).toBeGreaterThan(1); // spelled out, not the one special token
  expect(countTokens(text)).toBeGreaterThan(400);
  const length = prefixLengthWithinTokens(text, 30);
  expect(length).toBeGreaterThan(0);
  expect(countTokens(text.slice(0, length))).toBeLessThanOrEqual(30);
});

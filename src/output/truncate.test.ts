import { describe, expect, it } from 'vitest';
import { capLimit, frameTokens, loweredByCap, sliceContent, truncationNotice } from './truncate.js';
import { countTokens, loadTokenizer } from '../tokens.js';

// countTokens is synchronous: the encoding it uses is loaded once, here.
await loadTokenizer();

const NO_CAP = { maxTokens: Infinity };

describe('sliceContent', () => {
  it('returns everything when no limit applies', async () => {
    const result = await sliceContent('abcdef', { maxLength: 0, startIndex: 0, ...NO_CAP });
    expect(result).toMatchObject({ text: 'abcdef', nextIndex: undefined, limitedBy: undefined });
    expect(truncationNotice(result, 'fetch')).toBe('');
  });

  it('cuts at max_length and names the start_index that continues', async () => {
    const result = await sliceContent('abcdefghij', { maxLength: 4, startIndex: 0, ...NO_CAP });
    expect(result).toMatchObject({ text: 'abcd', nextIndex: 4, limitedBy: 'max_length' });
    expect(truncationNotice(result, 'fetch')).toBe(
      '<error>Content truncated. The output has been limited to 4 characters</error>\n' +
        '<error>6 more characters: call fetch again with start_index=4 to continue.</error>',
    );
  });

  it('continues from start_index and stops inviting when the end is reached', async () => {
    const second = await sliceContent('abcdefghij', { maxLength: 4, startIndex: 4, ...NO_CAP });
    expect(second).toMatchObject({ text: 'efgh', nextIndex: 8 });
    const last = await sliceContent('abcdefghij', { maxLength: 4, startIndex: 8, ...NO_CAP });
    expect(last).toMatchObject({ text: 'ij', nextIndex: undefined });
    expect(truncationNotice(last, 'fetch')).toBe('');
  });

  it('a start_index past the end returns nothing and no invitation', async () => {
    const result = await sliceContent('abc', { maxLength: 0, startIndex: 10, ...NO_CAP });
    expect(result).toMatchObject({ text: '', nextIndex: undefined, totalLength: 3 });
  });

  it('caps output at MAX_OUTPUT_TOKENS with a real tokenizer, at a clean break', async () => {
    const content = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n'.repeat(500);
    const result = await sliceContent(content, { maxLength: 0, startIndex: 0, maxTokens: 100 });
    expect(result.limitedBy).toBe('max_output_tokens');
    expect(countTokens(result.text)).toBeLessThanOrEqual(100);
    expect(result.text.endsWith('\n')).toBe(true);
    expect(truncationNotice(result, 'read_url')).toContain(`call read_url again with start_index=${result.nextIndex}`);
    expect(truncationNotice(result, 'read_url')).toContain('MAX_OUTPUT_TOKENS');
  });

  it('a small max_length is honoured as is under the token cap', async () => {
    const content = 'word '.repeat(1000);
    const result = await sliceContent(content, { maxLength: 50, startIndex: 0, maxTokens: 20000 });
    expect(result).toMatchObject({ limitedBy: 'max_length', nextIndex: 50 });
  });
});

describe('capLimit: the one cap rule', () => {
  it('lowers a larger limit to the cap less the frame, keeps a smaller one, and does nothing without a cap', () => {
    expect(capLimit(20000, 600)).toBe(600);
    expect(capLimit(20000, 600, 200)).toBe(400);
    expect(capLimit(300, 600, 200)).toBe(300);
    expect(capLimit(Infinity, 0, 200)).toBe(Infinity);
    expect(capLimit(Infinity, 100, 500)).toBe(1);
    expect(loweredByCap(20000, 600)).toBe(true);
    expect(loweredByCap(500, 600)).toBe(false);
  });
});

describe('frameTokens with the body it frames', () => {
  it('skips counting only where counting could not cut: the slice is the one the exact frame gives', async () => {
    const cap = 60;
    const parts = ['Contents of http://a.test/:', 'notice'];
    const exact = await frameTokens(cap, parts);
    for (let length = 0; length <= 200; length += 5) {
      const body = 'word '.repeat(length / 5);
      const bounded = await frameTokens(cap, parts, body);
      expect(bounded).toBeGreaterThanOrEqual(exact);
      const slice = (frame: number) =>
        sliceContent(body, { maxLength: 0, startIndex: 0, maxTokens: capLimit(Infinity, cap, frame) });
      expect([length, await slice(bounded)]).toEqual([length, await slice(exact)]);
    }
    // Both ways are taken: a short body skips the count, a long one is counted.
    expect(await frameTokens(cap, parts, 'word')).toBeGreaterThan(exact);
    expect(await frameTokens(cap, parts, 'word '.repeat(40))).toBe(exact);
  });
});

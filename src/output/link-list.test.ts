import { describe, expect, it } from 'vitest';
import { limitLines, lineTruncationNotice, MAX_LINK_PART_LENGTH, shortenLinkPart } from './link-list.js';

const LINES = ['- a: u1', '- bb: u2', '- ccc: u3']; // 7, 8, 9 characters; offsets 0, 8, 17; total 26

describe('limitLines', () => {
  it('adds whole lines until the next would pass max_length', async () => {
    const result = await limitLines(LINES, { maxLength: 16, startIndex: 0, maxTokens: Infinity });
    expect(result.lines).toEqual(['- a: u1', '- bb: u2']);
    expect(result.nextIndex).toBe(17);
    expect(lineTruncationNotice(result, 'web', 16)).toBe(
      '<error>Content truncated. The output has been limited to 16 characters</error>\n' +
        '<error>9 more characters: call web again with start_index=17 to continue.</error>',
    );
  });

  it('returns nothing when the first line alone is too long, and continues from a line start', async () => {
    expect((await limitLines(LINES, { maxLength: 3, startIndex: 0, maxTokens: Infinity })).lines).toEqual([]);
    const rest = await limitLines(LINES, { maxLength: 0, startIndex: 8, maxTokens: Infinity });
    expect(rest.lines).toEqual(['- bb: u2', '- ccc: u3']);
    expect(rest.nextIndex).toBeUndefined();
    expect(lineTruncationNotice(rest, 'web', 0)).toBe('');
  });

  it('cuts whole lines at the token cap', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `- Link number ${i}: https://example.com/${i}`);
    const result = await limitLines(many, { maxLength: 0, startIndex: 0, maxTokens: 100 });
    expect(result.limitedBy).toBe('max_output_tokens');
    expect(result.lines.length).toBeGreaterThan(0);
    expect(result.lines.length).toBeLessThan(20);
  });
});

describe('shortenLinkPart', () => {
  it('keeps a part up to MAX_LINK_PART_LENGTH and cuts a longer one with an ellipsis', () => {
    expect(shortenLinkPart('https://example.com/a')).toBe('https://example.com/a');
    const exact = 'x'.repeat(MAX_LINK_PART_LENGTH);
    expect(shortenLinkPart(exact)).toBe(exact);
    const cut = shortenLinkPart('y'.repeat(100_000));
    expect(cut).toHaveLength(MAX_LINK_PART_LENGTH);
    expect(cut.endsWith('y…')).toBe(true);
  });

  it('never leaves half a surrogate pair before the ellipsis', () => {
    const cut = shortenLinkPart('a' + '😀'.repeat(MAX_LINK_PART_LENGTH));
    expect(cut.endsWith('😀…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(MAX_LINK_PART_LENGTH);
  });
});

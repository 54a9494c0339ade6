import { describe, expect, it } from 'vitest';
import { OUTCOME_READABLE_CHARS } from '../outcome.js';
import { pageReadableLength, visibleTextLength } from './block-stats.js';
import { parseHtml } from './parse.js';

describe('pageReadableLength', () => {
  it('is the exact visible length below the outcome threshold', () => {
    const doc = parseHtml('<html><body><p>Hello   world</p>\n<div> and\u200b more </div></body></html>');
    expect(pageReadableLength(doc)).toBe(visibleTextLength(doc));
    expect(pageReadableLength(doc)).toBe('Hello world and more'.length);
  });

  it('stops at or above the threshold on a long page, never below it', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `<span>word${i}</span> `).join('');
    const doc = parseHtml(`<html><body>${words}</body></html>`);
    const length = pageReadableLength(doc);
    expect(length).toBeGreaterThanOrEqual(OUTCOME_READABLE_CHARS);
    expect(length).toBeLessThan(visibleTextLength(doc));
  });

  it('counts whitespace-only runs as nothing, however many text nodes there are', () => {
    const blanks = '<span>   </span>\n'.repeat(2000);
    const doc = parseHtml(`<html><body>${blanks}<p>Tail</p></body></html>`);
    expect(pageReadableLength(doc)).toBe(4);
  });
});

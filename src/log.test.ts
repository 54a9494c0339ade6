import { afterEach, describe, expect, it, vi } from 'vitest';
import { escapeLogText, log } from './log.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('escapeLogText', () => {
  it('escapes every character that could end a line or hide text, and keeps the rest', () => {
    expect(escapeLogText('a\r\nb\tc')).toBe('a\\r\\nb\\tc');
    expect(escapeLogText('\u0000\u001b[31m\u007f\u0085\u2028\u2029')).toBe('\\x00\\x1b[31m\\x7f\\x85\\u2028\\u2029');
    expect(escapeLogText('Café — 日本語 😀')).toBe('Café — 日本語 😀');
  });
});

describe('log', () => {
  it('writes one record as exactly one line, whatever the message holds', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    log('info', 'POST /tools/{name} x\r\n[web-reader] error: forged 404 1ms');
    const line = String(write.mock.calls[0]?.[0]);
    expect(line).toBe('[web-reader] info: POST /tools/{name} x\\r\\n[web-reader] error: forged 404 1ms\n');
    expect(line.split('\n')).toHaveLength(2);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  captureLog,
  escapeLogText,
  log,
  logUrl,
  runOutsideCalls,
  runWithLogSink,
  setLogLevel,
  type LogLevel,
} from './log.js';

afterEach(() => {
  vi.restoreAllMocks();
  setLogLevel('warn'); // the default: a one-shot command's stderr
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
    setLogLevel('info'); // as the servers set it
    log('info', 'POST /tools/{name} x\r\n[web-reader] error: forged 404 1ms');
    const line = String(write.mock.calls[0]?.[0]);
    expect(line).toBe('[web-reader] info: POST /tools/{name} x\\r\\n[web-reader] error: forged 404 1ms\n');
    expect(line.split('\n')).toHaveLength(2);
  });
});

describe('stderr', () => {
  it('gets only warnings and errors until a server sets info', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    setLogLevel('warn');
    log('info', 'a retry');
    log('warn', 'a warning');
    setLogLevel('info');
    log('info', 'a server line');
    expect(write.mock.calls.map(([line]) => String(line))).toEqual([
      '[web-reader] warn: a warning\n',
      '[web-reader] info: a server line\n',
    ]);
  });
});

describe("a call's log sink", () => {
  const collect = () => {
    const lines: Array<[LogLevel, string]> = [];
    return { lines, sink: (level: LogLevel, message: string) => void lines.push([level, message]) };
  };

  it('gets the lines of its own call, every level and escaped, and async work the call started', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    setLogLevel('info');
    const call = collect();
    await runWithLogSink(call.sink, async () => {
      log('debug', 'below the stderr threshold\nstill one line');
      await new Promise((resolve) => setTimeout(resolve, 1));
      log('warn', 'after a timer');
    });
    log('info', 'outside any call');
    expect(call.lines).toEqual([
      ['debug', 'below the stderr threshold\\nstill one line'],
      ['warn', 'after a timer'],
    ]);
    // stderr keeps its own threshold (info): the debug line is the client's only.
    expect(write.mock.calls.map(([line]) => String(line))).toEqual([
      '[web-reader] warn: after a timer\n',
      '[web-reader] info: outside any call\n',
    ]);
  });

  it("does not get the lines of what it started outside calls (a shared server's later events)", async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const call = collect();
    const later = (text: string) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          log('info', text);
          resolve();
        }, 1),
      );
    await runWithLogSink(call.sink, async () => {
      await runOutsideCalls(() => later('a shared server event'));
      await later('the call itself');
    });
    expect(call.lines).toEqual([['info', 'the call itself']]);
  });

  it('reaches a call through captureLog from any context', () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const call = collect();
    const other = collect();
    const captured = runWithLogSink(call.sink, () => captureLog());
    runWithLogSink(other.sink, () => captured('info', 'a socket handler of this call'));
    expect(call.lines).toEqual([['info', 'a socket handler of this call']]);
    expect(other.lines).toEqual([]);
  });
});

describe('logUrl', () => {
  it('keeps scheme, host and path and leaves out a query or fragment, which may hold a token', () => {
    expect(logUrl('https://example.com/a/b')).toBe('https://example.com/a/b');
    expect(logUrl('https://example.com/a?api_key=SECRET#x')).toBe('https://example.com/a?…');
    expect(logUrl(new URL('http://127.0.0.1:8080/#frag'))).toBe('http://127.0.0.1:8080/?…');
    expect(logUrl('not a url SECRET')).toBe('(invalid URL)');
  });
});

import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createCallLogSink, isLogLevelShown, MAX_CALL_LOG_CHARS, MAX_LOG_LINE_CHARS } from './server-logging.js';

function sinkAt(level: LoggingLevel) {
  const sent: LoggingMessageNotification['params'][] = [];
  const state = { level };
  const sink = createCallLogSink(
    async (notification) => void sent.push(notification.params),
    () => state.level,
  );
  return { sent, sink, state };
}

describe('isLogLevelShown', () => {
  it('shows a line at or above the chosen level, in the spec order', () => {
    expect(isLogLevelShown('warning', 'warning')).toBe(true);
    expect(isLogLevelShown('error', 'notice')).toBe(true);
    expect(isLogLevelShown('info', 'warning')).toBe(false);
    expect(isLogLevelShown('critical', 'emergency')).toBe(false);
  });
});

describe('createCallLogSink', () => {
  it("maps our levels onto the spec's and sends what the client's level lets through, read at each line", () => {
    const { sent, sink, state } = sinkAt('info');
    sink('debug', 'not at info');
    sink('info', 'retrying');
    sink('warn', 'slow');
    state.level = 'error'; // a logging/setLevel during the call applies to its next lines
    sink('warn', 'not at error');
    sink('error', 'failed');
    expect(sent).toEqual([
      { level: 'info', logger: 'web-reader', data: 'retrying' },
      { level: 'warning', logger: 'web-reader', data: 'slow' },
      { level: 'error', logger: 'web-reader', data: 'failed' },
    ]);
  });

  it("cuts a long line and stops after the call's budget, saying so once", () => {
    const { sent, sink } = sinkAt('debug');
    const long = 'x'.repeat(MAX_LOG_LINE_CHARS * 3);
    for (let i = 0; i < 200; i++) sink('debug', long);
    const texts = sent.map((params) => String(params.data));
    expect(texts[0]).toMatch(new RegExp(`^x{${MAX_LOG_LINE_CHARS}}… \\(${long.length} characters\\)$`));
    expect(texts.at(-1)).toMatch(/^further log lines of this call are not sent/);
    expect(texts.filter((text) => text.startsWith('further'))).toHaveLength(1);
    const total = texts.slice(0, -1).reduce((sum, text) => sum + text.length, 0);
    expect(total).toBeLessThanOrEqual(MAX_CALL_LOG_CHARS);
    expect(total).toBeGreaterThan(MAX_CALL_LOG_CHARS - MAX_LOG_LINE_CHARS * 2);
  });

  it('drops a line whose send fails (the client is gone) without throwing into the caller', async () => {
    const sink = createCallLogSink(
      () => Promise.reject(new Error('Not connected')),
      () => 'debug',
    );
    expect(() => sink('info', 'nobody listens')).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve)); // an unhandled rejection would fail the run here
  });
});

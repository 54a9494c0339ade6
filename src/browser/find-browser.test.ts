import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { findBrowser } from './find-browser.js';

describe('findBrowser', () => {
  it('CHROMIUM_PATH is the only browser: a path that does not exist is none, whatever else is installed', () => {
    expect(findBrowser('/nonexistent/chromium', ['/bin/sh'])).toBeUndefined();
    expect(findBrowser('/bin/sh', ['/bin/true'])).toBe('/bin/sh');
  });

  it('without CHROMIUM_PATH, the first executable of the usual places, or none', () => {
    expect(findBrowser(undefined, ['/nonexistent/chromium', '/bin/sh', '/bin/true'])).toBe('/bin/sh');
    const notExecutable = join(mkdtempSync(join(tmpdir(), 'find-browser-')), 'chromium');
    writeFileSync(notExecutable, '#!/bin/sh\n', { mode: 0o644 });
    expect(findBrowser(undefined, ['/nonexistent/a', notExecutable, '/etc'])).toBeUndefined();
  });
});

describe('rendering configuration', () => {
  it('defaults: RENDER_JS auto, RENDER_CONCURRENCY 2, no CHROMIUM_PATH, RENDER_MAX_SIZE 4 × MAX_RESPONSE_SIZE', () => {
    expect(resolveConfig({})).toMatchObject({
      renderJs: 'auto',
      renderConcurrency: 2,
      chromiumPath: undefined,
      renderMaxBytes: 4 * 10485760,
      renderMaxMemoryMb: 512,
    });
    expect(resolveConfig({ MAX_RESPONSE_SIZE: '1000' }).renderMaxBytes).toBe(4000);
    // RENDER_TIMEOUT follows FETCH_TIMEOUT (twice it), whichever way that came, unless it was set itself.
    expect(resolveConfig({}).renderTimeoutMs).toBe(20000);
    expect(resolveConfig({ FETCH_TIMEOUT: '3000' }).renderTimeoutMs).toBe(6000);
    expect(resolveConfig({}, { fetchTimeoutMs: 4000 }).renderTimeoutMs).toBe(8000);
    expect(resolveConfig({ FETCH_TIMEOUT: '3000', RENDER_TIMEOUT: '45000' }).renderTimeoutMs).toBe(45000);
    expect(resolveConfig({}, { maxResponseBytes: 500 }).renderMaxBytes).toBe(2000);
    expect(resolveConfig({ MAX_RESPONSE_SIZE: '1000', RENDER_MAX_SIZE: '123' }).renderMaxBytes).toBe(123);
    expect(
      resolveConfig({ RENDER_JS: 'Always', RENDER_CONCURRENCY: '4', CHROMIUM_PATH: ' /opt/chrome ' }),
    ).toMatchObject({ renderJs: 'always', renderConcurrency: 4, chromiumPath: '/opt/chrome' });
  });

  it.each([
    [{ RENDER_JS: 'sometimes' }, /RENDER_JS must be one of auto, always, never/],
    [{ RENDER_CONCURRENCY: '0' }, /RENDER_CONCURRENCY must be an integer ≥ 1/],
    [{ RENDER_MAX_SIZE: 'lots' }, /RENDER_MAX_SIZE must be an integer ≥ 1/],
  ])('a bad value stops start-up naming the variable: %o', (env, message) => {
    expect(() => resolveConfig(env)).toThrow(message);
  });
});

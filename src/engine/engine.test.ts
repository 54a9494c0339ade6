import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { createEngine } from './engine.js';
import { isBotChallenge } from './load-page.js';
import type { FetchedPage, FetchOptions } from '../fetch/types.js';
import type { Extractor } from '../workers/extractor.js';

describe('isBotChallenge', () => {
  it('recognises the cf-mitigated challenge header, not an ordinary 403', () => {
    expect(isBotChallenge(403, { 'cf-mitigated': 'challenge' })).toBe(true);
    expect(isBotChallenge(403, {})).toBe(false);
  });
});

describe('loadPage: callers of one URL share one fetch', () => {
  /** A network that answers only when the test says so, and remembers each request's signal. */
  function heldNetwork() {
    const requests: Array<{ signal: AbortSignal; answer: () => void }> = [];
    const fetchPage = (url: string, options?: FetchOptions) =>
      new Promise<FetchedPage>((resolve, reject) => {
        const signal = options!.signal!;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        const page = { url, finalUrl: url, status: 200, headers: {}, mediaType: 'text/plain' };
        const answer = () => resolve({ ...page, body: new TextEncoder().encode('hello'), fetchedAt: new Date() });
        requests.push({ signal, answer });
      });
    const engine = createEngine(resolveConfig({ PER_DOMAIN_INTERVAL: '0' }), {
      fetchPage,
      extractor: { close: async () => {} } as unknown as Extractor,
    });
    return { engine, requests };
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

  it('a caller who leaves rejects at once with its own reason; the others still get the page', async () => {
    const { engine, requests } = heldNetwork();
    const leaver = new AbortController();
    const first = engine.loadPage('http://a.test/page', { signal: leaver.signal });
    const second = engine.loadPage('http://a.test/page', { signal: new AbortController().signal });
    await tick();
    leaver.abort(new Error('the first caller hung up'));
    await expect(first).rejects.toThrow('the first caller hung up');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.signal.aborted).toBe(false);
    requests[0]!.answer();
    await expect(second).resolves.toMatchObject({ fromCache: false, page: { status: 200 } });
    // The page was cached once, for everyone.
    await expect(engine.loadPage('http://a.test/page')).resolves.toMatchObject({ fromCache: true });
    expect(requests).toHaveLength(1);
  });

  it('the fetch is aborted when the last caller leaves, and a later caller starts afresh', async () => {
    const { engine, requests } = heldNetwork();
    const callers = [new AbortController(), new AbortController()];
    const calls = callers.map((caller) =>
      engine.loadPage('http://a.test/page', { signal: caller.signal }).catch((error: unknown) => error),
    );
    await tick();
    callers[0]!.abort(new Error('one'));
    await tick();
    expect(requests[0]!.signal.aborted).toBe(false);
    callers[1]!.abort(new Error('two'));
    await tick();
    expect(requests[0]!.signal.aborted).toBe(true);
    expect(await Promise.all(calls)).toMatchObject([{ message: 'one' }, { message: 'two' }]);
    const later = engine.loadPage('http://a.test/page');
    await tick();
    expect(requests).toHaveLength(2);
    requests[1]!.answer();
    await expect(later).resolves.toMatchObject({ page: { status: 200 } });
  });
});

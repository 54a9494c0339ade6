// Sharing one token budget between pages (issue 26 item 2): max-min fair, so a page that needs less than an equal
// share leaves the rest to the others; read through a real engine against loopback pages.
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { createEngine } from '../engine/engine.js';
import { countTokensAsync } from '../tokens.js';
import { respondWith } from '../../test/fixture-server.js';
import { useFixtureServer } from '../../test/use-fixture-server.js';
import { fairShares, readMany } from './read-many.js';

describe('fairShares', () => {
  it.each([
    ['all fit', [10, 20, 30], 100, [10, 20, 30]],
    ['equal shares when all need more', [500, 500, 500], 300, [100, 100, 100]],
    ['a small page leaves the rest to the others', [50, 1000, 1000], 450, [50, 200, 200]],
    ['the order of the pages does not matter', [1000, 50, 1000], 450, [200, 50, 200]],
    ['nothing to share', [10, 10], 0, [0, 0]],
  ])('%s', (_name, needs, budget, shares) => {
    expect(fairShares(needs, budget)).toEqual(shares);
    expect(fairShares(needs, budget).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(budget);
  });
});

const words = (title: string, times: number) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${`${title} says something at length with many words in this paragraph of text. `.repeat(times)}</p>` +
  '</main></body></html>';

const server = useFixtureServer((server) => {
  server.route('/small', respondWith('text/html', words('Small', 2)));
  server.route('/big/:n', respondWith('text/html', words('Big', 80)));
});

const engines: Array<ReturnType<typeof createEngine>> = [];
afterAll(() => Promise.all(engines.map((engine) => engine.close())));

function engineFor(env: Record<string, string> = {}) {
  const engine = createEngine(
    resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort, PER_DOMAIN_INTERVAL: '0', ...env }),
  );
  engines.push(engine);
  return engine;
}

describe('readMany', () => {
  it('keeps a small page whole and gives what it leaves to the big ones; the whole text within max_tokens', async () => {
    const engine = engineFor();
    const entries = ['/big/1', '/small', '/big/2'].map((path) => ({ url: server.url(path), options: {} }));
    const result = await readMany(engine, { entries, maxTokens: 1200, deadlineMs: 30_000 });
    const [big1, small, big2] = result.pages;
    expect(small!.status).toBe('ok');
    expect(small!.nextStartIndex).toBeUndefined();
    expect(small!.tokens).toBe(small!.totalTokens);
    expect(big1!.nextStartIndex).toBeGreaterThan(0);
    expect(big2!.nextStartIndex).toBeGreaterThan(0);
    // The two cut pages split what the small one left, near equally, and more than a third of the budget each.
    expect(Math.abs(big1!.tokens! - big2!.tokens!)).toBeLessThanOrEqual(5);
    expect(big1!.tokens!).toBeGreaterThan(result.budget! / 3);
    expect(result.cut).toBe(2);
    expect(await countTokensAsync(result.text)).toBeLessThanOrEqual(1200);
  });

  it('without a limit (MAX_OUTPUT_TOKENS 0, no max_tokens) returns every page whole', async () => {
    const engine = engineFor({ MAX_OUTPUT_TOKENS: '0' });
    const entries = ['/big/3', '/big/4'].map((path) => ({ url: server.url(path), options: {} }));
    const result = await readMany(engine, { entries, maxTokens: undefined, deadlineMs: 30_000 });
    expect(result.budget).toBeUndefined();
    expect(result.pages.map((page) => page.nextStartIndex)).toEqual([undefined, undefined]);
    // Nothing to share: nothing is counted (a page's tokens are counted only to share a budget).
    expect(result.pages.map((page) => page.tokens)).toEqual([undefined, undefined]);
    expect(result.text).toMatch(/^Read 2 of 2 URLs\.\n/);
  });

  it('a cancelled call cancels its reads and rejects with the reason', async () => {
    const engine = engineFor();
    const controller = new AbortController();
    const reading = readMany(engine, {
      entries: [{ url: server.url('/slow'), options: {} }],
      maxTokens: undefined,
      deadlineMs: 30_000,
      signal: controller.signal,
    });
    controller.abort(new Error('cancelled by the client'));
    await expect(reading).rejects.toThrow('cancelled by the client');
  });
});

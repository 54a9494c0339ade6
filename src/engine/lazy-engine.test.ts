import { expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import type { FetchedPage } from '../fetch/types.js';
import { createMemorySharedState, type SharedState } from '../shared-state/shared-state.js';
import { createEngine } from './engine.js';
import { createLazyEngine } from './lazy-engine.js';

const config = resolveConfig({ PER_DOMAIN_INTERVAL: '0' });

it('stands in for every method of the engine, with no list of its own to keep in step', async () => {
  const real = createEngine(config);
  const lazy = createLazyEngine(config, createMemorySharedState(config));
  const methods = Object.keys(real).filter((key) => key !== 'config');
  expect(methods.length).toBeGreaterThan(2);
  for (const method of methods) expect([method, typeof Reflect.get(lazy, method)]).toEqual([method, 'function']);
  expect(lazy.config).toBe(config);
  // Not a thenable: a front door may return it from an async function.
  expect(await Promise.resolve(lazy)).toBe(lazy);
  await real.close();
  await lazy.close(); // never loaded: nothing to close
});

it("reads through the shared state its composition root handed it, the root's page cache included", async () => {
  const page: FetchedPage = {
    url: 'http://a.test/page',
    finalUrl: 'http://a.test/page',
    status: 200,
    headers: { 'content-type': 'text/plain' },
    mediaType: 'text/plain',
    body: new TextEncoder().encode('from the shared cache'),
    fetchedAt: new Date(),
  };
  const asked: string[] = [];
  const memory = createMemorySharedState(config);
  // a.test has no address: the page can only come from this cache.
  const shared: SharedState = {
    ...memory,
    pageCache: { get: (key) => (asked.push(key), key.includes('a.test') ? page : undefined), set: () => {} },
  };
  const lazy = createLazyEngine(config, Promise.resolve(shared));
  try {
    const loaded = await lazy.loadPage('http://a.test/page');
    expect(new TextDecoder().decode(loaded.page.body)).toBe('from the shared cache');
    expect(asked.length).toBeGreaterThan(0);
  } finally {
    await lazy.close();
  }
});

// claimOrWait with the shared store played by in-memory stand-ins; against a real Redis and real replicas it is
// src/shared-state/redis-fetch-claims.test.ts and test/replicas.test.ts.
import { describe, expect, it } from 'vitest';
import { claimOrWait, type FetchClaims } from './fetch-claims.js';
import { createPageCache } from './page-cache.js';
import type { FetchedPage } from './types.js';

const page = (fetchedAt: Date): FetchedPage => ({
  url: 'https://a.test/',
  finalUrl: 'https://a.test/',
  status: 200,
  headers: {},
  mediaType: 'text/html',
  body: new Uint8Array([1]),
  fetchedAt,
});

/** Claims held by "another replica" until the test releases them. */
function heldClaims() {
  const held = new Set<string>();
  const pages = createPageCache({ ttlSeconds: 60, maxBytes: 1e6 });
  const claims: FetchClaims = {
    pages,
    async claim(key) {
      if (held.has(key)) return undefined;
      held.add(key);
      return { release: async () => void held.delete(key) };
    },
  };
  return { claims, held, pages };
}

const options = { claimTtlMs: 10_000, maxWaitMs: 5000, accepts: () => true };

describe('claimOrWait', () => {
  it('claims a URL nobody holds', async () => {
    const { claims, held } = heldClaims();
    const outcome = await claimOrWait('https://a.test/', { ...options, claims });
    expect('claim' in outcome).toBe(true);
    expect(held.has('https://a.test/')).toBe(true);
  });

  it('takes the page, not the claim, when another process cached it and let its claim go just before', async () => {
    const { claims, held, pages } = heldClaims();
    const fetchedAt = new Date();
    pages.set('https://a.test/', page(fetchedAt)); // fetched and released between the caller's miss and its claim
    const outcome = await claimOrWait('https://a.test/', { ...options, claims });
    expect(outcome).toEqual({ page: page(fetchedAt) });
    expect(held.has('https://a.test/')).toBe(false); // the claim it took is given back
  });

  it('waits for the holder’s page instead of fetching, when the holder puts it in the shared cache', async () => {
    const { claims, held, pages } = heldClaims();
    held.add('https://a.test/');
    const fetchedAt = new Date();
    setTimeout(() => pages.set('https://a.test/', page(fetchedAt)), 50);
    const outcome = await claimOrWait('https://a.test/', { ...options, claims });
    expect(outcome).toEqual({ page: page(fetchedAt) });
  });

  it('does not take a page the call came to replace (older than its max_age allows); claims once the holder is gone', async () => {
    const { claims, held, pages } = heldClaims();
    const stale = new Date(Date.now() - 60_000);
    pages.set('https://a.test/', page(stale));
    held.add('https://a.test/');
    setTimeout(() => held.delete('https://a.test/'), 80); // the holder's fetch failed: nothing new was cached
    const outcome = await claimOrWait('https://a.test/', {
      ...options,
      claims,
      accepts: (found) => found.fetchedAt.getTime() > stale.getTime(),
    });
    expect('claim' in outcome).toBe(true);
  });

  it('gives up with QUEUE_TIMEOUT when the holder keeps the URL past the call’s wait limit', async () => {
    const { claims, held } = heldClaims();
    held.add('https://a.test/');
    await expect(claimOrWait('https://a.test/', { ...options, claims, maxWaitMs: 60 })).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'QUEUE_TIMEOUT',
      message: expect.stringContaining('another replica is fetching https://a.test/'),
    });
  });

  it('leaves at once with the caller’s reason when the caller cancels', async () => {
    const { claims, held } = heldClaims();
    held.add('https://a.test/');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('client went away')), 30);
    await expect(claimOrWait('https://a.test/', { ...options, claims, signal: controller.signal })).rejects.toThrow(
      'client went away',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createPageCache, snapshotKey } from './page-cache.js';
import type { FetchedPage } from './types.js';

function page(url: string, size: number): FetchedPage {
  return {
    url,
    finalUrl: url,
    status: 200,
    headers: {},
    mediaType: 'text/html',
    body: new Uint8Array(size),
    fetchedAt: new Date(0),
  };
}

describe('createPageCache', () => {
  it('returns a stored page until its TTL passes', () => {
    let clock = 0;
    const cache = createPageCache({ ttlSeconds: 10, maxBytes: 1e6, now: () => clock });
    cache.set('a', page('a', 10));
    clock = 9_999;
    expect(cache.get('a')?.url).toBe('a');
    clock = 10_000;
    expect(cache.get('a')).toBeUndefined();
  });

  it('evicts the least recently used pages to stay within its byte bound', () => {
    const cache = createPageCache({ ttlSeconds: 60, maxBytes: 3000 });
    cache.set('a', page('a', 900));
    cache.set('b', page('b', 900));
    expect(cache.get('a')).toBeDefined(); // a is now more recent than b
    cache.set('c', page('c', 900));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });

  it('does not store a page larger than the whole cache, nor anything when the TTL is 0', () => {
    expect(createPageCache({ ttlSeconds: 60, maxBytes: 100 }).size).toBe(0);
    const small = createPageCache({ ttlSeconds: 60, maxBytes: 100 });
    small.set('big', page('big', 1000));
    expect(small.get('big')).toBeUndefined();
    const off = createPageCache({ ttlSeconds: 0, maxBytes: 1e6 });
    off.set('a', page('a', 1));
    expect(off.get('a')).toBeUndefined();
  });
});

describe('snapshotKey', () => {
  it('a fetched page: the fragment is dropped, which the server never sees', () => {
    expect(snapshotKey('https://x.test/a?b=1#frag')).toBe('https://x.test/a?b=1');
    expect(snapshotKey('https://x.test/a#one')).toBe(snapshotKey('https://x.test/a#two'));
  });

  it('a rendered page: the fragment (a hash route) and wait_for are part of the key, apart from the fetched one', () => {
    const rendered = (url: string, waitFor?: string) => snapshotKey(url, { rendered: { waitFor } });
    expect(rendered('https://x.test/app#/settings')).toBe('rendered  https://x.test/app#/settings');
    expect(rendered('https://x.test/app#/a')).not.toBe(rendered('https://x.test/app#/b'));
    expect(rendered('https://x.test/app', '#main')).toBe('rendered #main https://x.test/app');
    expect(rendered('https://x.test/app')).not.toBe(snapshotKey('https://x.test/app'));
  });
});

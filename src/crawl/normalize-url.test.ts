import { describe, expect, it } from 'vitest';
import { isTrackingParameter, normalizeUrl } from './normalize-url.js';

describe('normalizeUrl', () => {
  it.each([
    ['drops the fragment', 'https://example.com/a#section', 'https://example.com/a'],
    ['drops the default port', 'https://example.com:443/a', 'https://example.com/a'],
    ['drops the default http port', 'http://example.com:80/a', 'http://example.com/a'],
    ['keeps another port', 'http://example.com:8080/a', 'http://example.com:8080/a'],
    ['lower-cases scheme and host', 'HTTPS://Example.COM/Path', 'https://example.com/Path'],
    ['turns index.html into the directory', 'https://example.com/docs/index.html', 'https://example.com/docs/'],
    ['turns index.htm into the directory', 'https://example.com/index.htm', 'https://example.com/'],
    ['keeps other file names', 'https://example.com/docs/index.php', 'https://example.com/docs/index.php'],
    ['removes utm_* parameters', 'https://example.com/a?utm_source=x&utm_medium=y&id=3', 'https://example.com/a?id=3'],
    ['removes click ids', 'https://example.com/a?gclid=1&fbclid=2&msclkid=3', 'https://example.com/a'],
    ['sorts the query by name', 'https://example.com/a?b=2&a=1&c=3', 'https://example.com/a?a=1&b=2&c=3'],
    ['keeps the order of repeated names', 'https://example.com/a?t=2&a=1&t=1', 'https://example.com/a?a=1&t=2&t=1'],
    ['drops an empty query', 'https://example.com/a?', 'https://example.com/a'],
    ['decodes escaped unreserved characters', 'https://example.com/%7Euser/%61', 'https://example.com/~user/a'],
    ['keeps escaped reserved characters', 'https://example.com/a%2Fb', 'https://example.com/a%2Fb'],
    ['drops credentials', 'https://user:pw@example.com/a', 'https://example.com/a'],
    ['drops a password without a user', 'https://:pw@example.com/a', 'https://example.com/a'],
    ['drops a bare #', 'https://example.com/a#', 'https://example.com/a'],
    ['keeps a query without tracking', 'https://example.com/a?id=3', 'https://example.com/a?id=3'],
    [
      'decodes escapes and drops index.html together',
      'https://example.com/%64ocs/index.html',
      'https://example.com/docs/',
    ],
    ['drops a trailing dot of the host', 'https://example.com./a', 'https://example.com/a'],
  ])('%s', (_name, input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it('resolves relative URLs against a base', () => {
    expect(normalizeUrl('../b?utm_campaign=z#top', 'https://example.com/x/y/z')).toBe('https://example.com/x/b');
  });

  it('gives one key for every spelling of a page', () => {
    const spellings = [
      'http://site.test/docs/index.html?utm_source=news',
      'http://site.test:80/docs/#intro',
      'HTTP://SITE.TEST/docs/?fbclid=abc',
    ];
    expect(new Set(spellings.map((url) => normalizeUrl(url))).size).toBe(1);
  });

  it.each(['mailto:a@example.com', 'javascript:void(0)', 'ftp://example.com/a', 'not a url'])('refuses %s', (input) => {
    expect(normalizeUrl(input)).toBeUndefined();
  });
});

describe('isTrackingParameter', () => {
  it('knows tracking parameters and leaves others alone', () => {
    expect(['utm_source', 'UTM_Medium', 'gclid', '_ga', 'hsa_cam'].every(isTrackingParameter)).toBe(true);
    expect(['id', 'page', 'q', 'utm', 'ref'].some(isTrackingParameter)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { proxyFor } from './proxy-for.js';

const HTTP = 'http://proxy.internal:3128';
const HTTPS = 'http://secure-proxy.internal:3128';

describe('proxyFor', () => {
  it('uses HTTPS_PROXY for https: and HTTP_PROXY for http:', () => {
    const config = { httpProxy: HTTP, httpsProxy: HTTPS, noProxy: undefined };
    expect(proxyFor(new URL('https://example.com/'), config)).toBe(HTTPS);
    expect(proxyFor(new URL('http://example.com/'), config)).toBe(HTTP);
  });

  it('falls back to HTTP_PROXY for https: when HTTPS_PROXY is unset, as undici does', () => {
    expect(
      proxyFor(new URL('https://example.com/'), { httpProxy: HTTP, httpsProxy: undefined, noProxy: undefined }),
    ).toBe(HTTP);
    expect(
      proxyFor(new URL('http://example.com/'), { httpProxy: undefined, httpsProxy: HTTPS, noProxy: undefined }),
    ).toBeUndefined();
  });

  it.each([
    ['example.com', 'https://example.com/', true],
    ['example.com', 'https://www.example.com/', true],
    ['example.com', 'https://notexample.com/', false],
    ['.example.com', 'https://example.com/', true],
    ['*.example.com', 'https://a.b.example.com/', true],
    ['*', 'https://anything.test/', true],
    ['example.com:8443', 'https://example.com:8443/', true],
    ['example.com:8443', 'https://example.com/', false],
    ['localhost, 127.0.0.1', 'http://127.0.0.1:9000/', true],
    ['[::1]', 'http://[::1]:9000/', true],
    ['EXAMPLE.COM', 'https://example.com./', true],
  ])('NO_PROXY=%j bypasses the proxy for %s: %s', (noProxy, url, bypassed) => {
    const proxy = proxyFor(new URL(url), { httpProxy: HTTP, httpsProxy: HTTP, noProxy });
    expect(proxy === undefined).toBe(bypassed);
  });
});

import { describe, expect, it } from 'vitest';
import { compilePattern, createScope, globToRegExp, isAllowedHost, parseAllowedDomains } from './url-scope.js';

describe('path globs', () => {
  it.each([
    ['/docs/**', '/docs', true],
    ['/docs/**', '/docs/', true],
    ['/docs/**', '/docs/a/b.html', true],
    ['/docs/**', '/docsx', false],
    ['/docs/*', '/docs/a', true],
    ['/docs/*', '/docs/a/b', false],
    ['/blog/????/*', '/blog/2024/post', true],
    ['/blog/????/*', '/blog/24/post', false],
    ['/{guide,api}/**', '/api/x', true],
    ['/{guide,api}/**', '/blog/x', false],
    ['**/*.pdf', '/a/b/c.pdf', true],
    ['/a.b', '/aXb', false],
    ['docs/**', '/docs/x', true],
  ])('%s on %s → %s', (glob, path, expected) => {
    expect(compilePattern(glob, 'patterns')(new URL(`https://example.com${path}`))).toBe(expected);
  });

  it('anchors the glob on the whole path', () => {
    expect(globToRegExp('/a/*').test('/x/a/b')).toBe(false);
  });
});

describe('re: patterns', () => {
  it('searches the path and query with a regular expression', () => {
    const match = compilePattern('re:[?&]page=\\d+', 'exclude_patterns');
    expect(match(new URL('https://example.com/list?page=2'))).toBe(true);
    expect(match(new URL('https://example.com/list'))).toBe(false);
  });

  it('names the argument when a pattern is invalid', () => {
    expect(() => compilePattern('re:(', 'exclude_patterns')).toThrow(/exclude_patterns: 're:\(' is not a valid/);
    expect(() => compilePattern('/{a,b', 'patterns')).toThrow(/patterns: '\/\{a,b' is not a valid pattern/);
  });
});

describe('scope', () => {
  it('allows a domain and its sub-domains, whatever the port', () => {
    expect(isAllowedHost('docs.example.com', ['example.com'])).toBe(true);
    expect(isAllowedHost('example.com', ['example.com'])).toBe(true);
    expect(isAllowedHost('badexample.com', ['example.com'])).toBe(false);
  });

  it('reads allowed_domains written as URLs or host:port', () => {
    expect(parseAllowedDomains(['https://Docs.Example.com/x', 'example.org:8080', 'a.test'])).toEqual([
      'docs.example.com',
      'example.org',
      'a.test',
    ]);
  });

  it('says why a URL is out of scope', () => {
    const judge = createScope({
      allowedDomains: ['example.com'],
      patterns: ['/docs/**'],
      excludePatterns: ['**/old/**'],
    });
    expect(judge('https://example.com/docs/a')).toEqual({ inScope: true });
    expect(judge('https://other.org/docs/a')).toEqual({
      inScope: false,
      reason: 'host other.org is not in allowed_domains',
    });
    expect(judge('https://example.com/blog')).toEqual({ inScope: false, reason: 'matches none of patterns' });
    expect(judge('https://example.com/docs/old/a')).toEqual({
      inScope: false,
      reason: "matches exclude pattern '**/old/**'",
    });
  });
});

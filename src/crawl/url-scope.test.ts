import { describe, expect, it } from 'vitest';
import {
  compilePattern,
  compilePatterns,
  createScope,
  isAllowedHost,
  MAX_JUDGED_LENGTH,
  parseAllowedDomains,
} from './url-scope.js';

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
    expect(compilePattern('/a/*', 'patterns')(new URL('https://example.com/x/a/b'))).toBe(false);
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

describe('re: patterns, in linear time', () => {
  // The kind of pattern a user writes: on a backtracking engine, one 40-character link held the server 13.3 s, and
  // each 3 more characters ×7 (issue 23).
  it('matches a nested repetition against a long link the site chose', () => {
    const match = compilePattern('re:^/docs/([\\w-]+/?)+\\.html$', 'patterns');
    expect(match(new URL(`https://example.com/docs/${'a-'.repeat(1000)}!`))).toBe(false);
    expect(match(new URL('https://example.com/docs/a/b-c/d.html'))).toBe(true);
  });

  it('reads an escaped backslash before a k as a backslash, not as a backreference', () => {
    expect(compilePattern('re:^/a\\\\k', 'patterns')({ hostname: 'e.com', pathname: '/a\\k', search: '' })).toBe(true);
  });

  it('reads JavaScript syntax: escaped slashes, named groups', () => {
    expect(compilePattern('re:^\\/blog\\/(?<year>\\d{4})\\/', 'patterns')(new URL('https://e.com/blog/2024/x'))).toBe(
      true,
    );
  });

  it.each([
    ['re:(a)\\1', 'backreferences'],
    // RE2's translation would read \k<n> as the letters k<n>: another pattern than the one written (issue 23).
    ['re:(?<n>a)\\k<n>', 'backreferences'],
    ['re:(a*)*\\k<n>', 'backreferences'],
    ['re:^/(?=docs)', 'lookarounds'],
    ['re:(?<!x)y', 'lookarounds'],
  ])('refuses %s, naming what it cannot run', (pattern, what) => {
    expect(() => compilePattern(pattern, 'exclude_patterns')).toThrow(
      new RegExp(
        `^exclude_patterns: '.*' is not a valid pattern \\(it uses what a linear-time matcher cannot run: .*${what}`,
      ),
    );
  });
});

describe('pattern caps', () => {
  it('refuses more than 100 entries, an entry over 500 characters, and regular expressions too costly together', () => {
    expect(() =>
      compilePatterns(
        Array.from({ length: 101 }, (_, i) => `/p${i}/**`),
        'patterns',
      ),
    ).toThrow(/^patterns: 101 entries, more than the limit of 100/);
    expect(
      compilePatterns(
        Array.from({ length: 100 }, (_, i) => `/p${i}/**`),
        'patterns',
      ),
    ).toHaveLength(100);
    expect(() => compilePattern(`/${'a'.repeat(500)}`, 'patterns')).toThrow(/longer than 500 characters/);
    // One costly expression passes; a second one over the budget is refused, by name.
    expect(() => compilePatterns(['re:\\pL{900}', '/x/**', 're:[a-z]{99}'], 'exclude_patterns')).toThrow(
      /^exclude_patterns: 're:\[a-z\]\{99\}' is not a valid pattern \(the entries of exclude_patterns cost more than 1000 steps per URL together/,
    );
  });

  it('leaves a URL whose path and query pass 2,048 characters out of scope, with the reason', () => {
    const judge = createScope({ allowedDomains: ['example.com'], patterns: ['/docs/**'], excludePatterns: [] });
    const long = `https://example.com/docs/${'a'.repeat(MAX_JUDGED_LENGTH)}`;
    expect(judge(long)).toEqual({ inScope: false, reason: 'path and query longer than 2048 characters, not judged' });
    // Without patterns nothing is judged, and length does not matter.
    expect(createScope({ allowedDomains: ['example.com'], patterns: [], excludePatterns: [] })(long)).toEqual({
      inScope: true,
    });
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

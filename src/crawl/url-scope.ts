// Which discovered URLs a crawl may follow: the allowed domains, then `patterns` (include) and
// `exclude_patterns`. Pure.
//
// Pattern syntax (documented in docs/crawl.md): a glob on the URL path, matched against the whole path —
// `*` any characters but `/`, `**` any characters including `/` (`/docs/**` also matches `/docs`), `?` one
// character but `/`, `{a,b}` either alternative (path-glob.ts). A pattern starting with `re:` is a regular
// expression instead, searched (not anchored) in the path with its query (`re:^/blog/\d{4}/`, `re:[?&]page=`).
//
// The URLs are the site's, so matching them is linear in their length (issue 23): `re:` runs on RE2 (re2js), which
// has no backtracking and so refuses backreferences and lookarounds; globs run as an automaton. What one link costs
// is bounded by the caps below, checked when the arguments are.
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { InvalidArgumentError } from '../errors.js';
import { compileGlob } from './path-glob.js';
import { CRAWL_ARGUMENT_ERRORS, CRAWL_REASONS } from './reasons.js';

/** Entries in `patterns`, and in `exclude_patterns`. */
export const MAX_PATTERNS = 100;
/** Characters in one entry. */
export const MAX_PATTERN_LENGTH = 500;
/**
 * What the entries of one list may cost each URL together: an `re:` entry its RE2 instructions
 * (`^/docs/([\w-]+/?)+\.html$` is 22), a glob its wildcards and what is inside its braces (`/{guide,api}/**` is 9).
 */
export const MAX_PATTERN_COST = 1000;
/** Characters of a URL's path and query that patterns judge: a longer URL is out of scope. */
export const MAX_JUDGED_LENGTH = 2048;

/** The parts of a URL the scope reads (a URL object has them). */
export interface UrlParts {
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
}

export type UrlMatcher = (url: UrlParts) => boolean;

// re2js is 260 KB of JavaScript: loaded with the first `re:` pattern, not with the server (npm run bench:start).
let re2: typeof RE2JS | undefined;
const loadRe2 = () => (re2 ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS);

/** Why RE2 refuses a regular expression JavaScript accepts: what it cannot run in linear time. */
function unsupported(source: string): string {
  try {
    new RegExp(source);
  } catch (error) {
    return (error as Error).message;
  }
  return (
    'it uses what a linear-time matcher cannot run: backreferences (\\1, \\k<name>) and lookarounds ((?=, (?!, ' +
    '(?<=, (?<!) are not supported'
  );
}

/**
 * Whether `source` holds a `\k` escape. RE2's translation reads `\k<n>` as the letters `k<n>` (as JavaScript does
 * only where no group is named), so `(?<n>a)\k<n>` would match other URLs than the pattern the agent wrote: refused.
 */
function hasNamedBackreference(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '\\') continue;
    if (source[i + 1] === 'k') return true;
    i++; // the escaped character
  }
  return false;
}

interface Compiled {
  readonly match: UrlMatcher;
  /** Its share of MAX_PATTERN_COST. */
  readonly cost: number;
}

function compile(pattern: string): Compiled {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`longer than ${MAX_PATTERN_LENGTH} characters`);
  if (pattern.startsWith('re:')) {
    const RE2 = loadRe2();
    const source = pattern.slice(3);
    if (hasNamedBackreference(source)) throw new Error(unsupported(source));
    let regex: RE2JS;
    try {
      regex = RE2.compile(RE2.translateRegExp(source));
    } catch {
      throw new Error(unsupported(source));
    }
    return { match: (url) => regex.test(url.pathname + url.search), cost: regex.programSize() };
  }
  const matches = compileGlob(pattern.startsWith('/') || pattern.startsWith('*') ? pattern : `/${pattern}`);
  return { match: (url) => matches(url.pathname), cost: matches.cost };
}

function invalid(argument: string, pattern: string, why: string): InvalidArgumentError {
  const shown = pattern.length > 100 ? `${pattern.slice(0, 100)}…` : pattern;
  return new InvalidArgumentError(argument, CRAWL_ARGUMENT_ERRORS.invalidPattern(argument, shown, why));
}

/** One `patterns` / `exclude_patterns` entry → a matcher; a bad entry is an error naming the argument. */
export function compilePattern(pattern: string, argument: string): UrlMatcher {
  try {
    return compile(pattern).match;
  } catch (error) {
    throw invalid(argument, pattern, (error as Error).message);
  }
}

/** A whole `patterns` / `exclude_patterns` list, within the caps; throws InvalidArgumentError naming it. */
export function compilePatterns(
  patterns: readonly string[],
  argument: string,
): { pattern: string; match: UrlMatcher }[] {
  if (patterns.length > MAX_PATTERNS) {
    throw new InvalidArgumentError(
      argument,
      `${argument}: ${patterns.length} entries, more than the limit of ${MAX_PATTERNS}. Use fewer, broader patterns.`,
    );
  }
  let cost = 0;
  return patterns.map((pattern) => {
    let compiled: Compiled;
    try {
      compiled = compile(pattern);
    } catch (error) {
      throw invalid(argument, pattern, (error as Error).message);
    }
    cost += compiled.cost;
    if (cost > MAX_PATTERN_COST) {
      throw invalid(
        argument,
        pattern,
        `the entries of ${argument} cost more than ${MAX_PATTERN_COST} steps per URL together: use fewer or simpler ` +
          'patterns (each wildcard, alternative and counted repetition such as {100} adds to the cost)',
      );
    }
    return { pattern, match: compiled.match };
  });
}

/** A host is allowed when it is an allowed domain or a sub-domain of one (ports are not part of a domain). */
export function isAllowedHost(hostname: string, allowedDomains: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowedDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** Lower-case host names from `allowed_domains` entries, which may be written as URLs or with a port. */
export function parseAllowedDomains(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const trimmed = entry.trim().toLowerCase();
    try {
      return new URL(trimmed.includes('://') ? trimmed : `http://${trimmed}`).hostname.replace(/\.$/, '');
    } catch {
      throw new InvalidArgumentError('allowed_domains', CRAWL_ARGUMENT_ERRORS.notADomain(entry));
    }
  });
}

export interface ScopeOptions {
  readonly allowedDomains: readonly string[];
  readonly patterns: readonly string[];
  readonly excludePatterns: readonly string[];
}

export type ScopeVerdict = { readonly inScope: true } | { readonly inScope: false; readonly reason: string };

/** Compiles the scope once; the result judges each URL with the reason it is out of scope. */
export function createScope(options: ScopeOptions): (url: string | UrlParts) => ScopeVerdict {
  const include = compilePatterns(options.patterns, 'patterns');
  const exclude = compilePatterns(options.excludePatterns, 'exclude_patterns');
  return (href) => {
    const url = typeof href === 'string' ? new URL(href) : href;
    if (!isAllowedHost(url.hostname, options.allowedDomains)) {
      return { inScope: false, reason: CRAWL_REASONS.hostNotAllowed(url.hostname) };
    }
    const judged = url.pathname.length + url.search.length;
    if (include.length + exclude.length > 0 && judged > MAX_JUDGED_LENGTH) {
      return { inScope: false, reason: `path and query longer than ${MAX_JUDGED_LENGTH} characters, not judged` };
    }
    if (include.length > 0 && !include.some(({ match }) => match(url))) {
      return { inScope: false, reason: 'matches none of patterns' };
    }
    const excluded = exclude.find(({ match }) => match(url));
    if (excluded) return { inScope: false, reason: `matches exclude pattern '${excluded.pattern}'` };
    return { inScope: true };
  };
}

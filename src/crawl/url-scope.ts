// Which discovered URLs a crawl may follow: the allowed domains, then `patterns` (include) and
// `exclude_patterns`. Pure.
//
// Pattern syntax (documented in docs/crawl.md): a glob on the URL path, matched against the whole path —
// `*` any characters but `/`, `**` any characters including `/` (`/docs/**` also matches `/docs`), `?` one
// character but `/`, `{a,b}` either alternative. A pattern starting with `re:` is a JavaScript regular expression
// instead, searched (not anchored) in the path with its query (`re:^/blog/\d{4}/`, `re:[?&]page=`).
import { InvalidArgumentError } from '../errors.js';
import { CRAWL_ARGUMENT_ERRORS, CRAWL_REASONS } from './reasons.js';

/** The parts of a URL the scope reads (a URL object has them). */
export interface UrlParts {
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
}

export type UrlMatcher = (url: UrlParts) => boolean;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Glob → anchored regular expression source. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let inBraces = false;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === '*' && glob[index + 1] === '*') {
      index++;
      // `/**` at the end also matches the directory itself (`/docs/**` matches `/docs` and `/docs/`).
      if (source.endsWith('\\/') && index === glob.length - 1) source = `${source.slice(0, -2)}(?:\\/.*)?`;
      else source += '.*';
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{' && !inBraces) {
      inBraces = true;
      source += '(?:';
    } else if (char === '}' && inBraces) {
      inBraces = false;
      source += ')';
    } else if (char === ',' && inBraces) source += '|';
    else source += escapeRegExp(char);
  }
  if (inBraces) throw new Error(`unclosed '{' in '${glob}'`);
  return new RegExp(`^${source}$`);
}

/** One `patterns` / `exclude_patterns` entry → a matcher; a bad entry is an error naming the argument. */
export function compilePattern(pattern: string, argument: string): UrlMatcher {
  try {
    if (pattern.startsWith('re:')) {
      const regex = new RegExp(pattern.slice(3));
      return (url) => regex.test(url.pathname + url.search);
    }
    const path = pattern.startsWith('/') || pattern.startsWith('*') ? pattern : `/${pattern}`;
    const regex = globToRegExp(path);
    return (url) => regex.test(url.pathname);
  } catch (error) {
    const why = (error as Error).message;
    throw new InvalidArgumentError(argument, CRAWL_ARGUMENT_ERRORS.invalidPattern(argument, pattern, why));
  }
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
  const include = options.patterns.map((pattern) => ({ pattern, match: compilePattern(pattern, 'patterns') }));
  const exclude = options.excludePatterns.map((pattern) => ({
    pattern,
    match: compilePattern(pattern, 'exclude_patterns'),
  }));
  return (href) => {
    const url = typeof href === 'string' ? new URL(href) : href;
    if (!isAllowedHost(url.hostname, options.allowedDomains)) {
      return { inScope: false, reason: CRAWL_REASONS.hostNotAllowed(url.hostname) };
    }
    if (include.length > 0 && !include.some(({ match }) => match(url))) {
      return { inScope: false, reason: 'matches none of patterns' };
    }
    const excluded = exclude.find(({ match }) => match(url));
    if (excluded) return { inScope: false, reason: `matches exclude pattern '${excluded.pattern}'` };
    return { inScope: true };
  };
}

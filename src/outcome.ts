// What a read found, decided in one place (SPEC "An outcome an agent can act on"): the list of outcomes and the
// small pure functions that decide one from plain facts. Every tool and front door asks these; `truncated` and
// `from_cache` are not outcomes but booleans beside `status` (a cached `ok` is still `ok`).
import { FetchError, HttpStatusError, SecurityError } from './errors.js';

/** What the agent learns about the outcome of a read. */
export type Outcome = 'ok' | 'empty' | 'needs_js' | 'blocked' | 'robots_denied' | 'not_html' | 'too_large' | 'error';

/** Every outcome, in the order SPEC lists them (for output schemas). */
export const OUTCOMES = [
  'ok',
  'empty',
  'needs_js',
  'blocked',
  'robots_denied',
  'not_html',
  'too_large',
  'error',
] as const satisfies readonly Outcome[];

/** The outcome of a read that failed with `error`. */
export function outcomeOfError(error: unknown): Outcome {
  if (error instanceof SecurityError && error.code === 'ROBOTS_DENIED') return 'robots_denied';
  if (error instanceof HttpStatusError && (error.status === 401 || error.status === 403)) return 'blocked';
  if (error instanceof FetchError && error.code === 'RESPONSE_TOO_LARGE') return 'too_large';
  return 'error';
}

// Recognising HTML that has nothing for a reader, so the agent gets an outcome it can act on instead of an empty
// "success" or a page of raw script tags.
// Mount points of client-side frameworks, and the usual "please enable JavaScript" notice.
const APP_SHELL =
  /<(?:div|main|body)\b[^>]*\bid=["']?(?:root|app|__next|__nuxt|svelte|main-app)\b|<noscript\b[^>]*>[^<]*(?:enable|requires?|turn on)\s+javascript/i;
const SCRIPT_TAG = /<script\b/gi;

// Fewer readable characters than this in the main content counts as nothing to read.
const MIN_READABLE_CHARS = 40;

/** `empty` or `needs_js` for HTML with fewer than MIN_READABLE_CHARS of content, else undefined (read it). */
export function detectEmptyOutcome(html: string, readableChars: number): 'empty' | 'needs_js' | undefined {
  if (readableChars >= MIN_READABLE_CHARS) return undefined;
  const scripts = html.match(SCRIPT_TAG)?.length ?? 0;
  if (APP_SHELL.test(html) || scripts >= 3) return 'needs_js';
  if (readableChars === 0) return 'empty';
  return undefined;
}

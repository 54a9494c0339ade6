// Recognises HTML that has nothing for a reader, so the agent gets an outcome it can act on instead of an
// empty "success" or a page of raw script tags (SPEC "An outcome an agent can act on").

// Mount points of client-side frameworks, and the usual "please enable JavaScript" notice.
const APP_SHELL =
  /<(?:div|main|body)\b[^>]*\bid=["']?(?:root|app|__next|__nuxt|svelte|main-app)\b|<noscript\b[^>]*>[^<]*(?:enable|requires?|turn on)\s+javascript/i;
const SCRIPT_TAG = /<script\b/gi;

// Fewer readable characters than this in the main content counts as nothing to read.
const MIN_READABLE_CHARS = 40;

export function detectEmptyOutcome(html: string, readableChars: number): 'empty' | 'needs_js' | undefined {
  if (readableChars >= MIN_READABLE_CHARS) return undefined;
  const scripts = html.match(SCRIPT_TAG)?.length ?? 0;
  if (APP_SHELL.test(html) || scripts >= 3) return 'needs_js';
  if (readableChars === 0) return 'empty';
  return undefined;
}

// Bounded echoes (issue 10, scope 8): an error message may quote what a client sent — a URL, a header, a tool
// name — but never all of a huge one, and never its control, bidi or invisible characters (an echo is output too:
// cleanText). One home for the rule, so every front door quotes the same way.
import { cleanText } from './clean-text.js';

/** Characters of an input an error message quotes before it cuts and gives the length instead. */
export const QUOTE_MAX = 200;

/**
 * `value` itself (cleaned) when it is at most `max` characters; otherwise its first `max` characters, an ellipsis and the
 * full length, e.g. `https://example.com/aaaa… (10000 characters)`. A cut never splits a surrogate pair.
 */
export function quoteInput(value: string, max = QUOTE_MAX): string {
  if (value.length <= max) return cleanText(value);
  let end = max;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // a high surrogate whose partner would be cut off
  return `${cleanText(value.slice(0, end))}… (${value.length} characters)`;
}

// Bounded echoes (issue 10 §8): an error that repeats a caller's input (a URL, a header, a tool name) quotes at most
// QUOTE_MAX_CHARS of it plus its length, so a 100,000-character argument cannot come back as a 100,000-character
// error that floods the agent's context, the log or a terminal.

/** How much of an input an error message repeats. */
export const QUOTE_MAX_CHARS = 200;

/** The value itself when short, else its first `max` characters, `…` and its length: `https://a.example/aaaa… (9000 characters)`. */
export function quoteInput(value: string, max = QUOTE_MAX_CHARS): string {
  if (value.length <= max) return value;
  // Never cut a surrogate pair in half: the quote must stay well-formed text.
  let end = max;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${value.slice(0, end)}… (${value.length} characters)`;
}

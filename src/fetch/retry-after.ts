// Retry-After (RFC 9110 §10.2.3): either delay-seconds or an HTTP-date.

/** Seconds to wait (rounded up, never negative), or undefined when the header is absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP-date names its month; V8's Date.parse would also accept "-5" or "1.5" as dates.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

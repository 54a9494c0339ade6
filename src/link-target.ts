// Which link targets an agent is shown (issue 10 §7): http, https and mailto, checked on the parsed URL. A page's
// `javascript:`, `data:`, `vbscript:`, `file:`, `blob:` or custom-scheme links (`intent:`, `ms-settings:`, an app's
// own) never become links in Markdown, web_scraper references, link lists or feeds: a client that renders the
// Markdown would make them clickable, and the model might pass them on. The link text stays; the target goes.
// The check runs after the WHATWG URL parser (https://url.spec.whatwg.org/#concept-basic-url-parser) has resolved
// the href, so the tricks browsers accept — `JaVaScRiPt:`, leading spaces and controls, `java\tscript:` with a tab
// or newline inside — are judged by the scheme a browser would use, not by the source text.

/** The schemes whose links are kept. */
export const ALLOWED_LINK_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:']);

/** True when `url` (absolute) parses and its scheme is http, https or mailto. */
export function isAllowedLinkTarget(url: string | URL): boolean {
  const protocol = typeof url === 'string' ? URL.parse(url)?.protocol : url.protocol;
  return protocol !== undefined && ALLOWED_LINK_PROTOCOLS.has(protocol);
}

/**
 * `href` resolved against `baseUrl` as a browser resolves it, serialized; undefined when it does not parse or its
 * scheme is not allowed.
 */
export function resolveLinkTarget(href: string, baseUrl: string | undefined): string | undefined {
  const url = URL.parse(href, baseUrl);
  return url && ALLOWED_LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

// /llms.txt (https://llmstxt.org): a Markdown file at a site's root for language models — an H1 with the site's
// name, a blockquote summary, then H2 sections of link lists, one `- [title](url): notes` a line. The same proposal
// asks sites to publish "a clean markdown version of [their] pages at the same URL as the original page, but with
// `.md` appended" (`index.html.md` for a URL without a file name). Pure: the engine fetches, this reads.
// Not handled: `llms-full.txt` (the whole site in one file, too big to read per page) and links outside list items.

export interface LlmsTxtEntry {
  /** Absolute http(s) URL, fragment dropped. */
  readonly url: string;
  /** The link text. */
  readonly title: string;
  /** What follows the link after `:`, when given. */
  readonly notes?: string;
}

export interface LlmsTxt {
  /** Where it was read from (after redirects): relative links resolve against it. */
  readonly url: string;
  /** The H1, when there is one. */
  readonly title?: string;
  readonly entries: readonly LlmsTxtEntry[];
}

/** Entries read from one file: the proposal's lists are curated, a few hundred at most. */
export const MAX_LLMS_TXT_ENTRIES = 10_000;

// `- [title](url "optional title"): notes` with `-`, `*` or `+`; the URL may be wrapped in <>.
const LIST_LINK = /^\s*[-*+]\s+\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)\s*(?::\s*(.*))?$/;

/** The file's title and link entries; links that are not http(s) are left out. */
export function parseLlmsTxt(text: string, fileUrl: string): LlmsTxt {
  let title: string | undefined;
  const entries: LlmsTxtEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (title === undefined && /^#\s+\S/.test(line)) title = line.replace(/^#\s+/, '').trim();
    const match = LIST_LINK.exec(line);
    if (!match) continue;
    let url: URL;
    try {
      url = new URL(match[2]!, fileUrl);
    } catch {
      continue; // a link we could not follow lists nothing
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    const notes = match[3]?.trim();
    entries.push({ url: url.href, title: match[1]!.replace(/\\(.)/g, '$1').trim(), ...(notes ? { notes } : {}) });
    if (entries.length >= MAX_LLMS_TXT_ENTRIES) break;
  }
  return { url: fileUrl, ...(title ? { title } : {}), entries };
}

/** Where the llms.txt convention puts a page's Markdown version: its path + `.md`, or `index.html.md` for `…/`. */
export function markdownTwinPaths(pathname: string): string[] {
  if (/\.md$/i.test(pathname)) return [];
  if (pathname.endsWith('/')) {
    // `/docs/` → `/docs/index.html.md` (the proposal), and `/docs.md`, which many documentation generators write.
    return pathname === '/' ? ['/index.html.md'] : [`${pathname}index.html.md`, `${pathname.slice(0, -1)}.md`];
  }
  // `/guide.html` → `/guide.html.md` (the proposal) or `/guide.md`.
  const withoutHtml = pathname.replace(/\.html?$/i, '');
  return withoutHtml === pathname ? [`${pathname}.md`] : [`${pathname}.md`, `${withoutHtml}.md`];
}

export interface LlmsTxtTwin {
  readonly url: string;
  /** llms.txt lists the page itself, not a `.md` URL: the twin's URL is the convention's guess. */
  readonly guessed: boolean;
}

/**
 * The Markdown version of `pageUrl` that llms.txt lists: an entry at one of markdownTwinPaths on the page's origin,
 * else — when an entry is the page itself — the first of those paths, by the convention. Only the page's own
 * origin: llms.txt never makes another site's text stand for this page. A page with a query has no twin (the
 * convention names paths only).
 */
export function findLlmsTxtTwin(llmsTxt: LlmsTxt, pageUrl: string): LlmsTxtTwin | undefined {
  const page = new URL(pageUrl);
  if (page.search !== '' || new URL(llmsTxt.url).origin !== page.origin) return undefined;
  const paths = markdownTwinPaths(page.pathname);
  if (paths.length === 0) return undefined;
  const sameOrigin = llmsTxt.entries
    .map((entry) => new URL(entry.url))
    .filter((url) => url.origin === page.origin && url.search === '');
  const listed = sameOrigin.find((url) => paths.includes(url.pathname));
  if (listed) return { url: listed.href, guessed: false };
  const trimmed = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);
  const listsPage = sameOrigin.some((url) => trimmed(url.pathname) === trimmed(page.pathname));
  return listsPage ? { url: new URL(paths[0]!, page.origin).href, guessed: true } : undefined;
}

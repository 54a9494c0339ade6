// The commands of the command line, once: their usage line and summary (web-reader --help).

export type Command = 'serve' | 'read' | 'links' | 'map' | 'scrape' | 'crawl' | 'search' | 'screenshot';

export const COMMANDS: Readonly<Record<Command, { readonly usage: string; readonly summary: string }>> = {
  serve: {
    usage: 'serve',
    summary: 'the MCP server on stdio (what `web-reader` alone runs), or over HTTP with --http',
  },
  read: {
    usage: 'read <url> [<url>…]',
    summary: "print the page's main content as Markdown; several URLs (at most 20) are read at once",
  },
  links: { usage: 'links <url>', summary: "the page's same-site links, most frequent first" },
  map: { usage: 'map <url>', summary: "the site's URLs (sitemaps, /llms.txt, the page's links), not their content" },
  scrape: {
    usage: 'scrape <url>',
    summary: 'structured JSON: text with [n] link markers, references, metadata, outline',
  },
  crawl: {
    usage: 'crawl <url> | crawl --continue ID',
    summary: 'breadth-first from the URL within a token budget; pages as Markdown, a summary at the end',
  },
  search: {
    usage: 'search <query>',
    summary: 'search the web (SEARXNG_URL or BRAVE_API_KEY): a numbered list; --read N reads the top N',
  },
  screenshot: {
    usage: 'screenshot <url> -o <file>',
    summary: 'a PNG or JPEG of the page as headless Chromium draws it, written to the file; its size on stdout',
  },
};

export const COMMAND_NAMES = Object.keys(COMMANDS) as Command[];

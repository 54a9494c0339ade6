// A generated site for crawl tests and bench:crawl, served by the shared fixture server: PAGE_COUNT pages in a
// binary tree (page i links to 2i+1 and 2i+2) with cycles back to the root and the previous page, tracking-parameter
// and fragment duplicates, a rel=canonical duplicate, a robots.txt with Disallow, Crawl-delay and Sitemap, a
// sitemap listing an orphan page no link reaches, external links, a link to a private address, a 500 page and a
// slow page.
import type { FixtureServer } from './fixture-server.js';

export const PAGE_COUNT = 220;
/** Served after this delay. */
export const SLOW_PAGE_MS = 300;
/** A private address the SSRF guard refuses without connecting (not in ALLOW_PRIVATE_HOSTS). */
export const PRIVATE_LINK = 'http://127.0.0.1:1/admin';
export const EXTERNAL_LINK = 'https://external.example/elsewhere';

export interface CrawlSiteOptions {
  /** robots.txt Crawl-delay in seconds; omitted when undefined. */
  readonly crawlDelaySeconds?: number;
  /** Extra paragraphs per page (more tokens per page). */
  readonly paragraphs?: number;
  /** Called with the path of every page request (for timing assertions). */
  readonly onPageRequest?: (path: string) => void;
}

const WORDS =
  'crawler budget token page link frontier robots sitemap canonical breadth queue domain extract markdown'.split(' ');

function paragraph(page: number, index: number): string {
  const words = Array.from({ length: 40 }, (_, k) => WORDS[(page * 7 + index * 3 + k) % WORDS.length]);
  return `<p>Page ${page}, paragraph ${index}: ${words.join(' ')}.</p>`;
}

export function pagePath(index: number): string {
  return `/p/${index}`;
}

function pageHtml(index: number, paragraphs: number, extraLinks: string[] = [], head = ''): string {
  const children = [2 * index + 1, 2 * index + 2].filter((child) => child < PAGE_COUNT);
  const links = [
    ...children.map((child) => `<a href="${pagePath(child)}">Page ${child}</a>`),
    `<a href="/p/0">Home</a>`,
    index > 0 ? `<a href="${pagePath(index - 1)}?utm_source=crawl&amp;utm_medium=test#top">Previous</a>` : '',
    `<a href="${pagePath(index)}#section">This page</a>`,
    `<a href="${EXTERNAL_LINK}">Elsewhere</a>`,
    ...extraLinks,
  ];
  const body = Array.from({ length: paragraphs }, (_, k) => paragraph(index, k)).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${index}</title>${head}</head>
<body><nav>${links.join(' ')}</nav><main><article><h1>Page ${index}</h1>
${body}
</article></main></body></html>`;
}

/** Registers the site's routes; the start URL is server.url('/p/0'). */
// `options` is read on every request, so a test may change the Crawl-delay between crawls.
export function addCrawlSite(server: FixtureServer, options: CrawlSiteOptions = {}): void {
  const paragraphs = options.paragraphs ?? 3;
  const rootExtras = [
    `<a href="/private/secret">Secret</a>`,
    `<a href="${PRIVATE_LINK}">Admin</a>`,
    `<a href="/status/500">Broken</a>`,
    `<a href="/slow-page">Slow</a>`,
    `<a href="/duplicate">Duplicate</a>`,
  ];
  server.route('/p/:index', (_req, res, params) => {
    options.onPageRequest?.(pagePath(Number(params.index)));
    const index = Number(params.index);
    if (!Number.isInteger(index) || index < 0 || index >= PAGE_COUNT) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageHtml(index, paragraphs, index === 0 ? rootExtras : []));
  });
  // The same article as page 1 under another URL, declaring page 1 as canonical.
  server.route('/duplicate', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageHtml(1, paragraphs, [], `<link rel="canonical" href="${pagePath(1)}">`));
  });
  server.route('/private/secret', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<p>robots.txt forbids this page</p>');
  });
  server.route('/slow-page', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pageHtml(999, 1).replace(/Page 999/g, 'Slow page'));
    }, SLOW_PAGE_MS);
  });
  server.route('/p/orphan', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<html><head><title>Orphan</title></head><body><article><h1>Orphan</h1><p>Only the sitemap links here; no page does. It is still part of the site and worth reading.</p></article></body></html>',
    );
  });
  server.route('/robots.txt', (_req, res) => {
    const delay = options.crawlDelaySeconds === undefined ? '' : `Crawl-delay: ${options.crawlDelaySeconds}\n`;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`User-agent: *\nDisallow: /private/\n${delay}\nSitemap: ${server.url('/sitemap.xml')}\n`);
  });
  server.route('/sitemap.xml', (_req, res) => {
    const locs = [server.url('/p/orphan'), server.url(pagePath(PAGE_COUNT - 1))];
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
        locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('\n') +
        '\n</urlset>\n',
    );
  });
}

/** Every path the site serves that a crawl may fetch (for the no-URL-twice assertion). */
export function crawlSitePaths(): string[] {
  return [
    ...Array.from({ length: PAGE_COUNT }, (_, i) => pagePath(i)),
    '/duplicate',
    '/private/secret',
    '/slow-page',
    '/p/orphan',
    '/status/500',
    '/robots.txt',
    '/sitemap.xml',
  ];
}

export interface SlowTreeOptions {
  /** Pages in the tree (page i links to 2i+1 and 2i+2). */
  readonly count: number;
  /** Every page answers after this delay. */
  readonly delayMs: number;
  /** This page's first request never answers (until the server closes): the page in flight at a time limit. */
  readonly hangOnce?: number;
  /**
   * When given, the hangOnce page never answers while this returns true, and answers normally after, whichever
   * request it is: a test whose first call ends before it asks for the page (a loaded machine) still has the page
   * answered in the continuation.
   */
  readonly hangWhile?: () => boolean;
  /** Path prefix (default '/tree'): one tree per test keeps hit counts apart. */
  readonly prefix?: string;
}

/**
 * A binary tree of slow pages at /tree/0 … /tree/{count-1}, for time-limit tests: no robots.txt (404: allowed),
 * no sitemap. Each page links to its children and back to the root. Returns the pages' paths.
 */
export function addSlowTree(server: FixtureServer, options: SlowTreeOptions): string[] {
  const prefix = options.prefix ?? '/tree';
  server.route(`${prefix}/:index`, (_req, res, params) => {
    const index = Number(params.index);
    const path = `${prefix}/${index}`;
    const hangs = options.hangWhile ? options.hangWhile() : server.hits(path) === 1;
    if (index === options.hangOnce && hangs) return; // never answered
    const children = [2 * index + 1, 2 * index + 2].filter((child) => child < options.count);
    const links = [
      ...children.map((child) => `<a href="${prefix}/${child}">Tree ${child}</a>`),
      `<a href="${prefix}/0">Root</a>`,
    ];
    const body = Array.from({ length: 3 }, (_, k) => paragraph(index, k)).join('\n');
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tree ${index}</title></head>` +
          `<body><nav>${links.join(' ')}</nav><main><article><h1>Tree ${index}</h1>\n${body}\n</article></main></body></html>`,
      );
    }, options.delayMs);
  });
  return Array.from({ length: options.count }, (_, index) => `${prefix}/${index}`);
}

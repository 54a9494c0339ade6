// Issue 22 item 2: one reading path, so the same page gives the same `status` in every tool that reports one. Each
// page shape goes through all eight tools via a real MCP client over stdio against the loopback fixture server.
// web_scraper's `status` is the seed's HTTP status: its outcome is `outcome`. A crawl reports per run: `ok` when its
// one page was read, `error` when that page had nothing to read. map lists URLs, not a page's outcome: it is asked of
// the pages that have links.
//
// The rule for kinds other than HTML (src/outcome.ts): content that cannot be read as text (binary) is `not_html`;
// readable non-HTML (JSON, a PDF with text, a feed, plain text) is `ok` in every tool, and the tool's own sentence
// says what it is.
import { TEST_TESSERACT_PATH } from '../ocr-available.js';
import { describe, expect, it } from 'vitest';
import { addContentRoutes } from '../fixtures/content/routes.js';
import { ARTICLE_HTML, PNG_BYTES, type FixtureServer } from '../fixture-server.js';
import { useMcpSession } from './session.js';

const SENTENCES = Array.from(
  { length: 20 },
  (_, i) => `Sentence ${i + 1} of the river report says the delta kept its silt for one more season.`,
).join(' ');

const SHAPES: Readonly<Record<string, string>> = {
  // Twenty sentences and one link to another site, with three scripts (analytics, say).
  '/shape/prose': `<!doctype html><html><head><title>Prose</title><script>a()</script><script>b()</script>
<script>c()</script></head><body><p>${SENTENCES} <a href="https://elsewhere.example/">Elsewhere</a></p></body></html>`,
  // Only a menu of twelve links.
  '/shape/menu': `<!doctype html><html><head><title>Menu</title></head><body><nav><ul>${Array.from(
    { length: 12 },
    (_, i) => `<li><a href="/shape/page-${i + 1}">Section ${i + 1}</a></li>`,
  ).join('')}</ul></nav></body></html>`,
  '/shape/shell': `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<script src="/a.js"></script><script src="/b.js"></script><script src="/c.js"></script></body></html>`,
  '/shape/empty': '<!doctype html><html><head><title>Nothing</title></head><body></body></html>',
};

function addShapes(server: FixtureServer): void {
  addContentRoutes(server);
  server.route('/shape/article', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(ARTICLE_HTML);
  });
  for (const [path, body] of Object.entries(SHAPES)) {
    server.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    });
  }
  server.route('/shape/image', (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(PNG_BYTES);
  });
  server.route('/shape/binary', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 10, 13, 0, 7]));
  });
  server.route('/shape/forbidden', (_req, res) => {
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end('<p>Members only</p>');
  });
  server.route('/shape/gone', (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<p>Not here</p>');
  });
  server.route('/robots.txt', (_req, res) => {
    res.writeHead(404);
    res.end();
  });
}

const { server, session } = useMcpSession({
  tools: 'all',
  setup: addShapes,
  // Port 9 allowed and closed: a refused connection, not a refused address.
  env: (server) => ({
    RENDER_JS: 'never',
    FETCH_TIMEOUT: '5000',
    ALLOW_PRIVATE_HOSTS: `${server.hostPort},127.0.0.1:9`,
  }),
});

const TABLE: readonly (readonly [shape: string, path: string, status: string])[] = [
  ['article', '/shape/article', 'ok'],
  ['prose with one external link and three scripts', '/shape/prose', 'ok'],
  ['link-only page (a menu of 12 links)', '/shape/menu', 'ok'],
  ['script shell', '/shape/shell', 'needs_js'],
  ['empty page', '/shape/empty', 'empty'],
  ['JSON', '/data', 'ok'],
  ['PDF', '/report.pdf', 'ok'],
  ['feed', '/feed.rss', 'ok'],
  ['binary', '/shape/binary', 'not_html'],
  // A picture is read by OCR (issue 27): this one holds no text; without tesseract, it needs OCR.
  ['image without text', '/shape/image', TEST_TESSERACT_PATH ? 'empty' : 'needs_ocr'],
];

async function statusOf(tool: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await session.call(tool, args);
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  expect(structured, `${tool}: ${result.text}`).toBeDefined();
  return tool === 'web_scraper' ? structured!.outcome : structured!.status;
}

describe('the same page gives the same status in every tool', () => {
  it.each(TABLE)('%s', async (_shape, path, status) => {
    const url = server.url(path);
    const statuses = {
      fetch: await statusOf('fetch', { url }),
      read_url: await statusOf('read_url', { url }),
      web: await statusOf('web', { url }),
      web_links: await statusOf('web', { url, mode: 'links' }),
      links: await statusOf('links', { url }),
      extract_links: await statusOf('extract_links', { url }),
      web_scraper: await statusOf('web_scraper', { url }),
      crawl: await statusOf('crawl', { url, max_pages: 1, max_depth: 0 }),
    };
    expect(statuses).toEqual({
      fetch: status,
      read_url: status,
      web: status,
      web_links: status,
      links: status,
      extract_links: status,
      web_scraper: status,
      crawl: status === 'ok' ? 'ok' : 'error',
    });
  });

  it('map lists the links of a link-only page', async () => {
    const result = await session.call('map', { url: server.url('/shape/menu') });
    expect(result.structuredContent).toMatchObject({ status: 'ok' });
  });
});

// A read that failed: every tool is an error result with the same outcome. web_scraper's `status` stays the seed's
// HTTP status (0 when no response came), its outcome in `outcome` as on success; a crawl reports per run (`error`).
const FAILURES: readonly (readonly [shape: string, url: () => string, outcome: string, http: number])[] = [
  ['403', () => server.url('/shape/forbidden'), 'blocked', 403],
  ['404', () => server.url('/shape/gone'), 'error', 404],
  ['a refused connection', () => 'http://127.0.0.1:9/', 'error', 0],
  ['a private address not allowed', () => 'http://127.0.0.1:10/', 'error', 0],
];

describe('a failed read gives the same outcome in every tool', () => {
  it.each(FAILURES)('%s', async (_shape, urlOf, outcome, http) => {
    const url = urlOf();
    const failures: Record<string, unknown> = {};
    const tools: [string, Record<string, unknown>][] = [
      ['fetch', { url }],
      ['read_url', { url }],
      ['web', { url }],
      ['links', { url }],
      ['extract_links', { url }],
      ['web_scraper', { url }],
      ['map', { url }],
      ['crawl', { url, max_pages: 1, max_depth: 0 }],
    ];
    for (const [tool, args] of tools) {
      const result = await session.call(tool, args);
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      failures[tool] = {
        isError: result.isError === true,
        outcome: tool === 'web_scraper' ? structured?.outcome : structured?.status,
        http: tool === 'web_scraper' ? structured?.status : (structured?.http_status ?? 0),
      };
    }
    const each = { isError: true, outcome, http };
    expect(failures).toEqual({
      fetch: each,
      read_url: each,
      web: each,
      links: each,
      extract_links: each,
      web_scraper: each,
      map: each,
      crawl: { isError: true, outcome: 'error', http: 0 },
    });
  });
});

describe('the tool says what a page without links is', () => {
  it('links on JSON says it is JSON with no links, not that it may need JavaScript', async () => {
    const result = await session.call('links', { url: server.url('/data') });
    expect(result.text).not.toContain('JavaScript');
    expect(result.text).toMatch(/JSON/);
  });

  it('links on a page of prose with no same-site link says it has none, status ok', async () => {
    const result = await session.call('links', { url: server.url('/shape/prose') });
    expect(result.structuredContent).toMatchObject({ status: 'ok', total_links: 0 });
    expect(result.text).not.toContain('JavaScript');
  });
});

describe('web_scraper reads a page once', () => {
  it('a cookie-protected JSON endpoint: one request, with the cookie, and not blocked', async () => {
    let requests = 0;
    server.route('/shape/private.json', (req, res) => {
      requests++;
      const allowed = req.headers.cookie === 'session=yes';
      res.writeHead(allowed ? 200 : 401, { 'content-type': 'application/json' });
      res.end(allowed ? '{"river":"Delta","private":true}' : '{"error":"login"}');
    });
    const result = await session.call('web_scraper', {
      url: server.url('/shape/private.json'),
      headers: { cookie: 'session=yes' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 200, outcome: 'ok' });
    expect((result.structuredContent as { text: string }).text).toContain('"private": true');
    expect(requests).toBe(1);
  });
});

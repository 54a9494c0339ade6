// A small documentation site for the `map` tool and llms.txt twins, on the fixture server: robots.txt naming a
// sitemap index with one plain and one gzipped child, an /llms.txt, a start page with links, HTML pages with
// Markdown twins. And a hostile site (its own fixture server, so its own robots.txt): an index naming thousands of
// sitemaps, the first of them one file of 60,000 URLs.
import zlib from 'node:zlib';
import { respondWith, type FixtureServer } from './fixture-server.js';

const HTML = 'text/html; charset=utf-8';
const MARKDOWN = 'text/markdown; charset=utf-8';

const urlset = (entries: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ` +
  `xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n${entries.join('\n')}\n</urlset>`;
const sitemapIndex = (locs: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
  `${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('\n')}\n</sitemapindex>`;

export const LLMS_TXT = `# Fixture docs

> A small site for the map and llms.txt tests.

## Docs

- [Doc A](/docs/a): the first page
- [Guide](/docs/guide.md): the guide, as Markdown
- [Listed page](/docs/listed)
- [No twin](/docs/nomd)
`;

const article = (title: string, words: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav>` +
  `<article><h1>${title}</h1><p>${words.repeat(6)}</p></article></body></html>`;

export function addMapSite(server: FixtureServer): void {
  const url = (path: string) => server.url(path);
  server.route(
    '/robots.txt',
    respondWith('text/plain', `User-agent: *\nDisallow: /private/\n\nSitemap: ${url('/sitemaps/index.xml')}\n`),
  );
  server.route(
    '/sitemaps/index.xml',
    respondWith('application/xml', sitemapIndex([url('/sitemaps/plain.xml'), url('/sitemaps/more.xml.gz')])),
  );
  server.route(
    '/sitemaps/plain.xml',
    respondWith(
      'application/xml',
      urlset([
        `<url><loc>${url('/docs/a')}</loc></url>`,
        `<url><loc>${url('/docs/b')}</loc><image:image><image:loc>${url('/img/b.png')}</image:loc></image:image></url>`,
        `<url><loc>${url('/blog/launch')}</loc><news:news><news:title>We launched &amp; more</news:title></news:news></url>`,
        '<url><loc>https://elsewhere.example/page</loc></url>',
      ]),
    ),
  );
  // Gzip bytes without Content-Encoding, as sitemap.xml.gz files are served.
  server.route(
    '/sitemaps/more.xml.gz',
    respondWith(
      'application/gzip',
      zlib.gzipSync(
        urlset([
          `<url><loc>${url('/docs/c')}</loc></url>`,
          `<url><loc>${url('/docs/a?utm_source=sitemap')}</loc></url>`,
          `<url><loc>${url('/private/notes')}</loc></url>`,
        ]),
      ),
    ),
  );
  server.route('/llms.txt', respondWith('text/plain; charset=utf-8', LLMS_TXT));
  server.route(
    '/map-start',
    respondWith(
      HTML,
      `<!doctype html><html><head><title>Start</title></head><body><nav><a href="/about">About</a> ` +
        `<a href="/docs/a#intro">Doc A</a> <a href="/docs/d/index.html">Doc D</a> ` +
        `<a href="https://elsewhere.example/x">Elsewhere</a></nav><main><p>Welcome.</p></main></body></html>`,
    ),
  );
  server.route('/docs/guide', respondWith(HTML, article('Guide (HTML)', 'The HTML guide, which extraction reads. ')));
  server.route('/docs/guide.md', respondWith(MARKDOWN, '# Guide\n\nThe guide as its author wrote it in Markdown.\n'));
  server.route('/docs/listed', respondWith(HTML, article('Listed (HTML)', 'The listed page as HTML. ')));
  server.route('/docs/listed.md', respondWith(MARKDOWN, '# Listed\n\nThe twin the convention points at.\n'));
  server.route('/docs/nomd', respondWith(HTML, article('No twin', 'A listed page that has no Markdown twin. ')));
  server.route(
    '/docs/declared',
    respondWith(
      HTML,
      article('Declared', 'A page declaring its twin. ').replace(
        '</title>',
        '</title><link rel="alternate" type="text/markdown" href="/docs/declared.md">',
      ),
    ),
  );
  server.route('/docs/declared.md', respondWith(MARKDOWN, '# Declared\n\nFrom the declared twin.\n'));
  server.route('/plain/:n', (_req, res, params) => {
    res.writeHead(200, { 'content-type': HTML });
    res.end(article(`Plain ${params.n}`, 'A page on a site without llms.txt. '));
  });
}

/** Sitemaps the hostile index names. */
export const HOSTILE_CHILDREN = 5000;
/** URLs in the hostile site's big sitemap: more than one file may list (50,000), several MB. */
export const BIG_SITEMAP_URLS = 60_000;

export function addHostileSite(server: FixtureServer): void {
  const url = (path: string) => server.url(path);
  server.route('/robots.txt', respondWith('text/plain', `User-agent: *\nSitemap: ${url('/index.xml')}\n`));
  const children = [url('/big.xml')];
  for (let n = 0; n < HOSTILE_CHILDREN; n++) children.push(url(`/child/${n}.xml`));
  server.route('/index.xml', respondWith('application/xml', sitemapIndex([url('/index.xml'), ...children])));
  const big = urlset(Array.from({ length: BIG_SITEMAP_URLS }, (_, n) => `<url><loc>${url(`/big/${n}`)}</loc></url>`));
  server.route('/big.xml', respondWith('application/xml', big));
  server.route('/child/:file', (_req, res, params) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(urlset([`<url><loc>${url(`/tiny/${params.file!.replace('.xml', '')}`)}</loc></url>`]));
  });
  server.route('/', respondWith(HTML, '<!doctype html><html><body><a href="/tiny/home">Home</a></body></html>'));
}

// Fixture pages shared by the link and scraper tool tests: a small site page whose link counts are known.
import type { FixtureServer } from '../fixture-server.js';

// Same-site links by count: /products ×3, / ×2 (first), /about ×2, /blog ×1; plus one external, a fragment-only
// and a javascript: link that must not be listed.
export const SITE_HTML = `<!doctype html><html lang="en"><head><title>Example Site</title>
<meta name="description" content="A small site for tests"></head><body>
<nav><a href="/">Home</a> <a href="/products">Products</a> <a href="/about">About Us</a></nav>
<main><h1>Welcome</h1>
<p>See <a href="/products">our products</a> and <a href="https://partner.example/">a partner</a> for more.</p>
<p><a href="/about">About</a> <a href="#top">Top</a> <a href="javascript:void(0)">JS</a> <a href="/blog">Blog</a></p>
<h2>More</h2><p><a href="/products">Products again</a></p>
</main><footer><a href="/">Home</a></footer></body></html>`;

export const NO_LINKS_HTML = `<!doctype html><html><head><title>Plain</title></head><body><main>
<p>${'A page of text with no links at all, long enough to be content. '.repeat(5)}</p></main></body></html>`;

export function html(body: string, status = 200) {
  return (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
}

export function addSitePages(server: FixtureServer): void {
  server.route('/site', html(SITE_HTML));
  server.route('/nolinks', html(NO_LINKS_HTML));
}

/** The ranked same-site lines the links tool and web links mode print for SITE_HTML. */
export function siteLines(server: FixtureServer): string[] {
  return [
    `- Products: ${server.url('/products')}`,
    `- Home: ${server.url('/')}`,
    `- About Us: ${server.url('/about')}`,
    `- Blog: ${server.url('/blog')}`,
  ];
}

// A site's files for machines, read through the engine (guard, cache, queue) for the tools that list a site rather
// than read a page: robots.txt and sitemaps (crawl, map). What they mean is parsed below tools, in src/fetch/robots.ts
// and src/crawl/sitemap.ts. Both tools walk a site as a crawler does, so they ask as the crawler, by its name
// (Config.crawlerUserAgent), and obey the robots.txt group of that name.
import { gunzipSitemap, isGzip, type ParsedSitemap } from '../crawl/sitemap.js';
import type { Engine } from '../engine/engine.js';
import { productTokenOf, readRobotsRules, type RobotsRules } from '../fetch/robots.js';
import { loadDocument } from './load-document.js';

/** RFC 9309 §2.3.1: the URL's origin's robots.txt rules; throws only for a refused address or cancellation. */
export function loadRobots(engine: Engine, url: string, signal: AbortSignal): Promise<RobotsRules> {
  const userAgent = engine.config.crawlerUserAgent;
  return readRobotsRules(
    url,
    async (robotsUrl) => (await loadDocument(engine, robotsUrl, { signal, userAgent })).text,
    signal,
    productTokenOf(userAgent),
  );
}

/**
 * A sitemap and what it lists. A gzipped file (`sitemap.xml.gz`, served as bytes rather than with
 * Content-Encoding, which the fetcher undoes itself) is known by its bytes, not its name or Content-Type.
 */
export async function loadSitemap(engine: Engine, url: string, signal: AbortSignal): Promise<ParsedSitemap> {
  const { page } = await engine.loadPage(url, { signal, userAgent: engine.config.crawlerUserAgent });
  // Unpacked off the event loop (zlib's thread pool), read in the worker pool; the protocol's encoding is UTF-8.
  if (!isGzip(page.body)) return engine.parseSitemap(page.body, page.headers['content-type']);
  const unpacked = await gunzipSitemap(page.body, engine.config.maxResponseBytes, url);
  return engine.parseSitemap(unpacked, 'application/xml; charset=utf-8');
}

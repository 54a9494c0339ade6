// A site's files for machines, read through the engine (guard, cache, queue) for the tools that list a site rather
// than read a page: robots.txt and sitemaps (crawl, map). What they mean is parsed below tools, in src/fetch/robots.ts
// and src/crawl/sitemap.ts. Both tools walk a site as a crawler does, so they ask as the crawler, by its name
// (Config.crawlerUserAgent), and obey the robots.txt group of that name.
import { gunzipSitemap, isGzip, parseSitemap, type ParsedSitemap } from '../crawl/sitemap.js';
import type { Engine } from '../engine/engine.js';
import type { LoadOptions } from '../engine/load-page.js';
import { productTokenOf, readRobotsRules, type RobotsRules } from '../fetch/robots.js';
import { sniffContent } from '../formats/sniff.js';

/** RFC 9309 §2.3.1: the URL's origin's robots.txt rules; throws only for a refused address or cancellation. */
export function loadRobots(engine: Engine, url: string, signal: AbortSignal): Promise<RobotsRules> {
  const userAgent = engine.config.crawlerUserAgent;
  return readRobotsRules(
    url,
    async (robotsUrl) => loadText(engine, robotsUrl, { signal, userAgent }),
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
  const text = isGzip(page.body)
    ? await gunzipSitemap(page.body, engine.config.maxResponseBytes)
    : await engine.decodeText(page);
  return parseSitemap(text);
}

/** A file's text as the server sent it ('' for binary content and PDFs), through the engine's cache and queue. */
async function loadText(engine: Engine, url: string, options: LoadOptions): Promise<string> {
  const { page } = await engine.loadPage(url, options);
  const kind = sniffContent(page.mediaType, page.body, page.finalUrl);
  return kind === 'binary' || kind === 'pdf' ? '' : engine.decodeText(page);
}

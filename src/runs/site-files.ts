// A site's files for machines, read through the engine (guard, cache, queue) for the tools that list a site rather
// than read a page: robots.txt and sitemaps (crawl, map). What they mean is parsed below tools, in src/fetch/robots.ts
// and src/crawl/sitemap.ts. Both tools walk a site as a crawler does, so they ask as the crawler, by its name
// (Config.crawlerUserAgent), and obey the robots.txt group of that name.
import { gunzipSitemap, isGzip, type ParsedSitemap } from '../crawl/sitemap.js';
import type { Engine } from '../engine/engine.js';
import type { PageContent } from '../engine/page-content.js';
import { TOO_LARGE_ADVICE, tooLargeFile } from '../fetch/read-body.js';
import type { RobotsRules } from '../fetch/robots.js';

/**
 * RFC 9309 §2.3.1: the URL's origin's robots.txt rules, from the engine's one robots gate (fetched once per origin
 * per CACHE_TTL, as the crawler, shared with RESPECT_ROBOTS=always); throws only for a refused address or cancellation.
 */
export function loadRobots(engine: Engine, url: string, signal: AbortSignal): Promise<RobotsRules> {
  return engine.robotsRules(url, signal);
}

/**
 * A sitemap and what it lists. A gzipped file (`sitemap.xml.gz`, served as bytes rather than with
 * Content-Encoding, which the fetcher undoes itself) is known by its bytes, not its name or Content-Type.
 */
export async function loadSitemap(engine: Engine, url: string, signal: AbortSignal): Promise<ParsedSitemap> {
  try {
    return await readSitemap(engine, url, signal);
  } catch (error) {
    // Past MAX_RESPONSE_SIZE (sent, or unpacked): a sitemap is not a page the agent can ask for more narrowly.
    throw tooLargeFile(error, TOO_LARGE_ADVICE.sitemap);
  }
}

async function readSitemap(engine: Engine, url: string, signal: AbortSignal): Promise<ParsedSitemap> {
  const file = await readFile(engine, url, signal);
  // Read in the worker pool: the file is the site's, up to MAX_RESPONSE_SIZE (src/crawl/sitemap.ts).
  if (file.kind !== 'binary') return engine.parseSitemap(file.raw);
  // Gzip is binary to the reader: its bytes, from the snapshot just read (the page cache), are unpacked here.
  const { page } = await engine.loadPage(url, { signal, userAgent: engine.config.crawlerUserAgent });
  if (!isGzip(page.body)) return { urls: [], sitemaps: [] };
  // Unpacked off the event loop (zlib's thread pool); a bomb is RESPONSE_TOO_LARGE naming the sitemap.
  return engine.parseSitemap(await gunzipSitemap(page.body, engine.config.maxResponseBytes, url));
}

/** A file for machines through the engine's one reading path, as sent: never rendered, no twin. */
function readFile(engine: Engine, url: string, signal: AbortSignal): Promise<PageContent> {
  return engine.readPage(url, { signal, userAgent: engine.config.crawlerUserAgent, raw: true, render: 'never' });
}

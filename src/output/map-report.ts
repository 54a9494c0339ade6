// The `map` tool's text: `N URLs found on <url>`, then one URL a line — `- url — title` where llms.txt or a sitemap
// gives a title (the URL first: the list is of URLs, and a title may hold any punctuation) — then what cut the list
// or failed, one sentence a line. The sentences live here, beside their only user.
import { asSentence } from './notices.js';
import type { MapResult, MappedUrl } from '../crawl/map-site.js';
import { shortenLinkPart } from './link-list.js';

export function mapLine(entry: MappedUrl): string {
  const url = shortenLinkPart(entry.url);
  return entry.title ? `- ${url} — ${shortenLinkPart(entry.title)}` : `- ${url}`;
}

export function mapHeading(count: number, url: string): string {
  return `${count} ${count === 1 ? 'URL' : 'URLs'} found on ${url}`;
}

/** Why the list is incomplete or a source is missing, in words an agent can act on. */
export function mapNotes(result: MapResult, maxUrls: number, shown: number): string[] {
  const notes: string[] = [];
  if (shown < result.urls.length) {
    notes.push(
      `Only ${shown} of the ${result.urls.length} URLs fit within MAX_OUTPUT_TOKENS; ask for fewer with max_urls, ` +
        'or narrow with search or patterns.',
    );
  }
  if (result.stopReason === 'max_urls') {
    notes.push(
      `The site lists more URLs than max_urls (${maxUrls}): narrow with search or patterns, or raise max_urls.`,
    );
  }
  if (result.urls.length === 0 && result.stopReason === 'complete') {
    notes.push('No sitemap, llms.txt entry or start-page link in scope was found.');
  }
  return [...notes, ...result.notes.map((note) => asSentence(`${note[0]!.toUpperCase()}${note.slice(1)}`))];
}

export function renderMap(result: MapResult, lines: readonly string[], notes: readonly string[]): string {
  const parts = [mapHeading(lines.length, result.url), lines.join('\n'), notes.join('\n')];
  return parts.filter((part) => part !== '').join('\n\n');
}

// The search providers `search` can use (issue 26 item 1), each as the requests it sends and a pure parse of its
// documented JSON answer. Chosen by configuration in search-web.ts; the network is there, not here.
//
//  - SearXNG (https://docs.searxng.org/dev/search_api.html): GET {SEARXNG_URL}/search?q=…&format=json&pageno=N,
//    with `language` and `time_range` (day, week, month, year). Its answer: { query, number_of_results, results:
//    [{ url, title, content, engine, engines, publishedDate, … }], answers, suggestions, unresponsive_engines }.
//    A page holds as many results as its engines gave (often 10–20) and has no count parameter: more are the next
//    pageno, until a page adds none.
//  - Brave Search API (https://api-dashboard.search.brave.com/app/documentation/web-search): GET {BRAVE_API_URL}
//    ?q=…&count=N (at most 20)&offset=P&search_lang=…&freshness=pd|pw|pm|py, header X-Subscription-Token. Its
//    answer: { type: "search", query: { original, more_results_available }, web: { type: "search", results:
//    [{ title, url, description, age, page_age, profile: { name }, … }] } }; `web` is absent when nothing matched.
//    Descriptions carry <strong> around the words that matched: stripped here.
import type { Config } from '../config.js';

export type TimeRange = 'day' | 'week' | 'month' | 'year';
export const TIME_RANGES = ['day', 'week', 'month', 'year'] as const satisfies readonly TimeRange[];

export interface SearchQuery {
  readonly query: string;
  readonly maxResults: number;
  /** A language code ("en", "de-DE"); absent: the provider's default. */
  readonly language?: string;
  readonly timeRange?: TimeRange;
}

/** One result, in the provider's order. */
export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
  /** Which engine found it: SearXNG's `engine`, or "brave". */
  readonly engine: string;
  /** When the provider gives one: the page's date as it gave it. */
  readonly publishedDate?: string;
}

/** One page of answers: its hits, and whether asking for the next page can bring more. */
export interface HitPage {
  readonly hits: readonly SearchHit[];
  readonly hasMore: boolean;
}

export interface SearchProviderSpec {
  /** The name every message uses ("SearXNG", "Brave"). */
  readonly name: string;
  /** The endpoint the operator configured: its exact host:port is the one private address search may reach. */
  readonly endpoint: string;
  /** Request headers (Brave's key); bound to the endpoint's origin only. */
  readonly headers: Readonly<Record<string, string>>;
  /** The URL of the `page`-th request (from 0) for `query`. */
  requestUrl(query: SearchQuery, page: number): string;
  /** The hits of one answer; throws a plain Error saying what was wrong with a body that is not its JSON. */
  parse(body: unknown): HitPage;
  /** How many requests at most one search sends (SearXNG pages; Brave gives up to 20 at once). */
  readonly maxRequests: number;
}

/** A malformed answer: `detail` says what was missing, for SEARCH_UNAVAILABLE's message. */
class MalformedAnswer extends Error {}
export { MalformedAnswer };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Brave marks the matched words with <strong>; a snippet is plain text. */
function plainSnippet(value: unknown): string {
  return text(value)
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[name] ?? "'")
    .trim();
}

function isWebUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

function objectOf(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new MalformedAnswer(what);
  return body as Record<string, unknown>;
}

export function searxngProvider(baseUrl: string): SearchProviderSpec {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return {
    name: 'SearXNG',
    endpoint: baseUrl,
    headers: {},
    maxRequests: 5,
    requestUrl(query, page) {
      const url = new URL('search', base);
      url.searchParams.set('q', query.query);
      url.searchParams.set('format', 'json');
      url.searchParams.set('pageno', String(page + 1));
      if (query.language) url.searchParams.set('language', query.language);
      if (query.timeRange) url.searchParams.set('time_range', query.timeRange);
      return url.href;
    },
    parse(body) {
      const answer = objectOf(body, 'not a JSON object');
      if (!Array.isArray(answer.results)) throw new MalformedAnswer('no "results" list');
      const hits = answer.results.flatMap((item): SearchHit[] => {
        if (typeof item !== 'object' || item === null) return [];
        const result = item as Record<string, unknown>;
        const url = text(result.url);
        if (!isWebUrl(url)) return [];
        const engines = Array.isArray(result.engines) ? result.engines.filter((e) => typeof e === 'string') : [];
        const published = text(result.publishedDate);
        return [
          {
            title: text(result.title).trim() || url,
            url,
            snippet: plainSnippet(result.content),
            engine: text(result.engine) || engines.join(', ') || 'searxng',
            ...(published && { publishedDate: published }),
          },
        ];
      });
      return { hits, hasMore: answer.results.length > 0 };
    },
  };
}

const BRAVE_FRESHNESS: Readonly<Record<TimeRange, string>> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };

export function braveProvider(apiUrl: string, apiKey: string): SearchProviderSpec {
  return {
    name: 'Brave',
    endpoint: apiUrl,
    headers: { 'x-subscription-token': apiKey },
    maxRequests: 1,
    requestUrl(query, page) {
      const url = new URL(apiUrl);
      url.searchParams.set('q', query.query);
      url.searchParams.set('count', String(Math.min(20, query.maxResults)));
      if (page > 0) url.searchParams.set('offset', String(page));
      if (query.language) url.searchParams.set('search_lang', query.language);
      if (query.timeRange) url.searchParams.set('freshness', BRAVE_FRESHNESS[query.timeRange]);
      return url.href;
    },
    parse(body) {
      const answer = objectOf(body, 'not a JSON object');
      if (answer.type !== 'search') throw new MalformedAnswer('not a web search answer ("type" is not "search")');
      if (answer.web === undefined) return { hits: [], hasMore: false };
      const web = objectOf(answer.web, '"web" is not an object');
      if (!Array.isArray(web.results)) throw new MalformedAnswer('no "web.results" list');
      const hits = web.results.flatMap((item): SearchHit[] => {
        if (typeof item !== 'object' || item === null) return [];
        const result = item as Record<string, unknown>;
        const url = text(result.url);
        if (!isWebUrl(url)) return [];
        const published = text(result.page_age) || text(result.age);
        return [
          {
            title: plainSnippet(result.title) || url,
            url,
            snippet: plainSnippet(result.description),
            engine: 'brave',
            ...(published && { publishedDate: published }),
          },
        ];
      });
      const query = typeof answer.query === 'object' && answer.query !== null ? answer.query : {};
      return { hits, hasMore: (query as { more_results_available?: unknown }).more_results_available === true };
    },
  };
}

/** The provider the configuration names: SearXNG when SEARXNG_URL is set, else Brave with BRAVE_API_KEY, else none. */
export function configuredProvider(config: Config): SearchProviderSpec | undefined {
  if (config.searxngUrl) return searxngProvider(config.searxngUrl);
  if (config.braveApiKey) return braveProvider(config.braveApiUrl, config.braveApiKey);
  return undefined;
}

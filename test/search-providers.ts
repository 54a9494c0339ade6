// Search providers on loopback for tests (issue 26): a real SearXNG or Brave Search API cannot run here, so a fixture
// server answers their documented JSON (SearXNG's /search?format=json, Brave's /res/v1/web/search) with the results
// a test gives, paged as they page, and their error answers (429, 401, an empty result, a malformed body).
import type { FixtureServer } from './fixture-server.js';

export interface FakeResult {
  readonly url: string;
  readonly title: string;
  readonly snippet?: string;
}

export interface ProviderBehaviour {
  /** What the next requests get: the results (default), or an error answer. */
  mode: 'results' | '429' | '401' | 'malformed' | 'empty';
  results: FakeResult[];
  /** SearXNG's results per page (its engines decide it; no request parameter does). */
  perPage: number;
}

/** The query strings the provider received, in order (`q`, `pageno`, `count`, headers…). */
export interface ProviderLog {
  readonly requests: { readonly params: URLSearchParams; readonly token?: string }[];
}

/**
 * Adds SearXNG's `/search` and Brave's `/res/v1/web/search` to `server`; the returned behaviour can be changed by the
 * test between calls.
 */
export function addSearchProviders(server: FixtureServer): ProviderBehaviour & ProviderLog {
  const state: ProviderBehaviour & ProviderLog = { mode: 'results', results: [], perPage: 10, requests: [] };
  const errorAnswer = (res: import('node:http').ServerResponse): boolean => {
    if (state.mode === '429') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' });
      res.end(JSON.stringify({ type: 'ErrorResponse', error: { code: 'RATE_LIMITED', status: 429 } }));
      return true;
    }
    if (state.mode === '401') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', status: 401 } }));
      return true;
    }
    if (state.mode === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html><body>Too many requests</body></html>');
      return true;
    }
    return false;
  };
  server.route('/search', (req, res, _params, url) => {
    state.requests.push({ params: url.searchParams });
    if (errorAnswer(res)) return;
    const page = Number(url.searchParams.get('pageno') ?? '1');
    const results = state.mode === 'empty' ? [] : state.results.slice((page - 1) * state.perPage, page * state.perPage);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        query: url.searchParams.get('q'),
        number_of_results: 0,
        results: results.map((result, index) => ({
          url: result.url,
          title: result.title,
          content: result.snippet ?? '',
          engine: index % 2 === 0 ? 'duckduckgo' : 'wikipedia',
          engines: ['duckduckgo'],
          positions: [index + 1],
          parsed_url: ['http', new URL(result.url).host, new URL(result.url).pathname, '', '', ''],
          template: 'default.html',
          score: 1 / (index + 1),
          category: 'general',
        })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      }),
    );
  });
  server.route('/res/v1/web/search', (req, res, _params, url) => {
    const token = req.headers['x-subscription-token'];
    state.requests.push({ params: url.searchParams, token: typeof token === 'string' ? token : undefined });
    if (errorAnswer(res)) return;
    const count = Number(url.searchParams.get('count') ?? '20');
    const results = state.mode === 'empty' ? [] : state.results.slice(0, count);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        type: 'search',
        query: { original: url.searchParams.get('q'), more_results_available: false },
        mixed: { type: 'mixed', main: [] },
        ...(results.length > 0 && {
          web: {
            type: 'search',
            results: results.map((result) => ({
              type: 'search_result',
              title: result.title,
              url: result.url,
              description: `<strong>${result.snippet ?? ''}</strong> &amp; more`,
              age: 'August 1, 2026',
              profile: { name: new URL(result.url).host },
              language: 'en',
            })),
          },
        }),
      }),
    );
  });
  return state;
}

// `search` (issue 26 item 1): a query → ranked results from the configured provider (search-providers.ts).
//
// The provider's endpoint is configuration the operator trusts: it is reached through the same guarded fetch as
// every page (one deadline, body limit, redirects checked hop by hop), with its exact host:port — and no other —
// added to the private addresses this one fetcher may reach, so a SearXNG on the LAN needs no ALLOW_PRIVATE_HOSTS
// entry. Nothing else is: the results are ordinary URLs, read (if at all) by the engine under the full guard, and a
// result on the provider's own host:port is refused even where ALLOW_PRIVATE_HOSTS names it (providerResultError).
// Every failure of the provider — down, 401/403, 429, 5xx, a body that is not its JSON — is SEARCH_UNAVAILABLE
// naming the provider.
import type { Config } from '../config.js';
import { FetchError, HttpStatusError, SecurityError, TimeoutError, WebReaderError, errorMessage } from '../errors.js';
import { hostPortOf } from '../fetch/check-url.js';
import { bindCredentials } from '../fetch/credentials.js';
import { createFetcher } from '../fetch/guarded-fetch.js';
import type { FetchPage } from '../fetch/types.js';
import { MANY_SENTENCES } from '../output/notices.js';
import {
  configuredProvider,
  MalformedAnswer,
  type SearchHit,
  type SearchProviderSpec,
  type SearchQuery,
} from './search-providers.js';

export interface SearchAnswer {
  readonly provider: string;
  readonly hits: readonly SearchHit[];
}

export interface SearchWeb {
  readonly provider: SearchProviderSpec;
  search(query: SearchQuery, signal?: AbortSignal): Promise<SearchAnswer>;
  /** A SecurityError when `url` is on the provider's own host:port (such a result is never read), else undefined. */
  providerResultError(url: string): SecurityError | undefined;
}

// One fetcher per configuration: its keep-alive connections to the provider are reused from search to search.
const searchers = new WeakMap<Config, SearchWeb>();

/** The search of this configuration; throws SEARCH_UNAVAILABLE, saying which variable to set, when none is named. */
export function searchWebFor(config: Config): SearchWeb {
  const known = searchers.get(config);
  if (known) return known;
  const provider = configuredProvider(config);
  if (!provider) throw new FetchError('SEARCH_UNAVAILABLE', '', MANY_SENTENCES.noProvider);
  const endpoint = hostPortOf(new URL(provider.endpoint));
  const fetchPage = createFetcher({
    ...config,
    allowPrivateHosts: new Set([...config.allowPrivateHosts, endpoint]),
  });
  const searcher = createSearchWeb(provider, fetchPage, config.crawlerUserAgent);
  searchers.set(config, searcher);
  return searcher;
}

function unavailable(provider: SearchProviderSpec, error: unknown): FetchError {
  if (error instanceof FetchError && error.code === 'SEARCH_UNAVAILABLE') return error;
  const name = provider.name;
  let message: string;
  if (error instanceof MalformedAnswer) message = MANY_SENTENCES.providerMalformed(name, error.message);
  else if (error instanceof HttpStatusError && error.status === 429) {
    message = MANY_SENTENCES.providerRateLimited(name, error.retryAfterSeconds);
  } else if (error instanceof HttpStatusError && (error.status === 401 || error.status === 403)) {
    message = MANY_SENTENCES.providerRefusedKey(name, error.status);
  } else if (error instanceof HttpStatusError) message = MANY_SENTENCES.providerFailed(name, error.status);
  else {
    const detail = error instanceof WebReaderError ? `${error.code}: ${errorMessage(error)}` : errorMessage(error);
    message = MANY_SENTENCES.providerUnreachable(name, detail);
  }
  return new FetchError('SEARCH_UNAVAILABLE', provider.endpoint, message, { cause: error });
}

export function createSearchWeb(provider: SearchProviderSpec, fetchPage: FetchPage, userAgent: string): SearchWeb {
  const credentials = bindCredentials(provider.endpoint, provider.headers);
  const providerHost = hostPortOf(new URL(provider.endpoint));

  async function requestPage(query: SearchQuery, page: number, signal: AbortSignal | undefined) {
    let body: unknown;
    try {
      const answer = await fetchPage(provider.requestUrl(query, page), {
        signal,
        accept: 'application/json',
        userAgent,
        ...(credentials && { credentials }),
      });
      try {
        body = JSON.parse(new TextDecoder().decode(answer.body));
      } catch {
        throw new MalformedAnswer('not JSON');
      }
      return provider.parse(body);
    } catch (error) {
      // The caller's own cancellation stays what it is: no provider failed.
      if (signal?.aborted && !(error instanceof TimeoutError)) throw signal.reason ?? error;
      throw unavailable(provider, error);
    }
  }

  return {
    provider,
    async search(query, signal) {
      const hits: SearchHit[] = [];
      const seen = new Set<string>();
      for (let page = 0; page < provider.maxRequests && hits.length < query.maxResults; page++) {
        const answer = await requestPage(query, page, signal);
        let added = 0;
        for (const hit of answer.hits) {
          if (seen.has(hit.url) || hits.length >= query.maxResults) continue;
          seen.add(hit.url);
          hits.push(hit);
          added += 1;
        }
        if (added === 0 || !answer.hasMore) break;
      }
      return { provider: provider.name, hits };
    },
    providerResultError(url) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return undefined; // not a URL: the engine refuses it with its own words
      }
      if (hostPortOf(target) !== providerHost) return undefined;
      return new SecurityError('PRIVATE_ADDRESS', url, MANY_SENTENCES.providerResult(url));
    },
  };
}

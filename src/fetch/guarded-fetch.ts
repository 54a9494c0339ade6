// The one way web-reader reaches the network: GET a URL under SPEC "Safety and politeness".
//  - every hop is checked: the scheme and IP literals by checkUrl, the address actually connected to by the
//    guarded connector (guarded-connect.ts), which undici calls for every new socket;
//  - redirects are followed here, not by undici, so each Location goes through checkUrl (RFC 9110 §15.4);
//  - one deadline (FETCH_TIMEOUT) covers DNS, connect, TLS, headers and body of the whole chain, including a
//    retry. undici passes a connector no signal, so a call's dispatchers (a "call network") belong to one call
//    at a time and their connector reads the signal of the call that owns them: every connect they start is for
//    that call's own requests, and its deadline or cancellation ends that connect and no other call's;
//  - keep-alive across calls: a call that ends cleanly (not aborted, nothing queued or running) hands its network
//    to the next call of an origin it holds an open connection to, for at most IDLE_NETWORK_MS (idle-networks.ts);
//    anything else is destroyed when the call ends. One long-lived Agent was rejected: undici fails EVERY request
//    queued on a client with the error of the connect that failed (client.js handleConnectError → onError), and
//    reconnects from socket callbacks outside any request's stack, so no connect can be tied to one call there;
//  - the body is limited after decompression (read-body.ts).
// Through a proxy we still resolve and check the target ourselves and make the proxy reach the checked address
// (guarded-connect.ts): https:// by CONNECT to "ip:port" (SNI and Host keep the name); plain http:// as a proxy
// request in absolute-form (RFC 9112 §3.2.2), never CONNECT, since many proxies allow CONNECT to 443 only. The
// request-target carries the checked IP ("GET http://93.184.216.34:80/path") and the Host header the name.
// RFC 9112 lets a proxy replace Host with the target's authority, so a name-based virtual host behind a
// strict proxy may answer for its default site: pinning the address is the safety we will not trade away.
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, buildConnector, Pool, request, type Dispatcher } from 'undici';
import type { Config } from '../config.js';
import { FetchError, HttpStatusError, TimeoutError } from '../errors.js';
import { log, logUrl } from '../log.js';
import { checkUrl, privateAddressError, type CheckedUrl } from './check-url.js';
import { credentialHeadersFor } from './credentials.js';
import {
  abortableConnector,
  AddressRefusedError,
  authority,
  createGuardedConnector,
  defaultLookup,
  proxyAuthorization,
  proxyTargets,
  unlessAborted,
  type GuardedConnectorOptions,
} from './guarded-connect.js';
import { destroyNetwork, IdleNetworks, isClosedConnection, proxyKey, type CallNetwork } from './idle-networks.js';
import { proxyFor } from './proxy-for.js';
import { linkSignal } from './linked-signal.js';
import { readBody } from './read-body.js';
import { parseRetryAfter } from './retry-after.js';
import type { FetchedPage, FetchOptions, FetchPage } from './types.js';

/** Markdown first (SPEC "Ask for Markdown first"), then HTML, then anything. */
export const DEFAULT_ACCEPT = 'text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, */*;q=0.8';
const ACCEPT_ENCODING = 'gzip, deflate, br';
const ACCEPT_LANGUAGE = 'en;q=0.9, *;q=0.5';

/** The longest Retry-After we wait for before retrying once; anything longer is reported (SPEC). */
export const RETRY_AFTER_LIMIT_SECONDS = 5;

/** A fetch slower than this is logged at info (every fetch is logged at debug): why a read took long. */
export const SLOW_FETCH_LOG_MS = 5000;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Test seams: a fake resolver (DNS rebinding tests) and a fake socket opener (no internet). */
export type FetcherDependencies = Pick<GuardedConnectorOptions, 'lookup' | 'connect'>;

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Drops a body we will not read: a short one is drained so the connection can be reused, a long one closes it. */
async function discard(response: Dispatcher.ResponseData, signal: AbortSignal): Promise<void> {
  await response.body.dump({ limit: 64 * 1024, signal });
}

function statusError(url: URL, status: number, retryAfterSeconds: number | undefined): HttpStatusError {
  const host = url.host;
  const retry = retryAfterSeconds === undefined ? '' : `; retry after ${retryAfterSeconds} s`;
  if (status === 429) {
    const advice = retryAfterSeconds === undefined ? '; wait before retrying.' : `${retry}.`;
    return new HttpStatusError(url.href, status, `Rate limited by ${host} (HTTP 429)${advice}`, retryAfterSeconds);
  }
  if (status === 503 && retryAfterSeconds !== undefined) {
    const message = `${host} is temporarily unavailable (HTTP 503)${retry}.`;
    return new HttpStatusError(url.href, status, message, retryAfterSeconds);
  }
  const hint =
    status === 401 || status === 403
      ? 'access denied; the site may require a login or block automated clients'
      : status === 404 || status === 410
        ? 'the page does not exist; check the URL'
        : status >= 500
          ? 'the server failed; try again later'
          : (STATUS_CODES[status] ?? 'unexpected status');
  return new HttpStatusError(url.href, status, `HTTP error ${status} for ${url.href} (${hint}).`, retryAfterSeconds);
}

export function createFetcher(config: Config, dependencies: FetcherDependencies = {}): FetchPage {
  const lookup = dependencies.lookup ?? defaultLookup;
  const allow = config.allowPrivateHosts;
  // One connector for every call, so TLS session tickets are reused across calls. Its own 10 s connect timeout
  // bounds one address (the next is then tried); only a FETCH_TIMEOUT above 10 s ever meets it.
  const connect = dependencies.connect ?? buildConnector({});
  const proxyConnect = buildConnector({});
  const proxyForUrl = (url: URL) => proxyFor(url, config);

  const idle = new IdleNetworks();

  /** The key of the first request of a call to `url` (see IdleNetworks), or undefined when it will be refused. */
  function firstKey(url: string): string | undefined {
    try {
      const target = new URL(url);
      const proxy = target.protocol === 'http:' ? proxyForUrl(target) : undefined;
      return proxy ? proxyKey(new URL(proxy).origin) : target.origin;
    } catch {
      return undefined;
    }
  }

  /** An idle network connected to the origin of `url`, or a new one; either way owned by the call of `signal`. */
  function openCallNetwork(url: string, signal: AbortSignal): CallNetwork {
    const key = firstKey(url);
    const reused = key === undefined ? undefined : idle.take(key);
    if (reused) {
      reused.signal = signal;
      reused.handedOn = true;
      return reused;
    }
    const network: CallNetwork = {
      signal,
      handedOn: false,
      // Every new socket goes through the guarded connector, bounded by the signal of the call that owns the
      // network when the connect starts: the connect is for that call's request (see the top of this file).
      // One connection per origin: a call sends one request at a time, and it then waits for the connection
      // it just used (undici marks it free a tick after the response ends) instead of opening a second one.
      agent: new Agent({
        connections: 1,
        connect: (options, callback) =>
          createGuardedConnector({
            allowPrivateHosts: allow,
            lookup,
            connect,
            signal: network.signal,
            proxyFor: proxyForUrl,
            proxyIsEgressPolicy: config.proxyIsEgressPolicy,
          })(options, callback),
      }),
      proxyPools: new Map(),
    };
    return network;
  }

  /** Hands a network on for keep-alive when its call ended cleanly; destroys it otherwise. */
  function closeCallNetwork(network: CallNetwork): void {
    if (network.signal.aborted) destroyNetwork(network);
    else idle.put(network);
  }

  /**
   * The GET for a checked URL: through the network's agent, or, for plain http:// with a proxy configured, an
   * absolute-form request through the proxy to the checked address (see the top of this file).
   */
  async function requestChecked(
    checked: CheckedUrl,
    headers: Record<string, string>,
    network: CallNetwork,
  ): Promise<Dispatcher.ResponseData> {
    const { url } = checked;
    const { signal } = network;
    const proxy = url.protocol === 'http:' ? proxyForUrl(url) : undefined;
    if (!proxy) return request(url, { dispatcher: network.agent, method: 'GET', headers, signal });
    const hosts = await proxyTargets(url.hostname, checked.hostPort, {
      allowPrivateHosts: allow,
      lookup,
      signal,
      proxyIsEgressPolicy: config.proxyIsEgressPolicy,
    });
    const proxyUrl = new URL(proxy);
    let pool = network.proxyPools.get(proxyUrl.origin);
    if (!pool) {
      // Like the agent's connector: bounded by the signal of the call owning the network when the connect starts.
      pool = new Pool(proxyUrl.origin, {
        connections: 1,
        connect: (options, callback) => abortableConnector(proxyConnect, network.signal)(options, callback),
      });
      network.proxyPools.set(proxyUrl.origin, pool);
    }
    const target = `http://${authority(hosts[0]!, url.port || '80')}${url.pathname}${url.search}`;
    return pool.request({
      origin: proxyUrl.origin,
      path: target,
      method: 'GET',
      headers: { ...headers, host: url.host, ...proxyAuthorization(proxyUrl) },
      signal,
    });
  }

  /** `redirectedFrom`: the hop that redirected to `checked`, named if its address is refused at connect time. */
  async function send(
    checked: CheckedUrl,
    shownUrl: string,
    headers: Record<string, string>,
    network: CallNetwork,
    redirectedFrom?: string,
  ): Promise<Dispatcher.ResponseData> {
    const { signal } = network;
    const overIdleConnection = network.handedOn;
    network.handedOn = false;
    try {
      // unlessAborted: undici defers a request's abort until its socket connects; the connector closes that socket.
      // A response that still arrives after the abort, direct or through the proxy, is read from no further.
      return await unlessAborted(requestChecked(checked, headers, network), signal, (late) =>
        late.body.on('error', () => {}).destroy(),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      // A server may close an idle connection just as our request arrives on it. A GET is idempotent, so it is
      // sent again, once, on a new connection (RFC 9112 §9.3.1, RFC 9110 §9.2.2); the closed one is gone.
      if (overIdleConnection && isClosedConnection(error)) {
        return send(checked, shownUrl, headers, network, redirectedFrom);
      }
      if (error instanceof AddressRefusedError) {
        throw privateAddressError(checked.url.href, error.subject, error.reason, error.hostPort, redirectedFrom);
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new FetchError('CONNECT_FAILED', shownUrl, `Failed to connect to ${shownUrl}: '${message}'`, {
        cause: error,
      });
    }
  }

  async function readPage(
    requested: string,
    checked: CheckedUrl,
    response: Dispatcher.ResponseData,
    signal: AbortSignal,
  ) {
    const headers = flattenHeaders(response.headers);
    const body = await readBody(response.body, {
      url: checked.url.href,
      maxBytes: config.maxResponseBytes,
      contentEncoding: headers['content-encoding'],
      contentLength: headers['content-length'],
      signal,
    });
    const page: FetchedPage = {
      url: requested,
      finalUrl: checked.url.href,
      status: response.statusCode,
      headers,
      mediaType: (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
      body,
      fetchedAt: new Date(),
    };
    return page;
  }

  async function followChain(url: string, options: FetchOptions, network: CallNetwork, deadlineAt: number) {
    const { signal } = network;
    const headers = {
      'user-agent': options.userAgent ?? config.userAgent,
      accept: options.accept ?? DEFAULT_ACCEPT,
      'accept-encoding': ACCEPT_ENCODING,
      'accept-language': ACCEPT_LANGUAGE,
    };
    let checked = checkUrl(url, allow);
    // The one place credentials are sent: a hop carries them only when it is on their own origin (credentials.ts),
    // and a chain that has left that origin — or started on another — never carries them again, even back on it.
    let credentials = options.credentials;
    let redirects = 0;
    let redirectedFrom: string | undefined;
    let hasRetried = false;
    for (;;) {
      const shownUrl = redirects === 0 ? url : checked.url.href;
      const carried = credentialHeadersFor(credentials, checked.url);
      if (!carried) credentials = undefined;
      const sent = carried ? { ...headers, ...carried } : headers;
      const response = await send(checked, shownUrl, sent, network, redirectedFrom);
      const status = response.statusCode;
      const location = flattenHeaders(response.headers).location;

      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        await discard(response, signal);
        if (redirects >= config.maxRedirects) {
          throw new FetchError(
            'TOO_MANY_REDIRECTS',
            url,
            `Too many redirects fetching ${url}: stopped after ${config.maxRedirects} (MAX_REDIRECTS) at ` +
              `${checked.url.href}, which redirects to ${location}. The site may be in a redirect loop.`,
          );
        }
        let next: URL;
        try {
          next = new URL(location, checked.url); // a relative Location resolves against this hop (RFC 9110 §10.2.2)
        } catch (error) {
          const message = `${checked.url.href} redirected to an invalid Location '${location}'.`;
          throw new FetchError('BAD_RESPONSE', checked.url.href, message, { cause: error });
        }
        // A Location without a fragment inherits the current one (RFC 9110 §10.2.2).
        if (next.hash === '' && checked.url.hash !== '') next.hash = checked.url.hash;
        // We only ever GET, so 301/302/303's "POST becomes GET" rule needs nothing here (RFC 9110 §15.4).
        redirectedFrom = checked.url.href;
        checked = checkUrl(next, allow, redirectedFrom);
        redirects += 1;
        continue;
      }

      if (status >= 200 && status < 300) return readPage(url, checked, response, signal);

      const retryAfter =
        status === 429 || status === 503 ? parseRetryAfter(response.headers['retry-after']?.toString()) : undefined;
      const waitMs = (retryAfter ?? Infinity) * 1000;
      if (
        !hasRetried &&
        retryAfter !== undefined &&
        retryAfter <= RETRY_AFTER_LIMIT_SECONDS &&
        waitMs < deadlineAt - Date.now()
      ) {
        await discard(response, signal);
        hasRetried = true;
        log(
          'info',
          `${checked.url.host} answered HTTP ${status} with Retry-After ${retryAfter} s; fetching ` +
            `${logUrl(checked.url)} again in ${retryAfter} s`,
        );
        await sleep(waitMs, undefined, { signal });
        continue;
      }

      const error = statusError(checked.url, status, retryAfter);
      try {
        error.page = await readPage(url, checked, response, signal);
      } catch (readError) {
        // An error page too large or undecodable: the status is still the news. Timeouts and aborts are not.
        if (signal.aborted) throw readError;
      }
      throw error;
    }
  }

  return async function fetchPage(url: string, options: FetchOptions = {}): Promise<FetchedPage> {
    const timeoutMs = options.timeoutMs ?? config.fetchTimeoutMs;
    // A kept duplicate: the request queue (queue.ts `run`) arms the same deadline, with the same TimeoutError, when
    // it starts this call. Its copy makes the queued call answer at the deadline even if a task is slow to stop;
    // this one bounds the network for every caller of fetchPage, queued or not. Keep the two in step.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new TimeoutError(url, timeoutMs)), timeoutMs);
    const unlink = linkSignal(deadline, options.signal);
    const signal = deadline.signal;
    const network = openCallNetwork(url, signal);
    const startedAt = Date.now();
    try {
      const page = await followChain(url, options, network, startedAt + timeoutMs);
      const elapsedMs = Date.now() - startedAt;
      const slow = elapsedMs >= SLOW_FETCH_LOG_MS;
      log(
        slow ? 'info' : 'debug',
        `fetched ${logUrl(url)}: HTTP ${page.status}, ${page.body.length} bytes in ${elapsedMs} ms` +
          (slow ? ` (slow: over ${SLOW_FETCH_LOG_MS / 1000} s)` : ''),
      );
      return page;
    } catch (error) {
      // Whatever undici or a stream threw on abort, report why we aborted: our deadline (TimeoutError) or the
      // caller's signal (its own reason, e.g. an AbortError DOMException).
      if (signal.aborted) throw signal.reason;
      throw error;
    } finally {
      unlink();
      clearTimeout(timer);
      closeCallNetwork(network);
    }
  };
}

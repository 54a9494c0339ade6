// The connector undici calls to open every socket. It resolves the name itself, checks every address, and
// connects to the checked address, so the address checked is the address connected to: there is no second
// DNS answer between check and connect for a rebinding attacker to change (SPEC "Safety and politeness").
//
// Policy: if ANY address a name resolves to is private, the name is refused, even if others are public. A
// name mixing public and private answers is either misconfigured or an attack (round-robin rebinding), and
// "refuse" is simpler to reason about than "pick the public ones".
// TLS keeps the name: SNI and certificate checks use `servername`, and undici sends the Host header from the URL.
//
// Time: the connector of one call gets that call's signal, which aborts at its deadline (FETCH_TIMEOUT) or on
// cancellation. undici's connector options carry no signal and undici defers a request's abort until its socket
// has connected (its own connect timeout is 10 s), so the connector enforces the deadline itself: a pending
// lookup or connect fails at once with the signal's reason, the half-open socket is destroyed, and no further
// address is tried. dns.lookup cannot be cancelled (getaddrinfo runs on libuv's thread pool), so a stalled
// resolver is abandoned, not stopped.
//
// Proxies (HTTPS_PROXY, HTTP_PROXY): the proxy is trusted (the operator configured it), the target is not.
// We resolve and check the target ourselves and ask the proxy to CONNECT to the checked address ("ip:port"),
// never the name: a proxy resolving the name again could get a different, private answer (rebinding). The name
// stays in SNI and Host. Only when our own resolver fails and the operator has declared the proxy to be the
// egress policy (PROXY_IS_EGRESS_POLICY) do we hand the proxy the name. Plain http:// through a proxy does not
// come here: guarded-fetch.ts sends it as an absolute-form proxy request.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, isIPv6, type Socket } from 'node:net';
import { buildConnector, Client } from 'undici';
import { classifyAddress } from './check-address.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/**
 * Resolves a host name to all its addresses, like dns.lookup(name, { all: true }). Injected in tests. The signal
 * is a courtesy for resolvers that can stop; the caller stops waiting on abort whether or not they do.
 */
export type LookupAddresses = (
  hostname: string,
  options?: { readonly signal?: AbortSignal | undefined },
) => Promise<readonly ResolvedAddress[]>;

export const defaultLookup: LookupAddresses = (hostname) => dnsLookup(hostname, { all: true });

/** Raised when a host's address is private; guarded-fetch.ts turns it into a SecurityError naming the URL. */
export class AddressRefusedError extends Error {
  constructor(
    readonly subject: string,
    readonly reason: string,
    readonly hostPort: string,
  ) {
    super(`${subject} is ${reason}`);
    this.name = 'AddressRefusedError';
  }
}

/**
 * `promise`, or a rejection with the signal's reason as soon as `signal` aborts. A value that arrives after
 * the abort is handed to `discard` (to close the socket or body nobody will read).
 */
export function unlessAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  discard: (late: T) => void = () => {},
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) discard(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Opens one socket with an undici connector, failing at once with the signal's reason when it aborts and
 * destroying the socket still connecting (or handshaking). Never starts after the abort.
 */
export function connectUnlessAborted(
  connect: buildConnector.connector,
  options: buildConnector.Options,
  signal: AbortSignal | undefined,
): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let settled = false;
    // undici's connector returns the socket it is opening (its type says void), so an abort can destroy it.
    const pending = (connect as (...args: Parameters<buildConnector.connector>) => unknown)(
      options,
      (error, socket) => {
        signal?.removeEventListener('abort', onAbort);
        if (settled) return void socket?.destroy();
        settled = true;
        if (error) reject(error);
        else resolve(socket as Socket);
      },
    );
    function onAbort() {
      if (settled) return;
      settled = true;
      (pending as Socket | undefined)?.destroy?.();
      reject(signal!.reason);
    }
    if (!settled) signal?.addEventListener('abort', onAbort, { once: true }); // a connector may call back at once
  });
}

/** A connector that gives up at once when `signal` aborts (for the connection to a proxy). */
export function abortableConnector(
  connect: buildConnector.connector,
  signal: AbortSignal | undefined,
): buildConnector.connector {
  return (options, callback) => {
    connectUnlessAborted(connect, options, signal).then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error, null),
    );
  };
}

/** "host:port" for connector options: undici hands IPv6 hosts over without brackets and '' for a default port. */
function connectorHostPort(options: buildConnector.Options): string {
  const host = isIPv6(options.hostname) ? `[${options.hostname}]` : options.hostname;
  const port = options.port || (options.protocol === 'https:' ? '443' : '80');
  return `${host}:${port}`.toLowerCase();
}

/** "ip:port" or "name:port" as a request target (CONNECT's authority-form, absolute-form's authority). */
export function authority(host: string, port: string): string {
  return `${isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/**
 * The addresses `hostname` may be connected to: an IP literal as is, a name through `lookup`. Throws
 * AddressRefusedError when any of them is private and `hostPort` is not in ALLOW_PRIVATE_HOSTS. A pending
 * lookup is abandoned as soon as `signal` aborts.
 */
export async function resolveCheckedAddresses(
  hostname: string,
  hostPort: string,
  allowPrivateHosts: ReadonlySet<string>,
  lookup: LookupAddresses,
  signal?: AbortSignal,
): Promise<readonly ResolvedAddress[]> {
  const literal = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(literal);
  const addresses =
    family !== 0 ? [{ address: literal, family }] : await unlessAborted(lookup(hostname, { signal }), signal);
  if (addresses.length === 0) throw new Error(`DNS returned no addresses for ${hostname}`);
  if (allowPrivateHosts.has(hostPort)) return addresses;
  for (const { address } of addresses) {
    const reason = classifyAddress(address);
    if (reason) {
      const subject = family !== 0 ? address : `${hostname} (resolves to ${address})`;
      throw new AddressRefusedError(subject, reason, hostPort);
    }
  }
  return addresses;
}

export interface ProxyTargetOptions {
  readonly allowPrivateHosts: ReadonlySet<string>;
  readonly lookup: LookupAddresses;
  /** PROXY_IS_EGRESS_POLICY: when our resolver fails, the proxy may resolve the name itself. */
  readonly proxyIsEgressPolicy: boolean;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The hosts to ask a proxy for, in order: the checked addresses of `hostname`, or — only when our resolver
 * failed and the proxy is declared the egress policy — the name itself. A private answer is always refused.
 */
export async function proxyTargets(
  hostname: string,
  hostPort: string,
  options: ProxyTargetOptions,
): Promise<readonly string[]> {
  const { allowPrivateHosts, lookup, signal } = options;
  try {
    const addresses = await resolveCheckedAddresses(hostname, hostPort, allowPrivateHosts, lookup, signal);
    return addresses.map(({ address }) => address);
  } catch (error) {
    if (error instanceof AddressRefusedError || signal?.aborted || !options.proxyIsEgressPolicy) throw error;
    return [hostname];
  }
}

/** Proxy-Authorization from the proxy URL's user:password, as undici's ProxyAgent sends it. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** Asks `proxy` to CONNECT to `target` ("ip:port"; RFC 9110 §9.3.6) and returns the tunnel's socket. */
async function openTunnel(proxy: URL, target: string, signal: AbortSignal | undefined): Promise<Socket> {
  // The proxy is trusted: it is reached with a plain connector, not the guarded one (it often lives on loopback).
  const client = new Client(proxy.origin, { connect: abortableConnector(buildConnector({}), signal) });
  try {
    const request = client.connect({
      path: target,
      headers: { host: target, ...proxyAuthorization(proxy) },
      signal: signal ?? null,
    });
    const { socket, statusCode } = await unlessAborted(request, signal, (late) => late.socket.destroy());
    if (statusCode !== 200) {
      socket.destroy();
      throw new Error(`the proxy ${proxy.host} answered HTTP ${statusCode} to CONNECT ${target}`);
    }
    return socket as Socket;
  } finally {
    // The tunnel's socket has left the client (an upgrade detaches it); this only ends a CONNECT still pending.
    client.destroy().catch(() => {});
  }
}

export interface GuardedConnectorOptions {
  readonly allowPrivateHosts: ReadonlySet<string>;
  readonly lookup?: LookupAddresses | undefined;
  /** Opens the socket to an already-checked IP address; undici's own connector unless a test injects one. */
  readonly connect?: buildConnector.connector | undefined;
  /** Aborts at the call's deadline or on cancellation (see the top of this file). */
  readonly signal?: AbortSignal | undefined;
  /** The proxy URL for a target origin, or undefined to connect directly (proxy-for.ts). */
  readonly proxyFor?: ((origin: URL) => string | undefined) | undefined;
  /** PROXY_IS_EGRESS_POLICY (see the top of this file). */
  readonly proxyIsEgressPolicy?: boolean | undefined;
}

export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const lookup = options.lookup ?? defaultLookup;
  const connect = options.connect ?? buildConnector({});
  const { signal, allowPrivateHosts } = options;

  async function open(connectOptions: buildConnector.Options): Promise<Socket> {
    const { hostname } = connectOptions;
    const hostPort = connectorHostPort(connectOptions);
    const port = connectOptions.port || (connectOptions.protocol === 'https:' ? '443' : '80');
    const servername = connectOptions.servername || (isIP(hostname) === 0 ? hostname : undefined);
    const proxy = options.proxyFor?.(new URL(`${connectOptions.protocol}//${hostPort}`));
    const hosts = proxy
      ? await proxyTargets(hostname, hostPort, {
          allowPrivateHosts,
          lookup,
          signal,
          proxyIsEgressPolicy: options.proxyIsEgressPolicy ?? false,
        })
      : (await resolveCheckedAddresses(hostname, hostPort, allowPrivateHosts, lookup, signal)).map((a) => a.address);
    // Try the checked addresses in DNS order until one accepts, while the deadline lasts; report the last failure.
    let lastError: unknown = new Error(`No address to connect to for ${hostname}`);
    for (const host of hosts) {
      if (signal?.aborted) throw signal.reason;
      try {
        const target = { ...connectOptions, hostname: host, servername };
        if (!proxy) return await connectUnlessAborted(connect, target, signal);
        const tunnel = await openTunnel(new URL(proxy), authority(host, port), signal);
        if (connectOptions.protocol !== 'https:') return tunnel;
        return await connectUnlessAborted(connect, { ...target, httpSocket: tunnel }, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        lastError = error;
      }
    }
    throw lastError;
  }

  return (connectOptions, callback) => {
    open(connectOptions).then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error, null),
    );
  };
}

// What may be fetched, judged from the URL alone, before any connection: the scheme, and the host when it is
// an IP literal or a localhost name. Names that need DNS are judged at connect time by guarded-connect.ts,
// against the address actually connected to. guarded-fetch.ts calls checkUrl again on every redirect hop.
import { isIP } from 'node:net';
import { InvalidArgumentError, SecurityError } from '../errors.js';
import { classifyAddress } from './check-address.js';

export interface CheckedUrl {
  readonly url: URL;
  /** Lower-case "host:port" with the scheme's default port filled in, as ALLOW_PRIVATE_HOSTS spells it. */
  readonly hostPort: string;
  /** The exact host:port is listed in ALLOW_PRIVATE_HOSTS, so a private address is allowed for it. */
  readonly isAllowedPrivate: boolean;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** "host:port" of a URL; IPv6 hosts keep their brackets ("[::1]:8080"), as WHATWG URL's hostname does. */
export function hostPortOf(url: URL): string {
  return `${url.hostname}:${url.port || DEFAULT_PORTS[url.protocol] || ''}`.toLowerCase();
}

/**
 * The SecurityError for a refused address, worded so an agent (or its operator) knows what to do. `redirectedFrom`:
 * the hop that redirected there — said, since the agent asked for that URL, not this one, and a page redirecting to
 * a private address is how a site would reach into the network behind us: allowing it is not the first advice.
 */
export function privateAddressError(
  url: string,
  subject: string,
  reason: string,
  hostPort: string,
  redirectedFrom?: string,
): SecurityError {
  const refused = `${subject} is ${reason}. Only public internet addresses can be fetched.`;
  return new SecurityError(
    'PRIVATE_ADDRESS',
    url,
    redirectedFrom === undefined
      ? `Refusing to fetch ${url}: ${refused} If this host is meant to be reachable (e.g. a local test server), ` +
          `add '${hostPort}' to ALLOW_PRIVATE_HOSTS.`
      : `Refusing to follow the redirect from ${redirectedFrom} to ${url}: ${refused} A public page that redirects ` +
          `to a private address is refused whatever it says; only if both are your own servers, add '${hostPort}' ` +
          'to ALLOW_PRIVATE_HOSTS.',
  );
}

/**
 * Parses `input` with the WHATWG URL parser and refuses what must never be fetched. URL parsing normalises
 * legacy IPv4 spellings (2130706433, 0x7f.1, 0177.0.0.1, 127.1) and IPv6 forms ([::ffff:127.0.0.1]) to
 * canonical literals first, so every spelling of an address meets the same check. `redirectedFrom`: the hop whose
 * Location this is (guarded-fetch.ts), named in a refusal.
 */
export function checkUrl(
  input: string | URL,
  allowPrivateHosts: ReadonlySet<string>,
  redirectedFrom?: string,
): CheckedUrl {
  let url: URL;
  try {
    url = new URL(input);
  } catch (error) {
    throw new InvalidArgumentError('url', `Invalid URL '${String(input)}': ${(error as Error).message}.`);
  }
  const href = url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SecurityError(
      'UNSUPPORTED_PROTOCOL',
      href,
      `Refusing to fetch ${href}: only http: and https: URLs can be fetched, not ${url.protocol}`,
    );
  }
  const hostPort = hostPortOf(url);
  const isAllowedPrivate = allowPrivateHosts.has(hostPort);
  if (!isAllowedPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const reason = classifyAddress(host);
      if (reason) throw privateAddressError(href, host, reason, hostPort, redirectedFrom);
    } else if (/(^|\.)localhost\.?$/.test(host)) {
      // RFC 6761 §6.3: localhost names resolve to loopback; refuse without asking DNS.
      throw privateAddressError(href, host, 'a loopback name (RFC 6761)', hostPort, redirectedFrom);
    }
  }
  return { url, hostPort, isAllowedPrivate };
}

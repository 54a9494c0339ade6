// The connector undici calls to open every socket. It resolves the name itself, checks every address, and
// connects to the checked address, so the address checked is the address connected to: there is no second
// DNS answer between check and connect for a rebinding attacker to change (SPEC "Safety and politeness").
//
// Policy: if ANY address a name resolves to is private, the name is refused, even if others are public. A
// name mixing public and private answers is either misconfigured or an attack (round-robin rebinding), and
// "refuse" is simpler to reason about than "pick the public ones".
// TLS keeps the name: SNI and certificate checks use `servername`, and undici sends the Host header from the URL.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, isIPv6 } from 'node:net';
import { buildConnector } from 'undici';
import { classifyAddress } from './check-address.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to all its addresses, like dns.lookup(name, { all: true }). Injected in tests. */
export type LookupAddresses = (hostname: string) => Promise<readonly ResolvedAddress[]>;

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

/** "host:port" for connector options: undici hands IPv6 hosts over without brackets and '' for a default port. */
function connectorHostPort(options: buildConnector.Options): string {
  const host = isIPv6(options.hostname) ? `[${options.hostname}]` : options.hostname;
  const port = options.port || (options.protocol === 'https:' ? '443' : '80');
  return `${host}:${port}`.toLowerCase();
}

/**
 * The addresses `hostname` may be connected to: an IP literal as is, a name through `lookup`. Throws
 * AddressRefusedError when any of them is private and `hostPort` is not in ALLOW_PRIVATE_HOSTS.
 */
export async function resolveCheckedAddresses(
  hostname: string,
  hostPort: string,
  allowPrivateHosts: ReadonlySet<string>,
  lookup: LookupAddresses,
): Promise<readonly ResolvedAddress[]> {
  const literal = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(literal);
  const addresses = family !== 0 ? [{ address: literal, family }] : await lookup(hostname);
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

export interface GuardedConnectorOptions {
  readonly allowPrivateHosts: ReadonlySet<string>;
  readonly lookup?: LookupAddresses;
  /** Opens the socket to an already-checked IP address; undici's own connector unless a test injects one. */
  readonly connect?: buildConnector.connector;
}

export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const lookup = options.lookup ?? defaultLookup;
  const connect = options.connect ?? buildConnector({});
  return (connectOptions, callback) => {
    const { hostname } = connectOptions;
    const hostPort = connectorHostPort(connectOptions);
    const isName = isIP(hostname) === 0;
    resolveCheckedAddresses(hostname, hostPort, options.allowPrivateHosts, lookup).then(
      (addresses) => {
        // Try the checked addresses in DNS order until one accepts; report the last failure.
        const attempt = (index: number, lastError?: Error) => {
          const next = addresses[index];
          if (!next) return callback(lastError ?? new Error(`No address to connect to for ${hostname}`), null);
          connect(
            {
              ...connectOptions,
              hostname: next.address,
              servername: connectOptions.servername || (isName ? hostname : undefined),
            },
            (...result) => {
              if (result[0] === null) return callback(...result);
              attempt(index + 1, result[0]);
            },
          );
        };
        attempt(0);
      },
      (error: Error) => callback(error, null),
    );
  };
}

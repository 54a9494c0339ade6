// What an HTTP proxy reads from the browser's requests: the target of CONNECT (RFC 9110 §9.3.6, authority-form) or
// of an absolute-form request (RFC 9112 §3.2.2), the Basic credentials in Proxy-Authorization (RFC 9110 §11.7.1),
// and which headers travel on (not the hop-by-hop ones, RFC 9110 §7.6.1). Pure: egress-proxy.ts does the I/O.
import { timingSafeEqual } from 'node:crypto';

// Hop-by-hop headers (RFC 9110 §7.6.1) and our own credentials never travel upstream.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** A target as the browser named it, normalised the way the fetcher sees URLs (WHATWG URL host parsing). */
export interface Target {
  readonly hostname: string; // as URL.hostname gives it: IPv6 in brackets, numeric IPv4 forms canonical
  readonly port: string;
  readonly hostPort: string;
}

/** Parses CONNECT's authority-form "host:port"; undefined when it is not one. */
export function parseAuthority(authority: string): Target | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/?#@\s]+):(\d{1,5})$/.exec(authority);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535) return undefined;
  try {
    const hostname = new URL(`http://${match[1]}`).hostname;
    return { hostname, port: String(Number(match[2])), hostPort: `${hostname}:${Number(match[2])}` };
  } catch {
    return undefined; // not a host the URL parser accepts
  }
}

export function targetOfUrl(url: URL): Target {
  const port = url.port || '80';
  return { hostname: url.hostname, port, hostPort: `${url.hostname}:${port}` };
}

export function credentialsOf(header: string | undefined): { username: string; password: string } | undefined {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Compares a password in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The URL of an absolute-form request, when it is http: or ws:; undefined otherwise. */
export function absoluteUrl(raw: string | undefined): URL | undefined {
  try {
    const url = new URL(raw ?? '');
    return url.protocol === 'http:' || url.protocol === 'ws:' ? url : undefined;
  } catch {
    return undefined; // origin-form: someone talking to the proxy as if it were a web server
  }
}

/** Raw header pairs without hop-by-hop ones (and those the Connection header names), plus `extra`. */
export function endToEndHeaders(raw: readonly string[], extra: readonly string[] = []): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') {
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return [...out, ...extra];
}

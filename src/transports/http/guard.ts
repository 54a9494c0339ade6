// The request guard of the HTTP front doors: who may talk to this server, and how much they may send.
//   Host and Origin allow-lists (DNS rebinding), CORS headers and the preflight for listed origins, the bearer
//   token (WEB_READER_TOKEN), and the body-size limit (WEB_READER_MAX_BODY_SIZE, 413).
// Apart from routing so that the security rules are read and reviewed in one place. /healthz is the one route the
// server answers without asking the guard.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { Config } from '../../config.js';
import { quoteInput } from '../../quote.js';
import { HttpError } from './http-error.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The hostname of a Host header value, without port or IPv6 brackets, lower-case. */
function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']'));
  return value.replace(/:\d*$/, '');
}

/**
 * Host names this server answers to. DNS rebinding (MCP spec, Transports, "Security Warning") makes a browser
 * send a page's own name, e.g. `Host: evil.example:3000`, to our address; refusing names we do not own stops it.
 * Loopback names always; the bind address; every interface address when bound to a wildcard; the allow-list.
 */
function allowedHostnames(config: Config): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  const bind = config.httpHost.replace(/^\[|\]$/g, '').toLowerCase();
  if (isWildcardHost(config.httpHost)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address.toLowerCase());
    }
  } else {
    names.add(bind);
  }
  for (const host of config.httpAllowedHosts) names.add(hostnameOf(host));
  return names;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time comparison of the bearer token (hashing first makes the lengths equal). */
function hasToken(req: IncomingMessage, expected: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return match !== null && timingSafeEqual(sha256(match[1]!.trim()), expected);
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}

/** The body, at most `maxBytes`; a declared or streamed size above it is a 413. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      reject(new HttpError(413, `The request body is larger than ${maxBytes} bytes (WEB_READER_MAX_BODY_SIZE).`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        reject(new HttpError(413, `The request body is larger than ${maxBytes} bytes (WEB_READER_MAX_BODY_SIZE).`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Checks a request, in this order: Host, Origin (403), then sets the CORS headers and answers a preflight, then
 * the bearer token (401). Throws HttpError on a refusal; returns true when it answered the request itself (the
 * preflight), false when the request may go on to its route.
 */
export function createRequestGuard(config: Config): (req: IncomingMessage, res: ServerResponse) => boolean {
  const hostnames = allowedHostnames(config);
  const anyHost = config.httpAllowedHosts.includes('*');
  const explicitOrigins = new Set(config.httpAllowedOrigins.filter((o) => o !== '*').map(normalizeOrigin));
  const anyOrigin = config.httpAllowedOrigins.includes('*');
  const token = config.httpToken ? sha256(config.httpToken) : undefined;

  /** Same-origin (the Origin's host:port is the Host we were asked as), or listed. Absent: not a browser. */
  function isAllowedOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || anyOrigin) return true;
    if (explicitOrigins.has(normalizeOrigin(origin))) return true;
    try {
      return new URL(origin).host === (req.headers.host ?? '').toLowerCase();
    } catch {
      return false; // "null" (sandboxed pages, file:) and garbage are never allowed implicitly
    }
  }

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (origin === undefined || !(anyOrigin || explicitOrigins.has(normalizeOrigin(origin)))) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
      vary: 'Origin',
    };
  }

  return function guardRequest(req: IncomingMessage, res: ServerResponse): boolean {
    // DNS-rebinding protection first: a refused Host or Origin learns nothing else, not even whether a token is needed.
    if (!anyHost && !hostnames.has(hostnameOf(req.headers.host ?? ''))) {
      const host = quoteInput(req.headers.host ?? '');
      throw new HttpError(403, `Host '${host}' is not allowed. Add it to WEB_READER_ALLOWED_HOSTS.`);
    }
    if (!isAllowedOrigin(req)) {
      const origin = quoteInput(req.headers.origin ?? '');
      throw new HttpError(403, `Origin '${origin}' is not allowed. Add it to WEB_READER_ALLOWED_ORIGINS.`);
    }
    for (const [name, value] of Object.entries(corsHeaders(req))) res.setHeader(name, value);
    if (req.method === 'OPTIONS') {
      // CORS preflight carries no credentials (Fetch standard, CORS-preflight request), so it precedes the token.
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers':
          'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
        'access-control-max-age': '600',
      });
      res.end();
      return true;
    }
    if (token && !hasToken(req, token)) {
      res.setHeader('www-authenticate', 'Bearer realm="web-reader"');
      throw new HttpError(401, 'Missing or wrong bearer token: send Authorization: Bearer <WEB_READER_TOKEN>.');
    }
    return false;
  };
}

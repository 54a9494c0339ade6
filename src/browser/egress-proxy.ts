// The browser's only way out. Chromium is launched with this proxy as its proxy for everything (launch-browser.ts),
// and the proxy dials only addresses the fetcher's connect-time check allows: it resolves the name itself, checks
// every address (resolveCheckedAddresses, ALLOW_PRIVATE_HOSTS exact "host:port" included) and connects to the
// checked address, so there is no second DNS answer between check and connect (the rule of guarded-connect.ts).
//
// Why a proxy and not request interception: interception (CDP Fetch, page.route) does not see service-worker
// fetches, WebSockets, EventSource reconnects or the connections Chromium opens by itself, and it judges a URL's
// host name, not the address connected to. The proxy sees every TCP connection the network service opens.
//
// It speaks the two forms an HTTP proxy receives (RFC 9110 §9.3.6 CONNECT for https and wss tunnels, RFC 9112 §3.2.2
// absolute-form for plain http, upgrades included). Every request must carry Proxy-Authorization with the
// credentials of an open session (one per render, given to the browser context): without them this would be an
// open relay on loopback for every local process. The session also counts the bytes its render downloads and owns
// its sockets, which are all destroyed when the render ends or passes its byte cap.
//
// Not handled: an upstream proxy (HTTPS_PROXY / HTTP_PROXY). The browser connects directly; chaining is left out.
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { SecurityError } from '../errors.js';
import {
  AddressRefusedError,
  checkUrl,
  classifyAddress,
  defaultLookup,
  resolveCheckedAddresses,
  type LookupAddresses,
} from '../fetch/index.js';
import { captureLog, type Logger } from '../log.js';
import {
  absoluteUrl,
  credentialsOf,
  endToEndHeaders,
  parseAuthority,
  sameSecret,
  targetOfUrl,
  type Target,
} from './proxy-protocol.js';

/** Sockets with no traffic for this long are closed (a render's own deadline is shorter in practice). */
export const DEFAULT_PROXY_IDLE_MS = 30_000;

/** The most distinct refused targets a session keeps by name (it counts them all). */
const REFUSED_NAMES_KEPT = 20;

export interface EgressSession {
  /** Credentials for the browser context's proxy settings. */
  readonly username: string;
  readonly password: string;
  /** The byte cap this session was opened with. */
  readonly maxBytes: number;
  /** Bytes received from the network for this session (bodies of plain requests, all bytes of tunnels). */
  readonly downloadedBytes: number;
  /** Connections refused by the address check; `refusedTargets` keeps the first few distinct "host:port (reason)". */
  readonly refusedCount: number;
  readonly refusedTargets: readonly string[];
  /** True once the session passed its byte cap: its sockets were destroyed and it accepts no more requests. */
  readonly overLimit: boolean;
  /** Ends the session: its credentials stop working and every socket it opened is destroyed. */
  close(): void;
}

export interface EgressProxy {
  /** "http://127.0.0.1:PORT", for --proxy-server. */
  readonly url: string;
  /** One render's credentials, byte cap and sockets. */
  openSession(options: { readonly maxBytes: number }): EgressSession;
  /** Stops listening and destroys every socket. */
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  readonly allowPrivateHosts: ReadonlySet<string>;
  readonly lookup?: LookupAddresses | undefined;
  readonly idleMs?: number | undefined;
}

interface Session extends EgressSession {
  downloadedBytes: number;
  refusedCount: number;
  refusedTargets: string[];
  overLimit: boolean;
  closed: boolean;
  readonly sockets: Set<Duplex>;
  readonly abort: AbortController;
  /**
   * The log of the call whose render this session serves. The proxy's socket handlers run in the context the
   * proxy started in (none: browser-renderer.ts starts it outside any call), so a line about this render's
   * connections goes to this render's client only through this (src/log.ts).
   */
  readonly log: Logger;
}

/** A value for a log line: bounded, since it comes from a page. */
function short(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Opens a TCP connection to the first checked address that accepts, giving up when `signal` aborts. */
function dial(addresses: readonly string[], port: number, signal: AbortSignal): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    let index = 0;
    let lastError: unknown = new Error('no address to connect to');
    const next = () => {
      if (signal.aborted) return reject(signal.reason);
      const address = addresses[index++];
      if (address === undefined) return reject(lastError);
      const socket = netConnect({ host: address, port });
      const onAbort = () => socket.destroy(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => {
        signal.removeEventListener('abort', onAbort);
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        lastError = error;
        next();
      });
    };
    next();
  });
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const lookup = options.lookup ?? defaultLookup;
  const idleMs = options.idleMs ?? DEFAULT_PROXY_IDLE_MS;
  const sessions = new Map<string, Session>();
  const allSockets = new Set<Duplex>();
  let nextId = 1;

  /** Closes `socket` when idle and destroys it with the proxy; with a session, also when that session ends. */
  function track(session: Session | undefined, socket: Duplex) {
    if (!allSockets.has(socket)) {
      allSockets.add(socket);
      socket.once('close', () => {
        allSockets.delete(socket);
        for (const open of sessions.values()) open.sockets.delete(socket);
      });
      socket.on('error', () => {}); // a peer's reset is routine; 'close' follows and cleans up
      if ('setTimeout' in socket) (socket as Socket).setTimeout(idleMs, () => socket.destroy());
    }
    if (session?.closed) socket.destroy();
    else session?.sockets.add(socket);
  }

  function authenticate(req: IncomingMessage): Session | undefined {
    const credentials = credentialsOf(req.headers['proxy-authorization']);
    const session = credentials && sessions.get(credentials.username);
    if (!session || session.closed || !sameSecret(session.password, credentials.password)) return undefined;
    return session;
  }

  function countDownload(session: Session, from: Duplex) {
    from.on('data', (chunk: Buffer) => {
      session.downloadedBytes += chunk.length;
      if (session.downloadedBytes > session.maxBytes && !session.overLimit) {
        session.overLimit = true;
        session.log(
          'info',
          `browser render passed its ${session.maxBytes}-byte download cap; its connections were closed`,
        );
        endSession(session);
      }
    });
  }

  function endSession(session: Session) {
    session.closed = true;
    session.abort.abort(new Error('the render ended'));
    sessions.delete(session.username);
    for (const socket of session.sockets) socket.destroy();
    session.sockets.clear();
  }

  /** Checks and dials `target`; undefined (after answering through `refuse`) when refused or unreachable. */
  async function open(
    session: Session,
    target: Target,
    refuse: (status: 403 | 502, text: string) => void,
  ): Promise<Socket | undefined> {
    try {
      // The fetcher's two checks in its order: the URL alone (IP literals, localhost names), then every address.
      checkUrl(`http://${target.hostPort}/`, options.allowPrivateHosts);
      const addresses = await resolveCheckedAddresses(
        target.hostname,
        target.hostPort,
        options.allowPrivateHosts,
        lookup,
        session.abort.signal,
      );
      const socket = await dial(
        addresses.map((a) => a.address),
        Number(target.port),
        session.abort.signal,
      );
      if (session.closed) {
        socket.destroy();
        return undefined;
      }
      track(session, socket);
      countDownload(session, socket);
      return socket;
    } catch (error) {
      if (error instanceof AddressRefusedError || error instanceof SecurityError) {
        session.refusedCount++;
        const reason =
          error instanceof AddressRefusedError
            ? error.reason
            : isIP(target.hostname.replace(/^\[|\]$/g, '')) !== 0
              ? classifyAddress(target.hostname)!
              : 'a loopback name (RFC 6761)'; // checkUrl refuses only IP literals and localhost names
        const entry = short(`${target.hostPort} (${reason})`);
        if (session.refusedTargets.length < REFUSED_NAMES_KEPT && !session.refusedTargets.includes(entry)) {
          session.refusedTargets.push(entry);
        }
        session.log('debug', `browser request refused: ${entry}`);
        refuse(403, `web-reader refused to connect to ${short(target.hostPort)}: ${error.message}`);
      } else {
        refuse(502, `web-reader could not connect to ${short(target.hostPort)}`);
      }
      return undefined;
    }
  }

  const server = createServer();
  server.on('connection', (socket: Socket) => track(undefined, socket));

  // RFC 9110 §9.3.6: https and wss go through a tunnel to host:port.
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const answer = (status: number, text: string, extra = '') => {
      client.end(`HTTP/1.1 ${status} ${text}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const session = authenticate(req);
    if (!session)
      return answer(407, 'Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="web-reader"\r\n');
    track(session, client);
    const target = parseAuthority(req.url ?? '');
    if (!target) return answer(400, 'Bad Request');
    void open(session, target, (status) => answer(status, status === 403 ? 'Forbidden' : 'Bad Gateway')).then(
      (upstream) => {
        if (!upstream) return;
        if (client.destroyed) return void upstream.destroy();
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
    );
  });

  // Plain http in absolute-form (RFC 9112 §3.2.2), one new upstream connection per request.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const session = authenticate(req);
    if (!session) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="web-reader"', 'content-length': '0' });
      return void res.end();
    }
    track(session, req.socket);
    const url = absoluteUrl(req.url);
    if (!url) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return void res.end('web-reader: a proxy request needs an absolute http:// URL');
    }
    const refuse = (status: 403 | 502, text: string) => {
      // The header tells the renderer that this answer is ours, not the origin's (a refused main document).
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-web-reader-refused': String(status) });
      res.end(text);
    };
    void open(session, targetOfUrl(url), refuse).then((upstream) => {
      if (!upstream) return;
      const forward = httpRequest(
        {
          createConnection: () => upstream,
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: endToEndHeaders(req.rawHeaders, ['connection', 'close']),
          setHost: false,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        if (!res.headersSent) refuse(502, `web-reader lost the connection to ${short(url.host)}`);
        else res.destroy();
      });
      req.pipe(forward);
    });
  });

  // A WebSocket (or other upgrade) over plain http in absolute-form: the request head is re-sent in origin-form.
  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const session = authenticate(req);
    const answer = (status: number, text: string, extra = '') =>
      client.end(`HTTP/1.1 ${status} ${text}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
    if (!session)
      return answer(407, 'Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="web-reader"\r\n');
    track(session, client);
    const url = absoluteUrl(req.url);
    if (!url) return answer(400, 'Bad Request');
    void open(session, targetOfUrl(url), (status) => answer(status, status === 403 ? 'Forbidden' : 'Bad Gateway')).then(
      (upstream) => {
        if (!upstream) return;
        const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) {
          const name = req.rawHeaders[i]!;
          if (!/^proxy-/i.test(name)) lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
        }
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    openSession({ maxBytes }) {
      const session: Session = {
        username: `render-${nextId++}`,
        password: randomBytes(24).toString('base64url'),
        downloadedBytes: 0,
        refusedCount: 0,
        refusedTargets: [],
        overLimit: false,
        closed: false,
        maxBytes,
        sockets: new Set(),
        abort: new AbortController(),
        log: captureLog(),
        close: () => endSession(session),
      };
      sessions.set(session.username, session);
      return session;
    },
    async close() {
      for (const session of [...sessions.values()]) endSession(session);
      for (const socket of allSockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

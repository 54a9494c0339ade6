// Which protocol era a stdio connection speaks, decided by its first message (MCP 2026-07-28, "Versioning"): a
// message whose `_meta` claims a protocol version (`io.modelcontextprotocol/protocolVersion`) opens the 2026-07-28
// era — `server/discover`, or any request of a client that pinned the revision; anything else (`initialize`) opens
// the 2025 era. One process serves either: the 2025 connection by the SDK v1 server (server.ts), the 2026-07-28 one
// by the v2 line's serveStdio (server-modern.ts), which answers a discover probe and stays on the connection.
//
// The pipe is read once, by one transport; HeldTransport keeps what it reads until the chosen server takes over.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The `_meta` key a 2026-07-28 message names its protocol version under. */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** Whether a message opens the 2026-07-28 era (see above). */
export function claimsModernEra(message: JSONRPCMessage): boolean {
  if (!('method' in message)) return false;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
}

/**
 * A transport over `inner` (started by the caller) that holds every message it reads until a server connects and
 * starts it; `first` resolves with the first message (undefined: the pipe closed before any).
 */
export class HeldTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly first: Promise<JSONRPCMessage | undefined>;
  /** Resolves when the pipe has closed, whoever closed it. */
  readonly closed: Promise<void>;
  private readonly held: JSONRPCMessage[] = [];
  private started = false;

  constructor(private readonly inner: Transport) {
    let resolveFirst!: (message: JSONRPCMessage | undefined) => void;
    this.first = new Promise((resolve) => (resolveFirst = resolve));
    let resolveClosed!: () => void;
    this.closed = new Promise((resolve) => (resolveClosed = resolve));
    inner.onmessage = (message, extra) => {
      resolveFirst(message);
      if (this.started && this.onmessage) this.onmessage(message, extra);
      else this.held.push(message);
    };
    inner.onclose = () => {
      resolveFirst(undefined);
      resolveClosed();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  async start(): Promise<void> {
    this.started = true;
    for (const message of this.held.splice(0)) this.onmessage?.(message);
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

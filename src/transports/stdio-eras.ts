// Which protocol era a stdio connection speaks, decided by its first message (MCP 2026-07-28, "Versioning"): a
// message whose `_meta` claims a protocol version (`io.modelcontextprotocol/protocolVersion`) opens the 2026-07-28
// era — `server/discover`, or any request of a client that pinned the revision; anything else (`initialize`) opens
// the 2025 era. One process serves either: the 2025 connection by the SDK v1 server (server.ts), the 2026-07-28 one
// by the v2 line's serveStdio (server-modern.ts), which answers a discover probe and stays on the connection.
//
// The first line is read here, with no SDK loaded, so that each era loads only its own SDK: the chosen SDK's stdio
// transport then reads a stream that replays that line and goes on with the pipe.
import { PassThrough, type Readable } from 'node:stream';

/** The `_meta` key a 2026-07-28 message names its protocol version under. */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** A first line longer than this is not looked at: the 2025 server gets it (and the SDK's own limit refuses it). */
const MAX_OPENING_BYTES = 10 * 1024 * 1024;

/** Whether a message opens the 2026-07-28 era (see above). */
export function claimsModernEra(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || !('method' in message)) return false;
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
}

export interface Opening {
  /** Whether the first message claims the 2026-07-28 era. */
  readonly modern: boolean;
  /** The pipe from its first byte: what a stdio transport reads. */
  readonly input: Readable;
}

/** Reads `input` up to its first line; undefined if it ends first. */
export function readOpening(input: Readable): Promise<Opening | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const buffered = Buffer.concat(chunks);
      const end = buffered.indexOf(0x0a);
      if (end < 0 && size < MAX_OPENING_BYTES) return;
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      let modern = false;
      try {
        modern = end >= 0 && claimsModernEra(JSON.parse(buffered.subarray(0, end).toString('utf8')));
      } catch {
        // Not JSON: the 2025 server answers it as the SDK does (a parse error).
      }
      const replay = new PassThrough();
      replay.write(buffered);
      input.pipe(replay);
      resolve({ modern, input: replay });
    };
    const onEnd = () => resolve(undefined);
    input.on('data', onData);
    input.on('end', onEnd);
  });
}

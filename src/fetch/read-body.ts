// Reads a response body into memory, undoing Content-Encoding while it streams and counting the DECODED bytes,
// so MAX_RESPONSE_SIZE holds for what we keep (SPEC "Limits"): a 1 MB gzip bomb that expands to 1 GB stops after
// MAX_RESPONSE_SIZE bytes, and zlib never produces more than one 16 KiB chunk beyond it.
//
// Unknown codings (we only ask for gzip, deflate, br) are passed through as received, as browsers do; the
// Content-Encoding header stays on the page so a caller can tell. Truncated compressed bodies are accepted
// (Z_SYNC_FLUSH, as undici's fetch does); corrupt ones are a BAD_RESPONSE. At most MAX_CONTENT_CODINGS codings
// are undone: each one is a zlib stream with its own buffers, so a header listing thousands of them costs
// seconds and hundreds of MB before the first byte is read; curl and undici's fetch stop at 5 as well.
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { FetchError } from '../errors.js';

export interface ReadBodyOptions {
  /** For error messages. */
  readonly url: string;
  /** MAX_RESPONSE_SIZE: the most decoded bytes to keep. */
  readonly maxBytes: number;
  /** The Content-Encoding header, e.g. "gzip" or "gzip, br" (codings listed in the order they were applied). */
  readonly contentEncoding?: string | undefined;
  /** The Content-Length header; with no coding, a body declared too large is refused before reading it. */
  readonly contentLength?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The most stacked codings one body may list (curl's and undici's limit). */
export const MAX_CONTENT_CODINGS = 5;

const ZLIB_LENIENT = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** "deflate" means zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send raw deflate: look at the header. */
function createInflate(): Transform {
  let inner: Transform | undefined;
  let pending = Buffer.alloc(0);
  const start = (head: Buffer) => {
    // A zlib header (RFC 1950 §2.2): compression method 8 and a header checksum divisible by 31.
    const isZlib = head.length >= 2 && (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0;
    inner = isZlib ? zlib.createInflate(ZLIB_LENIENT) : zlib.createInflateRaw(ZLIB_LENIENT);
    inner.on('data', (chunk: Buffer) => outer.push(chunk));
    inner.on('error', (error) => outer.destroy(error));
    return inner;
  };
  const outer = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let target = inner;
      if (!target) {
        pending = Buffer.concat([pending, chunk]);
        if (pending.length < 2) return callback();
        target = start(pending);
        chunk = pending;
      }
      if (target.write(chunk)) callback();
      else target.once('drain', () => callback());
    },
    flush(callback) {
      // A body shorter than the two header bytes: decode what there is (and let zlib judge it).
      if (!inner && pending.length > 0) start(pending).write(pending);
      if (!inner) return callback();
      inner.once('end', () => callback());
      inner.end();
    },
    destroy(error, callback) {
      inner?.destroy();
      callback(error);
    },
  });
  return outer;
}

function createDecoder(coding: string): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(ZLIB_LENIENT);
    case 'deflate':
      return createInflate();
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

/** Decoders in the order to apply them: the last coding applied is undone first (RFC 9110 §8.4). */
function decodersFor(url: string, contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  if (codings.length > MAX_CONTENT_CODINGS) {
    throw new FetchError(
      'BAD_RESPONSE',
      url,
      `Refusing to decode the body of ${url}: its Content-Encoding lists ${codings.length} codings, ` +
        `more than the limit of ${MAX_CONTENT_CODINGS}. The server is misconfigured or hostile.`,
    );
  }
  const decoders = codings.map(createDecoder);
  if (decoders.some((decoder) => decoder === undefined)) {
    decoders.forEach((decoder) => decoder?.destroy());
    return [];
  }
  return decoders as Transform[];
}

/** What RESPONSE_TOO_LARGE advises: for a page the agent asked for, and for a file the engine read for it. */
export const TOO_LARGE_ADVICE = {
  page: 'Fetch a more specific URL or raise MAX_RESPONSE_SIZE.',
  sitemap: 'Its URLs are not listed; raise MAX_RESPONSE_SIZE to read it.',
} as const;

/** RESPONSE_TOO_LARGE naming the URL and MAX_RESPONSE_SIZE (a gzipped sitemap unpacked past it too). */
export function tooLarge(url: string, maxBytes: number, detail: string): FetchError {
  return new FetchError(
    'RESPONSE_TOO_LARGE',
    url,
    `Response from ${url} exceeds MAX_RESPONSE_SIZE (${maxBytes} bytes)${detail}. ${TOO_LARGE_ADVICE.page}`,
  );
}

/**
 * `error` with the advice for a file the engine read for the agent (a sitemap) when it is RESPONSE_TOO_LARGE: the
 * fetch that met the limit does not know what the file is for; its reader does. Any other error as it is.
 */
export function tooLargeFile(error: unknown, advice: string): unknown {
  if (!(error instanceof FetchError) || error.code !== 'RESPONSE_TOO_LARGE') return error;
  return new FetchError(error.code, error.url, error.message.replace(TOO_LARGE_ADVICE.page, advice));
}

/** Reads `source` to the end, decoded; destroys it (and so the socket) as soon as the limit is passed. */
export async function readBody(source: Readable, options: ReadBodyOptions): Promise<Uint8Array> {
  const { url, maxBytes, signal } = options;
  let decoders: Transform[];
  try {
    decoders = decodersFor(url, options.contentEncoding);
  } catch (error) {
    source.on('error', () => {}).destroy(); // undici's body reports its own destruction as an error
    throw error;
  }
  const declared = Number(options.contentLength);
  if (decoders.length === 0 && Number.isFinite(declared) && declared > maxBytes) {
    source.on('error', () => {}).destroy();
    throw tooLarge(url, maxBytes, `: Content-Length is ${declared} bytes`);
  }

  const chunks: Buffer[] = [];
  let total = 0;
  let limitError: FetchError | undefined;
  let decodeError: Error | undefined;
  for (const decoder of decoders) decoder.once('error', (error) => (decodeError ??= error));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      if (total > maxBytes) {
        limitError = tooLarge(url, maxBytes, decoders.length > 0 ? ' after decompression' : '');
        return callback(limitError);
      }
      chunks.push(chunk);
      callback();
    },
  });

  try {
    await pipeline([source, ...decoders, sink], { signal });
  } catch (error) {
    if (limitError) throw limitError;
    if (signal?.aborted) throw error;
    if (decodeError) {
      throw new FetchError(
        'BAD_RESPONSE',
        url,
        `Could not decode the ${options.contentEncoding} body of ${url}: '${decodeError.message}'.`,
        { cause: decodeError },
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new FetchError('BAD_RESPONSE', url, `The connection broke while reading ${url}: '${message}'.`, {
      cause: error,
    });
  }
  return Buffer.concat(chunks, total);
}

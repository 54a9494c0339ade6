// The images the HTTP server serves (screenshots, issue 28 item 1): kept in this process's memory for
// IMAGE_TTL_MS, at most IMAGE_STORE_MAX_BYTES in all (the oldest go first), under an unguessable name, and served at
// GET /screenshots/<name> behind the same request guard as every route (Host, Origin, WEB_READER_TOKEN).
//
// Not shared between replicas, on purpose: an image is megabytes, asked for once and soon, and a link taken from
// one replica's answer is served by that replica. Behind a balancer without affinity the link may land on another
// replica and be 404; the image itself is in the answer (MCP image content) either way (docs/scale-out.md).
import { randomUUID } from 'node:crypto';
import type { ImageKeeper } from '../../tools/types.js';

export const IMAGE_TTL_MS = 10 * 60_000;
export const IMAGE_STORE_MAX_BYTES = 64 * 1024 * 1024;
/** The route's prefix: GET /screenshots/<uuid>.png or .jpg. */
export const IMAGE_ROUTE = '/screenshots/';
const NAME = /^[0-9a-f-]{36}\.(png|jpg)$/;

interface Kept {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  readonly expiresAt: number;
}

export interface ImageStore extends ImageKeeper {
  /** The image kept under `name` (its uuid and extension), while it has not expired. */
  get(name: string): { readonly bytes: Uint8Array; readonly mimeType: string } | undefined;
}

/** `baseUrl` is read when an image is kept: the server's own URL, known once it listens. */
export function createImageStore(
  baseUrl: () => string,
  { ttlMs = IMAGE_TTL_MS, maxBytes = IMAGE_STORE_MAX_BYTES, now = Date.now } = {},
): ImageStore {
  const kept = new Map<string, Kept>(); // insertion order is age order
  let total = 0;

  function drop(name: string) {
    const image = kept.get(name);
    if (!image) return;
    total -= image.bytes.byteLength;
    kept.delete(name);
  }

  function sweep(room: number) {
    for (const [name, image] of kept) {
      if (image.expiresAt > now() && total + room <= maxBytes) break;
      drop(name);
    }
  }

  return {
    keptMinutes: Math.round(ttlMs / 60_000),
    keep(image) {
      if (image.bytes.byteLength > maxBytes) return undefined;
      sweep(image.bytes.byteLength);
      const name = `${randomUUID()}.${image.mimeType === 'image/png' ? 'png' : 'jpg'}`;
      kept.set(name, { ...image, expiresAt: now() + ttlMs });
      total += image.bytes.byteLength;
      return `${baseUrl()}${IMAGE_ROUTE}${name}`;
    },
    get(name) {
      if (!NAME.test(name)) return undefined;
      sweep(0);
      return kept.get(name);
    },
  };
}

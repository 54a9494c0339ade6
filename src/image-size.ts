// An image's width and height from its header, before anything decodes it (OCR's pixel cap, a screenshot's size): a PNG of 100 000 × 100 000 white pixels
// is a few hundred KB on the wire and 10 GB once decoded (a decompression bomb), so OCR refuses it by its header.
// Formats: PNG (IHDR, ISO 15948 §11.2.2), JPEG (SOFn, ITU T.81 §B.2.2), GIF (logical screen, GIF89a §18), WebP
// (VP8, VP8L, VP8X; RFC 9649 §2.5-2.7), TIFF (IFD tags 256/257, TIFF 6.0 §8), PNM (Netpbm's P1-P6 headers).
// Not handled: a TIFF's or GIF's later frames (tesseract reads only the first page of a GIF; a multi-page TIFF's
// pages are each capped by the first one's size, which is a known gap), JPEG 2000.

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u32le = (b: Uint8Array, at: number) =>
  ((b[at + 3]! << 24) >>> 0) + (b[at + 2]! << 16) + (b[at + 1]! << 8) + b[at]!;
const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));

/** The size the header announces, or undefined when the header cannot be read (the image is then not OCR'd). */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24) return undefined;
  if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  if (ascii(bytes, 0, 4) === 'GIF8') return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpSize(bytes);
  if (ascii(bytes, 0, 4) === 'II*\0' || ascii(bytes, 0, 4) === 'MM\0*') return tiffSize(bytes);
  if (/^P[1-6]$/.test(ascii(bytes, 0, 2))) return pnmSize(bytes);
  return undefined;
}

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // SOF0-SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    }
    at += 2 + u16be(bytes, at + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8X') {
    const width = 1 + (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16));
    const height = 1 + (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16));
    return { width, height };
  }
  if (chunk === 'VP8L') {
    const bits = u32le(bytes, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  return undefined;
}

function tiffSize(bytes: Uint8Array): ImageSize | undefined {
  const little = bytes[0] === 0x49;
  const u16 = little ? u16le : u16be;
  const u32 = little ? u32le : u32be;
  const ifd = u32(bytes, 4);
  if (ifd + 2 > bytes.length) return undefined;
  const count = u16(bytes, ifd);
  let width: number | undefined;
  let height: number | undefined;
  for (let entry = 0; entry < count; entry++) {
    const at = ifd + 2 + entry * 12;
    if (at + 12 > bytes.length) break;
    const tag = u16(bytes, at);
    const type = u16(bytes, at + 2);
    const value = type === 3 ? u16(bytes, at + 8) : u32(bytes, at + 8); // SHORT or LONG
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return width !== undefined && height !== undefined ? { width, height } : undefined;
}

function pnmSize(bytes: Uint8Array): ImageSize | undefined {
  const head = ascii(bytes, 0, Math.min(bytes.length, 512)).replace(/#[^\n]*\n/g, ' ');
  const match = /^P[1-6]\s+(\d+)\s+(\d+)/.exec(head);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

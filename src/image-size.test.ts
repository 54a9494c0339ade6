import { describe, expect, it } from 'vitest';
import { jpegSize } from '../test/fixtures/ocr/make-image-pdf.mjs';
import { fixture } from '../test/fixtures/ocr/ocr-set.mjs';
import { imageSize } from './image-size.js';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part)))),
  );
const pad = (data: Uint8Array) => new Uint8Array([...data, ...new Array(32).fill(0)]);

describe('imageSize', () => {
  it('reads PNG and JPEG headers (the fixtures, 1096 pixels wide)', () => {
    expect(imageSize(fixture('page-1', 'png'))).toMatchObject({ width: 1096 });
    const jpeg = fixture('page-1', 'jpg');
    expect(imageSize(jpeg)).toEqual(jpegSize(jpeg));
  });

  it.each([
    ['GIF', bytes('GIF89a', [0x10, 0x27, 0x20, 0x4e]), { width: 10_000, height: 20_000 }],
    [
      'WebP VP8X',
      bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8X', [10, 0, 0, 0, 0, 0, 0, 0], [0x0f, 0x27, 0], [0x1f, 0x4e, 0]),
      { width: 10_000, height: 20_000 },
    ],
    [
      'little-endian TIFF',
      bytes(
        'II*\0',
        [8, 0, 0, 0],
        [2, 0],
        [0, 1, 4, 0, 1, 0, 0, 0, 0x10, 0x27, 0, 0],
        [1, 1, 3, 0, 1, 0, 0, 0, 0x20, 0x4e, 0, 0],
      ),
      { width: 10_000, height: 20_000 },
    ],
    [
      'big-endian TIFF',
      bytes(
        'MM\0*',
        [0, 0, 0, 8],
        [0, 2],
        [1, 0, 0, 3, 0, 0, 0, 1, 0x27, 0x10, 0, 0],
        [1, 1, 0, 4, 0, 0, 0, 1, 0, 0, 0x4e, 0x20],
      ),
      { width: 10_000, height: 20_000 },
    ],
    ['PGM', bytes('P5\n# a comment\n10000 20000\n255\n'), { width: 10_000, height: 20_000 }],
  ])('reads a %s header', (_name, image, size) => {
    expect(imageSize(pad(image))).toEqual(size);
  });

  it('gives nothing for bytes that are no image it knows', () => {
    expect(imageSize(pad(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')))).toBeUndefined();
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeImagePdf } from '../../test/fixtures/ocr/make-image-pdf.mjs';
import { readPdfPageImage, toNetpbm } from './pdf-page-image.js';

const SCANNED = new Uint8Array(readFileSync(new URL('../../test/fixtures/ocr/scanned.pdf', import.meta.url)));

describe('readPdfPageImage', () => {
  it("gives a scanned page's image as greyscale PGM of the scan's size", async () => {
    const page = await readPdfPageImage(SCANNED, 2, 50_000_000);
    expect(page.problem).toBeUndefined();
    const head = Buffer.from(page.image!.subarray(0, 20)).toString('latin1');
    expect(head).toMatch(/^P5\n1096 \d+\n255\n/);
    const height = Number(/^P5\n1096 (\d+)/.exec(head)![1]);
    expect(page.image!.length).toBe(head.indexOf('255\n') + 4 + 1096 * height);
  });

  it('never decodes an image of more pixels than the cap: too_large', async () => {
    expect(await readPdfPageImage(SCANNED, 1, 1000)).toEqual({ image: undefined, problem: 'too_large' });
  });

  it('a page with no image: no_image', async () => {
    const pdf = makeImagePdf({ pages: [{ text: 'Only words here' }] });
    expect(await readPdfPageImage(pdf, 1, 50_000_000)).toEqual({ image: undefined, problem: 'no_image' });
  });
});

describe('toNetpbm', () => {
  it('1-bit images become PBM with black as a set bit (PDF.js sets white)', () => {
    const pbm = toNetpbm({ width: 8, height: 1, kind: 1, data: new Uint8Array([0b11110000]) });
    expect(Buffer.from(pbm).toString('latin1')).toBe('P4\n8 1\n\u000f');
  });

  it('RGB becomes grey by luma', () => {
    const pgm = toNetpbm({ width: 2, height: 1, kind: 2, data: new Uint8Array([255, 255, 255, 255, 0, 0]) });
    expect([...pgm.subarray(-2)]).toEqual([255, 76]);
  });
});

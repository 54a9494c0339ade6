// A scanned PDF page → an image tesseract reads (issue 27 item 2). A scanner writes one image per page (JPEG, CCITT,
// JBIG2 or Flate), so the page's largest image XObject *is* the page: PDF.js decodes it (every filter it knows, in pure
// JavaScript; no canvas, which rendering the page would need) and it is handed on as a Netpbm image (PGM, or PBM for a
// 1-bit scan), which tesseract's Leptonica reads from stdin. Colour is reduced to grey: OCR reads luminance anyway,
// and a third of the bytes cross back from the worker.
// Not handled: a page drawn as many image strips (only the largest strip is read), inline images (BI … EI), text
// drawn as vector paths, and an image's rotation or placement on the page (tesseract finds the text's orientation
// only when the osd data is installed).

// PDF.js's ImageKind (src/shared/util.js): 1 bit per pixel, packed rows, a set bit is white; grey is 1 byte; RGB 3.
const GRAYSCALE_1BPP = 1;

interface DecodedImage {
  readonly width: number;
  readonly height: number;
  readonly kind?: number;
  readonly data: Uint8Array | Uint8ClampedArray;
}

/** Why a page gave no image. */
export type PageImageProblem = 'no_image' | 'too_large';

export interface PdfPageImage {
  /** A PGM (P5) or PBM (P4) image, or undefined with the problem. */
  readonly image: Uint8Array | undefined;
  readonly problem: PageImageProblem | undefined;
}

/**
 * The largest image of page `pageNumber` (1-based) as Netpbm bytes. Images of more than `maxPixels` are never decoded
 * (PDF.js `maxImageSize`), so a page's image is `too_large` rather than an out-of-memory worker.
 */
export async function readPdfPageImage(
  bytes: Uint8Array,
  pageNumber: number,
  maxPixels: number,
): Promise<PdfPageImage> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // A copy: PDF.js takes over (detaches) the buffer it is given, and the caller reads page after page of one file.
    pdf = await getDocumentProxy(bytes.slice(), {
      verbosity: 0,
      isEvalSupported: false,
      stopAtErrors: false,
      maxImageSize: maxPixels,
      isOffscreenCanvasSupported: false,
    });
    const page = await pdf.getPage(pageNumber);
    const { OPS } = await import('unpdf/pdfjs');
    const operators = await page.getOperatorList();
    let largest: DecodedImage | undefined;
    for (let index = 0; index < operators.fnArray.length; index++) {
      if (operators.fnArray[index] !== OPS.paintImageXObject) continue;
      const key = (operators.argsArray[index] as [string])[0];
      const objects = key.startsWith('g_') ? page.commonObjs : page.objs;
      const image = objects.has(key) ? (objects.get(key) as DecodedImage | null) : null;
      if (!image?.data || !image.width || !image.height) continue; // an image PDF.js could not decode
      if (!largest || image.width * image.height > largest.width * largest.height) largest = image;
    }
    page.cleanup();
    // PDF.js drops an image over maxImageSize without a trace in the operator list: the file's own dictionaries say.
    if (!largest) return { image: undefined, problem: hasImageOver(bytes, maxPixels) ? 'too_large' : 'no_image' };
    return { image: toNetpbm(largest), problem: undefined };
  } finally {
    await pdf?.destroy();
  }
}

const IMAGE_DICT = /<<(?:[^<>]|<<(?:[^<>])*>>)*\/Subtype\s*\/Image\b(?:[^<>]|<<(?:[^<>])*>>)*>>/g;

/**
 * Whether an image dictionary of the file announces more than `maxPixels` (its /Width and /Height, when written
 * directly). Not handled: sizes given as indirect objects, and dictionaries inside compressed object streams (an image
 * dictionary is a stream's, which never is inside one, ISO 32000-1 §7.5.7).
 */
export function hasImageOver(bytes: Uint8Array, maxPixels: number): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  for (const [dict] of text.matchAll(IMAGE_DICT)) {
    const width = Number(/\/Width\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const height = Number(/\/Height\s+(\d+)/.exec(dict)?.[1] ?? 0);
    if (width * height > maxPixels) return true;
  }
  return false;
}

/** PDF.js's decoded pixels → PBM (1 bit, a set bit black: inverted from PDF.js) or PGM (8-bit grey). */
export function toNetpbm(image: DecodedImage): Uint8Array {
  const { width, height, data } = image;
  const pixels = width * height;
  if (image.kind === GRAYSCALE_1BPP || data.length === Math.ceil(width / 8) * height) {
    const head = Buffer.from(`P4\n${width} ${height}\n`, 'latin1');
    const out = Buffer.alloc(head.length + data.length);
    head.copy(out);
    for (let at = 0; at < data.length; at++) out[head.length + at] = ~data[at]! & 0xff;
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  const channels = Math.round(data.length / pixels);
  const head = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const out = Buffer.alloc(head.length + pixels);
  head.copy(out);
  if (channels === 1) out.set(data.subarray(0, pixels), head.length);
  else {
    // ITU-R BT.601 luma, in integers.
    for (let pixel = 0, at = 0; pixel < pixels; pixel++, at += channels) {
      out[head.length + pixel] = (data[at]! * 299 + data[at + 1]! * 587 + data[at + 2]! * 114) / 1000;
    }
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

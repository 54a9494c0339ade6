// A screenshot of a rendered page (issue 28 item 1): the viewport, or the full page with its height capped, as PNG
// or JPEG, with its bytes capped. Taken as the render's last step (read-rendered.ts), after the DOM was read, inside
// the render's deadline, slot and memory cap, and through the same egress guard: every request the page makes while
// it is drawn (a late image, a font) passes the proxy as the page's other requests do.
//
// Bounds, each named in the result or the error when it decides:
// - width: the viewport's, MIN_SCREENSHOT_WIDTH–MAX_SCREENSHOT_WIDTH CSS px, set before the page loads (its layout is
//   made for that width); height VIEWPORT_HEIGHT; one device pixel per CSS pixel;
// - full page: at most FULL_PAGE_MAX_HEIGHT CSS px tall (MAX_SCREENSHOT_WIDTH × FULL_PAGE_MAX_HEIGHT ≈ 15.4 M pixels),
//   the result says where it cut;
// - bytes: at most SCREENSHOT_MAX_BYTES, else RESPONSE_TOO_LARGE saying what to ask for instead.
import type { Page } from 'playwright-core';
import { FetchError } from '../errors.js';
import { imageSize } from '../image-size.js';

export const MIN_SCREENSHOT_WIDTH = 320;
export const MAX_SCREENSHOT_WIDTH = 1920;
export const DEFAULT_SCREENSHOT_WIDTH = 1280;
/** The viewport's height in CSS px: what a viewport screenshot shows. */
export const VIEWPORT_HEIGHT = 800;
/** The tallest full-page screenshot, in CSS px; a taller page is cut there and the result says so. */
export const FULL_PAGE_MAX_HEIGHT = 8000;
/** The largest screenshot returned, encoded (MCP clients pass images of a few MB to a model). */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_JPEG_QUALITY = 80;

export type ScreenshotFormat = 'png' | 'jpeg';

/** What the caller asked for; the tools' schema has checked the bounds. */
export interface ScreenshotRequest {
  readonly fullPage: boolean;
  /** The viewport's width in CSS px. */
  readonly width: number;
  readonly format: ScreenshotFormat;
  /** JPEG only, 1–100. */
  readonly quality?: number | undefined;
}

export interface Screenshot {
  readonly bytes: Uint8Array;
  readonly format: ScreenshotFormat;
  readonly mimeType: 'image/png' | 'image/jpeg';
  /** The image's size in pixels (one per CSS px). */
  readonly width: number;
  readonly height: number;
  readonly fullPage: boolean;
  /** A full page taller than FULL_PAGE_MAX_HEIGHT: the page's height in CSS px (the image stops at the cap). */
  readonly cutFromHeight?: number;
}

/** The viewport a screenshot is taken in: set on the page before it loads. */
export function screenshotViewport(request: ScreenshotRequest): { width: number; height: number } {
  return { width: request.width, height: VIEWPORT_HEIGHT };
}

export async function takeScreenshot(page: Page, request: ScreenshotRequest, href: string): Promise<Screenshot> {
  const { format, fullPage, width } = request;
  // Playwright trims the clip to the page (screenshotter.ts trimClipToSize): a short page gives a short image.
  const clip = { x: 0, y: 0, width, height: fullPage ? FULL_PAGE_MAX_HEIGHT : VIEWPORT_HEIGHT };
  const bytes = await page.screenshot({
    type: format,
    fullPage,
    clip,
    animations: 'disabled',
    caret: 'hide',
    ...(format === 'jpeg' && { quality: request.quality ?? DEFAULT_JPEG_QUALITY }),
  });
  if (bytes.byteLength > SCREENSHOT_MAX_BYTES) {
    throw new FetchError(
      'RESPONSE_TOO_LARGE',
      href,
      `The screenshot of ${href} is ${bytes.byteLength} bytes, over the ${SCREENSHOT_MAX_BYTES}-byte limit: ask for ` +
        'format "jpeg" (with a lower quality), a smaller width, or the viewport instead of the full page.',
    );
  }
  const size = imageSize(bytes) ?? { width: 0, height: 0 };
  // The page's own height, only to say where the image stops: the page's script could make it lie, which changes
  // this sentence and nothing else (the image is cut at the cap whatever it says).
  const pageHeight = fullPage && size.height >= FULL_PAGE_MAX_HEIGHT ? await documentHeight(page) : 0;
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    format,
    mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
    ...size,
    fullPage,
    ...(pageHeight > FULL_PAGE_MAX_HEIGHT && { cutFromHeight: pageHeight }),
  };
}

function documentHeight(page: Page): Promise<number> {
  return page
    .evaluate(() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0))
    .then((height) => (Number.isFinite(height) ? Math.round(height) : 0))
    .catch(() => 0);
}

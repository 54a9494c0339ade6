// The arguments of a screenshot (the screenshot tool; fetch's `screenshot: true` takes the defaults) and what both
// tools do with the one a read returns: its image, its line, its link (issue 28 item 1). The bounds are
// src/browser/take-screenshot.ts's, imported from that module alone so that the browser loads only with a render.
import { z } from 'zod';
import {
  DEFAULT_SCREENSHOT_WIDTH,
  MAX_SCREENSHOT_WIDTH,
  MIN_SCREENSHOT_WIDTH,
  type ScreenshotRequest,
} from '../browser/take-screenshot.js';
import type { PageContent } from '../engine/page-content.js';
import { FetchError, InvalidArgumentError } from '../errors.js';
import { SCREENSHOT_SENTENCES } from '../output/notices.js';
import { screenshotLine, screenshotResult, type ScreenshotResult } from '../output/screenshot-text.js';
import { booleanArgument, integerBetween } from './arguments.js';
import type { ImageKeeper, ToolImage } from './types.js';

export const screenshotShape = {
  full_page: booleanArgument(
    'full_page',
    false,
    'The whole page, top to bottom (its height capped at 8000 px), instead of the viewport (800 px tall)',
  ),
  width: integerBetween('width', MIN_SCREENSHOT_WIDTH, MAX_SCREENSHOT_WIDTH)
    .default(DEFAULT_SCREENSHOT_WIDTH)
    .describe(
      `The viewport's width in CSS px (${MIN_SCREENSHOT_WIDTH}–${MAX_SCREENSHOT_WIDTH}); the page is laid out for it`,
    ),
  format: z
    .enum(['png', 'jpeg'], { error: 'format must be "png" or "jpeg"' })
    .default('png')
    .describe('png (default) or jpeg (smaller, for photos and long pages)'),
  quality: integerBetween('quality', 1, 100).optional().describe('JPEG quality, 1–100 (default 80)'),
};

export function screenshotRequest(args: {
  full_page: boolean;
  width: number;
  format: 'png' | 'jpeg';
  quality?: number | undefined;
}): ScreenshotRequest {
  if (args.quality !== undefined && args.format === 'png') {
    throw new InvalidArgumentError('quality', SCREENSHOT_SENTENCES.qualityWithPng);
  }
  return { fullPage: args.full_page, width: args.width, format: args.format, quality: args.quality };
}

/** fetch's `screenshot: true`: the viewport at the default width, as PNG. */
export const DEFAULT_SCREENSHOT: ScreenshotRequest = {
  fullPage: false,
  width: DEFAULT_SCREENSHOT_WIDTH,
  format: 'png',
};

/** Runs a read that takes a screenshot: BROWSER_MISSING says that the screenshot needs the browser. */
export async function withBrowserNeeded<T>(url: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof FetchError && error.code === 'BROWSER_MISSING') {
      throw new FetchError('BROWSER_MISSING', error.url, SCREENSHOT_SENTENCES.needsBrowser(error.message), {
        cause: error,
      });
    }
    throw error;
  }
}

export interface PresentedScreenshot {
  readonly line: string;
  readonly image?: ToolImage;
  readonly result?: ScreenshotResult;
}

/** The screenshot a read returned: its image (kept where the front door serves images), its line, its data. */
export function presentScreenshot(page: PageContent, keeper: ImageKeeper | undefined): PresentedScreenshot {
  const shot = page.screenshot;
  if (!shot) return { line: SCREENSHOT_SENTENCES.notHtml(page.url, page.kind) };
  const link = keeper?.keep({ bytes: shot.bytes, mimeType: shot.mimeType });
  const line = screenshotLine(page.url, shot, link, keeper?.keptMinutes ?? 0);
  return {
    line,
    image: { bytes: shot.bytes, mimeType: shot.mimeType, ...(link !== undefined && { link }) },
    result: screenshotResult(shot, link),
  };
}

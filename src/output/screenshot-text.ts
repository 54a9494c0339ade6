// What a screenshot gives the agent beside its image (issue 28 item 1): one line with its size, where a full page
// was cut, and where the HTTP server serves a copy; the same facts as data (`screenshot` in the structured result);
// and the sentences of a screenshot that could not be taken. notices.ts re-exports the sentences.
import { z } from 'zod';
import type { Screenshot } from '../browser/index.js';
import type { ContentKind } from '../formats/sniff.js';

/** The structured result's `screenshot`: the screenshot tool's, and fetch's with `screenshot: true`. */
export const SCREENSHOT_RESULT_SHAPE = z.object({
  format: z.enum(['png', 'jpeg']),
  mime_type: z.string(),
  width: z.number().int().describe('Pixels (one per CSS px)'),
  height: z.number().int().describe('Pixels (one per CSS px)'),
  bytes: z.number().int(),
  full_page: z.boolean(),
  cut_from_height: z
    .number()
    .int()
    .optional()
    .describe('A full page taller than the cap: its height in CSS px; the image stops at the cap'),
  link: z.string().optional().describe('Where the HTTP server serves the image, for a short time'),
});

export type ScreenshotResult = z.infer<typeof SCREENSHOT_RESULT_SHAPE>;

export function screenshotResult(shot: Screenshot, link: string | undefined): ScreenshotResult {
  return {
    format: shot.format,
    mime_type: shot.mimeType,
    width: shot.width,
    height: shot.height,
    bytes: shot.bytes.byteLength,
    full_page: shot.fullPage,
    ...(shot.cutFromHeight !== undefined && { cut_from_height: shot.cutFromHeight }),
    ...(link !== undefined && { link }),
  };
}

/** The line beside the image: "Screenshot of URL (viewport): 1280×800 px PNG, 48213 bytes." and what else applies. */
export function screenshotLine(url: string, shot: Screenshot, link: string | undefined, keptMinutes: number): string {
  const what = shot.fullPage ? 'full page' : 'viewport';
  const parts = [
    `Screenshot of ${url} (${what}): ${shot.width}×${shot.height} px ${shot.format.toUpperCase()}, ` +
      `${shot.bytes.byteLength} bytes.`,
  ];
  if (shot.cutFromHeight !== undefined) {
    parts.push(
      `The page is ${shot.cutFromHeight} px tall; the screenshot stops at ${shot.height} px, the full-page limit.`,
    );
  }
  if (link !== undefined) parts.push(`Also at ${link} for ${keptMinutes} minutes.`);
  return parts.join(' ');
}

export const SCREENSHOT_SENTENCES = {
  /** A screenshot asked for of a page that is not HTML (a PDF, an image, JSON): the browser does not draw it. */
  notHtml: (url: string, kind: ContentKind) =>
    `No screenshot of ${url}: it is ${kind === 'image' ? 'an image' : `${kind} content`}, not a web page, and only ` +
    'web pages are rendered for a screenshot.',
  /** BROWSER_MISSING for a screenshot: the render's own message, which carries the install line. */
  needsBrowser: (message: string) => `A screenshot needs a browser on the server. ${message}`,
  /** `quality` given for a PNG. */
  qualityWithPng: 'quality applies to format "jpeg" only; leave it out for "png", or ask for "jpeg"',
} as const;

// Rendering with headless Chromium behind the egress guard: the surface the engine and the tools use.
export {
  createBrowserRenderer,
  type BrowserRenderer,
  type BrowserRendererDependencies,
  type RenderOptions,
  type RenderResult,
} from './browser-renderer.js';
export { findBrowser, noBrowserHint } from './find-browser.js';
export type { Screenshot, ScreenshotFormat, ScreenshotRequest } from './take-screenshot.js';

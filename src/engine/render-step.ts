// Rendering as a step of loading: a page's DOM after its scripts ran, taken as one more snapshot, so the readers,
// the scraper and the crawl read it exactly as they read a fetched page (issue 13 "Same extraction"). The browser
// itself, and the guard every one of its requests passes, is src/browser/.
import { FetchError } from '../errors.js';
import type { FetchedPage } from '../fetch/types.js';
import { shouldRender, type Outcome, type RenderPolicy } from '../outcome.js';
import type { LoadedPage, LoadOptions } from './load-page.js';

export interface RenderedHtml {
  readonly html: string;
  /** The page's URL after script navigation: the base for its links. */
  readonly finalUrl: string;
  readonly status: number;
}

export interface RenderOptions extends LoadOptions {
  /** When to render HTML in a browser (`render`); RENDER_JS when absent. */
  readonly render?: RenderPolicy;
  /** Wait for this CSS selector to match before the DOM is read (`wait_for`). */
  readonly waitFor?: string;
}

/** What the engine needs of a browser. `render` resolves undefined when no browser is installed. */
export interface PageRenderer {
  render(url: string, options: RenderOptions): Promise<RenderedHtml | undefined>;
  close(): Promise<void>;
}

/** The rendered DOM as a snapshot: UTF-8 HTML at the URL the page ended on. */
export function renderedSnapshot(url: string, rendered: RenderedHtml): LoadedPage {
  const page: FetchedPage = {
    url,
    finalUrl: rendered.finalUrl,
    status: rendered.status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    mediaType: 'text/html',
    body: new TextEncoder().encode(rendered.html),
    fetchedAt: new Date(),
  };
  return { page, fromCache: false, rendered: true };
}

/** Why a page that wanted rendering was read without it; output/notices.ts words it for the agent. */
export type RenderSkipped =
  | { readonly reason: 'no_browser' }
  | { readonly reason: 'off' }
  | { readonly reason: 'failed'; readonly message: string };

/** What the static read found that decides rendering (src/outcome.ts shouldRender). */
export interface StaticRead {
  readonly outcome: Outcome;
  readonly scriptBuilt: boolean;
}

/** The rendered snapshot to read instead, or why the static read stands (nothing when it simply does). */
export type RenderAttempt =
  { readonly loaded: LoadedPage } | { readonly loaded?: undefined; readonly skipped?: RenderSkipped };

export function noBrowserError(url: string): FetchError {
  return new FetchError(
    'BROWSER_UNAVAILABLE',
    url,
    `Cannot render ${url}: no browser is installed for web-reader. Install one with \`apt-get install chromium\` ` +
      '(or set CHROMIUM_PATH to a Chromium executable), or call again with render "auto" or "never".',
  );
}

/**
 * The one rule every tool that renders follows, after its static read of an HTML page: `never` keeps the static
 * read; `always` renders or fails (no browser, the browser's own error); `auto` renders what the static read could
 * not read, and keeps the static read, saying why, when there is no browser or rendering fails. The caller's own
 * cancellation always ends the call.
 */
export async function attemptRender(
  renderer: PageRenderer | undefined,
  url: string,
  policy: RenderPolicy,
  staticRead: StaticRead,
  options: RenderOptions,
): Promise<RenderAttempt> {
  if (policy === 'never') return staticRead.outcome === 'needs_js' ? { skipped: { reason: 'off' } } : {};
  if (!shouldRender(policy, staticRead)) return {};
  const unread = staticRead.outcome !== 'ok';
  try {
    const rendered = await renderer?.render(url, options);
    if (rendered) return { loaded: renderedSnapshot(url, rendered) };
    if (policy === 'always') throw noBrowserError(url);
    return unread ? { skipped: { reason: 'no_browser' } } : {};
  } catch (error) {
    if (policy === 'always' || options.signal?.aborted) throw error;
    return { skipped: { reason: 'failed', message: error instanceof Error ? error.message : String(error) } };
  }
}

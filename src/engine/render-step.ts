// Rendering as a step of loading: a page's DOM after its scripts ran, taken as one more snapshot, so the readers,
// the scraper and the crawl read it exactly as they read a fetched page (issue 13 "Same extraction"). The browser
// itself, and the guard every one of its requests passes, is src/browser/.
import type { BrowserRenderer, Screenshot, ScreenshotRequest } from '../browser/index.js';
import type { ActionResult, PageAction } from '../browser/page-actions.js';
import type { Config } from '../config.js';
import { FetchError, InvalidArgumentError } from '../errors.js';
import { carriesCredentials } from '../fetch/credentials.js';
import type { FetchedPage } from '../fetch/types.js';
import { shouldRender, type Outcome, type RenderPolicy } from '../outcome.js';
import { snapshotKey, type PageCache } from '../fetch/page-cache.js';
import { isFresh, type LoadedPage, type LoadOptions } from './load-page.js';

// The sentences this step gives the agent (the engine is below src/output/, so they are named here, not in
// src/output/notices.ts): a rendered page would send its requests without the caller's headers.
export const RENDER_ALWAYS_WITH_HEADERS =
  'render "always" cannot be used with headers: a rendered page would not carry them.';
export const NOT_RENDERED_WITH_HEADERS = 'a read with headers is not rendered (the browser would not carry them)';
export const SCREENSHOT_WITH_HEADERS =
  'screenshot cannot be used with headers: the page is drawn by the browser, which would not carry them.';
export const SCREENSHOT_WITH_RENDER_NEVER =
  'screenshot cannot be used with render "never": a screenshot is taken by rendering the page in a browser.';
export const ACTIONS_WITH_HEADERS =
  'actions cannot be used with headers: actions run in a browser, which would not carry them. Call again without one of them.';
export const ACTIONS_WITH_RENDER_NEVER =
  'actions run in a browser: they cannot be used with render "never". Call again without render, or without actions.';

export interface RenderedHtml {
  readonly html: string;
  /** The page's URL after script navigation: the base for its links. */
  readonly finalUrl: string;
  readonly status: number;
  /** When the DOM was read; now unless it came from the cache. */
  readonly fetchedAt?: Date;
  readonly fromCache?: boolean;
  /** When RenderOptions `screenshot` asked for one: always from this render, never from the cache. */
  readonly screenshot?: Screenshot;
  /** With `actions`: what became of each, in order. */
  readonly actions?: readonly ActionResult[];
}

export interface RenderOptions extends LoadOptions {
  /** When to render HTML in a browser (`render`); RENDER_JS when absent. */
  readonly render?: RenderPolicy;
  /** Wait for this CSS selector to match before the DOM is read (`wait_for`). */
  readonly waitFor?: string;
  /** Also a screenshot of the rendered page (`screenshot`): the page is rendered whatever `render` says. */
  readonly screenshot?: ScreenshotRequest;
  /** Done to the rendered page, in order, after `waitFor` and before its DOM is read (`actions`); a read with them renders. */
  readonly actions?: readonly PageAction[];
}

/**
 * What the engine needs of a browser (src/browser/ gives it). `render` rejects with FetchError BROWSER_MISSING when
 * no browser is installed, before it starts anything.
 */
export interface PageRenderer {
  render(url: string, options: RenderOptions): Promise<RenderedHtml>;
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
    fetchedAt: rendered.fetchedAt ?? new Date(),
  };
  return { page, fromCache: rendered.fromCache ?? false, rendered: true };
}

/**
 * Rendered snapshots kept in the page cache like fetched ones, for CACHE_TTL and within a call's `max_age`: a
 * continuation (`start_index`) reads the same DOM, and a second read of a JavaScript page costs no second render.
 * The key (fetch/page-cache.ts snapshotKey) keeps the URL's fragment and `wait_for`. A read that carries credentials
 * never renders, so no credentialed page is kept here. A read with `actions` is neither served nor kept: its DOM is
 * what its own actions made, and its report is of this run.
 */
export function cachedRenderer(renderer: PageRenderer, cache: PageCache): PageRenderer {
  return {
    async render(url, options) {
      if (hasActions(options)) return renderer.render(url, options);
      const key = snapshotKey(url, { rendered: { waitFor: options.waitFor } });
      // A screenshot is of the page now: never answered from the cache, and the DOM it rendered is kept there.
      const hit = options.screenshot ? undefined : await cache.get(key);
      if (hit && isFresh(hit, options.maxAgeSeconds)) {
        const html = new TextDecoder().decode(hit.body);
        return { html, finalUrl: hit.finalUrl, status: hit.status, fetchedAt: hit.fetchedAt, fromCache: true };
      }
      const rendered = await renderer.render(url, options);
      const { page } = renderedSnapshot(url, rendered);
      await cache.set(key, page);
      return { ...rendered, fetchedAt: page.fetchedAt };
    },
    close: () => renderer.close(),
  };
}

/** Why a page that wanted rendering was read without it; output/notices.ts words it for the agent. */
export type RenderSkipped =
  | { readonly reason: 'no_browser'; readonly message: string }
  | { readonly reason: 'off' }
  | { readonly reason: 'failed'; readonly message: string };

/** What the static read found that decides rendering (src/outcome.ts shouldRender). */
export interface StaticRead {
  readonly outcome: Outcome;
  readonly scriptBuilt: boolean;
}

/** The rendered snapshot to read instead, or why the static read stands (nothing when it simply does). */
export type RenderAttempt =
  | { readonly loaded: LoadedPage; readonly screenshot?: Screenshot; readonly actions?: readonly ActionResult[] }
  | { readonly loaded?: undefined; readonly skipped?: RenderSkipped };

/** Whether a read has actions to run (an empty list is none). */
export const hasActions = (options: RenderOptions): boolean => (options.actions?.length ?? 0) > 0;

/**
 * What needs the browser is checked before anything is fetched. A screenshot and `actions` need a browser, so not
 * with render "never"; the browser would send the page's requests without the caller's headers, so neither goes with
 * headers (as render "always"). `actions` are also checked one by one (page-actions.ts, again for the library's
 * callers that skip the tools' schemas).
 */
export async function assertBrowserOptions(url: string, options: RenderOptions): Promise<void> {
  if (options.screenshot) {
    if (options.render === 'never') throw new InvalidArgumentError('render', SCREENSHOT_WITH_RENDER_NEVER);
    if (carriesCredentials(options.credentials, url))
      throw new InvalidArgumentError('headers', SCREENSHOT_WITH_HEADERS);
  }
  if (options.actions === undefined) return;
  (await import('../browser/check-actions.js')).parseActions(options.actions);
  if (!hasActions(options)) return;
  if (options.render === 'never') throw new InvalidArgumentError('actions', ACTIONS_WITH_RENDER_NEVER);
  if (carriesCredentials(options.credentials, url)) throw new InvalidArgumentError('actions', ACTIONS_WITH_HEADERS);
}

/**
 * The one rule every tool that renders follows, after its static read of an HTML page: `never` keeps the static
 * read; `always` renders or fails (no browser, the browser's own error); `auto` renders what the static read could
 * not read, and keeps the static read, saying why, when there is no browser or rendering fails. The caller's own
 * cancellation always ends the call.
 */
export async function attemptRender(
  renderer: PageRenderer,
  url: string,
  policy: RenderPolicy,
  staticRead: StaticRead,
  options: RenderOptions,
): Promise<RenderAttempt> {
  if (options.screenshot) return renderForScreenshot(renderer, url, options);
  if (policy === 'never') return staticRead.outcome === 'needs_js' ? { skipped: { reason: 'off' } } : {};
  if (!shouldRender(policy, staticRead)) return {};
  // The browser would send a page's requests without the caller's headers, or, given them, to every origin: a read
  // that carries credentials (one on their origin, src/fetch/credentials.ts) is not rendered.
  if (carriesCredentials(options.credentials, url)) {
    if (policy === 'always') {
      throw new InvalidArgumentError('render', RENDER_ALWAYS_WITH_HEADERS);
    }
    return { skipped: { reason: 'failed', message: NOT_RENDERED_WITH_HEADERS } };
  }
  try {
    return renderedAttempt(url, await renderer.render(url, options));
  } catch (error) {
    if (policy === 'always' || options.signal?.aborted) throw error;
    if (error instanceof FetchError && error.code === 'BROWSER_MISSING') {
      return staticRead.outcome === 'ok' ? {} : { skipped: { reason: 'no_browser', message: error.message } };
    }
    return { skipped: { reason: 'failed', message: error instanceof Error ? error.message : String(error) } };
  }
}

/**
 * A screenshot renders the page whatever the static read found and fails as render "always" does: no browser is
 * BROWSER_MISSING (render "never" and credentials were refused before the fetch: assertBrowserOptions).
 */
async function renderForScreenshot(
  renderer: PageRenderer,
  url: string,
  options: RenderOptions,
): Promise<RenderAttempt> {
  // RENDER_JS is only the policy of a call that names none (as render "always" renders under RENDER_JS=never); the
  // caller's contradictions were refused before the fetch (assertBrowserOptions).
  return renderedAttempt(url, await renderer.render(url, options));
}

/** A render read instead of the static read: its snapshot, with its screenshot and its actions' report. */
function renderedAttempt(url: string, rendered: RenderedHtml): RenderAttempt {
  const { screenshot, actions } = rendered;
  return { loaded: renderedSnapshot(url, rendered), ...(screenshot && { screenshot }), ...(actions && { actions }) };
}

/**
 * The real browser (src/browser/): headless Chromium behind the egress guard. A render's deadline is RENDER_TIMEOUT
 * (by default twice FETCH_TIMEOUT, config.ts), cut to twice the call's own time-out (`web_scraper`'s `timeout`) when
 * that is shorter: a client that allowed the call its time-out gets the page or a TIMEOUT naming the render.
 */
export function browserPageRenderer(config: Config): PageRenderer {
  // The browser's modules load with the first render, not with the engine: a server whose reads never render (and
  // every first call that does not) does not pay for them (start-up: npm run bench:start).
  let browser: Promise<BrowserRenderer> | undefined;
  const open = () =>
    (browser ??= import('../browser/index.js').then(({ createBrowserRenderer }) => createBrowserRenderer(config)));
  return {
    async render(url, options) {
      const callMs = options.timeoutMs === undefined ? Infinity : 2 * options.timeoutMs;
      const deadlineMs = Math.min(config.renderTimeoutMs, callMs);
      const result = await (
        await open()
      ).render(url, {
        signal: options.signal,
        deadlineMs,
        waitFor: options.waitFor,
        userAgent: options.userAgent,
        screenshot: options.screenshot,
        ...(hasActions(options) && { actions: options.actions }),
      });
      // No main-frame document response (a hash route answered from the page itself): the page was there.
      const { html, finalUrl, screenshot, actions } = result;
      return {
        html,
        finalUrl,
        status: result.status || 200,
        ...(screenshot && { screenshot }),
        ...(actions && { actions }),
      };
    },
    close: async () => {
      if (browser) await (await browser).close();
    },
  };
}

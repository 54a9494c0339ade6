// URL → rendered HTML with headless Chromium, every connection through the egress proxy (egress-proxy.ts).
//
// One browser per renderer, found and launched at the first render (nothing at start-up) and kept between renders;
// a fresh context per render (no cookies, storage or cache shared, renderer processes of its own), given its own
// proxy credentials so that the proxy can count its bytes and close its sockets. Renders are isolated from each
// other (issue 23):
// - Everything a render does runs inside its deadline. Its page is closed after it in the background, bounded: a
//   page that does not close within CLOSE_GRACE_MS has its renderer process ended alone (page-guard.ts), and only if
//   even that fails is the browser retired — given no new render, and killed once the renders on it have ended.
//   The browser is never killed under another render.
// - The render's slot is freed when the render ends, not when its page has closed (up to RENDER_CONCURRENCY pages
//   may be closing at once besides), so a stuck page never eats the deadline of a render waiting for a slot.
// - A render that failed only because the browser went away under it (crashed, killed) is tried once more.
// - Each renderer's script heap is capped at RENDER_MAX_MEMORY (launch-browser.ts); the shared launch has its own
//   time-out, so a render with a short deadline cannot fail the launch for others.
//
// The order of a render: check the URL (the fetcher's check) → find a browser → wait for a slot (RENDER_CONCURRENCY)
// → browser → proxy session → context → page → read-rendered.ts (navigate, settle, `waitFor`, `actions`, the DOM,
// a screenshot).
import type { Browser, BrowserContext } from 'playwright-core';
import { DEFAULT_USER_AGENT, type Config } from '../config.js';
import { FetchError, TimeoutError } from '../errors.js';
import { checkUrl, deadlineSignal } from '../fetch/index.js';
import { log, runOutsideCalls } from '../log.js';
import { startEgressProxy, type EgressProxy, type EgressSession } from './egress-proxy.js';
import { findBrowser, noBrowserHint } from './find-browser.js';
import { launchBrowser, type LaunchedBrowser } from './launch-browser.js';
import type { ActionResult, PageAction } from './page-actions.js';
import { guardPage, sleep, type PageGuard } from './page-guard.js';
import { readRendered } from './read-rendered.js';
import { refusedError, renderFailure, tooLarge } from './render-failure.js';
import { createRenderSlots } from './render-slots.js';
import { trackMutations } from './settle-page.js';
import { screenshotViewport, type Screenshot, type ScreenshotRequest } from './take-screenshot.js';

export { SETTLE_CAP_MS } from './read-rendered.js';
/** How long a context (or the browser) may take to close before its renderer (or the browser) is ended. */
export const CLOSE_GRACE_MS = 2000;
/** The longest a browser launch may take; each render waits for it only within its own deadline. */
const LAUNCH_TIMEOUT_MS = 30_000;

export interface RenderOptions {
  /** Cancellation by the caller; its reason is what render() rejects with. */
  readonly signal?: AbortSignal | undefined;
  /** The whole render's time, from the call (slot wait and browser launch included). */
  readonly deadlineMs: number;
  /** A CSS selector to wait for after the page settles (the `wait_for` argument). */
  readonly waitFor?: string | undefined;
  /** All bytes the render may download; RENDER_MAX_SIZE by default. */
  readonly maxBytes?: number | undefined;
  /** The page's User-Agent (the crawler's own, for a crawl); else USER_AGENT, or a Chrome-like one by default. */
  readonly userAgent?: string | undefined;
  /** Also a screenshot, taken last, in a viewport of its width (take-screenshot.ts). */
  readonly screenshot?: ScreenshotRequest | undefined;
  /** Done to the page, in order, after `waitFor` and before its DOM is read (checked before: page-actions.ts). */
  readonly actions?: readonly PageAction[] | undefined;
}

export interface RenderResult {
  /** The DOM serialised after scripts ran (page.content()). */
  readonly html: string;
  /** The page's URL at the end, after redirects and script navigation: the base for links. */
  readonly finalUrl: string;
  /** Status and Content-Type of the last main-frame document response (0 and '' when there was none, e.g. a hash route). */
  readonly status: number;
  readonly contentType: string;
  /** Bytes the render downloaded through the proxy (all its requests, not only the document). */
  readonly downloadedBytes: number;
  /** Connections the proxy refused (private addresses) while rendering, and the first few of them. */
  readonly refusedCount: number;
  readonly refusedTargets: readonly string[];
  /** When `screenshot` was asked for. */
  readonly screenshot?: Screenshot;
  /** With `actions`: what became of each, in order. */
  readonly actions?: readonly ActionResult[];
}

export interface BrowserRenderer {
  /**
   * Renders `url`. Rejects with FetchError BROWSER_MISSING when there is no browser (see noBrowserHint),
   * BROWSER_FAILED when it would not start or crashed, RESPONSE_TOO_LARGE past the byte cap, CONNECT_FAILED;
   * SecurityError for a refused URL; TimeoutError at the deadline; the signal's reason on cancellation.
   */
  render(url: string, options: RenderOptions): Promise<RenderResult>;
  /** True when a browser executable is there to launch (it is not started). */
  available(): boolean;
  /** Closes the browser (killing it if it hangs) and the proxy. */
  close(): Promise<void>;
  /** The running browser's process id and its process tree's resident memory in bytes (benchmarks, tests). */
  browserProcess(): { readonly pid: number | undefined; readonly residentBytes: number } | undefined;
}

export interface BrowserRendererDependencies {
  /** Where to look when CHROMIUM_PATH is not set. */
  readonly browserPaths?: readonly string[] | undefined;
}

interface RunningBrowser {
  readonly launched: LaunchedBrowser;
  readonly userAgent: string | undefined;
  dead: boolean;
  /** Given no new render; killed when `users` reaches 0. */
  retired: boolean;
  /** Renders on it now, and their pages still closing. */
  users: number;
}

/** What one try of a render learnt, for deciding what its failure means. */
interface Attempt {
  entry?: RunningBrowser;
  session?: EgressSession;
  pageCrashed: boolean;
}

/** The browser exited or was killed (its 'disconnected' may come after the failure it caused). */
const gone = (entry: RunningBrowser) => entry.dead || !entry.launched.browser.isConnected();

/** True when `promise` settles within `ms`. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);

export function createBrowserRenderer(config: Config, deps: BrowserRendererDependencies = {}): BrowserRenderer {
  const slots = createRenderSlots(config.renderConcurrency);
  let proxy: Promise<EgressProxy> | undefined;
  let launching: Promise<RunningBrowser> | undefined;
  let current: RunningBrowser | undefined;
  const browsers = new Set<RunningBrowser>();
  let closingInBackground = 0;
  let closed = false;

  // The proxy and the browser serve every call but start during one: they start outside any call's log context,
  // else their event handlers would send later lines (another call's refused connections, the browser's exit) to
  // the client of the call that happened to start them (src/log.ts).
  function getProxy(): Promise<EgressProxy> {
    proxy ??= runOutsideCalls(() => startEgressProxy({ allowPrivateHosts: config.allowPrivateHosts }));
    return proxy;
  }

  /** The running browser, or one launch shared by every render that asks while it starts. */
  function getBrowser(executablePath: string): Promise<RunningBrowser> {
    if (current && !gone(current) && !current.retired) return Promise.resolve(current);
    launching ??= runOutsideCalls(async () => {
      const { url: proxyUrl } = await getProxy();
      const launched = await launchBrowser({
        executablePath,
        proxyUrl,
        timeoutMs: LAUNCH_TIMEOUT_MS,
        maxHeapMb: config.renderMaxMemoryMb,
      });
      // A browser-like default agent: the configured default names Firefox, which a Chromium engine contradicts.
      const major = launched.browser.version().split('.')[0];
      const userAgent =
        config.userAgent !== DEFAULT_USER_AGENT
          ? config.userAgent
          : `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
      const entry: RunningBrowser = { launched, userAgent, dead: false, retired: false, users: 0 };
      browsers.add(entry);
      launched.browser.on('disconnected', () => {
        if (!entry.dead) log('info', 'the browser exited; the next render starts a new one');
        entry.dead = true;
        browsers.delete(entry);
      });
      if (closed) kill(entry); // closed while it started
      current = entry;
      return entry;
    }).finally(() => {
      launching = undefined; // a failed launch is retried by the next render
    });
    return launching;
  }

  function kill(entry: RunningBrowser) {
    entry.dead = true;
    browsers.delete(entry);
    entry.launched.kill();
  }

  /** No new render goes to `entry`; it is killed when the renders on it have ended. */
  function retire(entry: RunningBrowser) {
    entry.retired = true;
    if (current === entry) current = undefined;
    if (entry.users === 0 && !entry.dead) kill(entry);
  }

  function leave(entry: RunningBrowser) {
    entry.users--;
    if (entry.retired && entry.users === 0 && !entry.dead) {
      log('warn', 'killing the retired browser: the renders on it have ended');
      kill(entry);
    }
  }

  /** Closes a render's context, bounded: its renderer process is ended if it will not close, then its browser retired. */
  async function closePage(context: BrowserContext | undefined, guard: PageGuard | undefined, entry: RunningBrowser) {
    if (!context || entry.dead) return;
    const closing = context.close().then(
      () => {},
      () => {},
    );
    if (await within(closing, CLOSE_GRACE_MS)) return;
    if (guard) {
      log('warn', `a rendered page did not close within ${CLOSE_GRACE_MS} ms; ending its renderer process`);
      guard.crash();
      if (await within(closing, CLOSE_GRACE_MS)) return;
    }
    log('warn', 'a rendered page would not close; the browser takes no new render and ends after the ones on it');
    retire(entry);
  }

  async function render(url: string, options: RenderOptions): Promise<RenderResult> {
    if (closed) throw new Error('The browser renderer is closed.');
    const start = Date.now();
    const { url: checked, hostPort } = checkUrl(url, config.allowPrivateHosts);
    const href = checked.href;
    const executablePath = findBrowser(config.chromiumPath, deps.browserPaths);
    if (!executablePath) {
      const hint = noBrowserHint(config.chromiumPath);
      throw new FetchError('BROWSER_MISSING', href, `No browser to render ${href} with: ${hint}.`);
    }
    const { signal, release: releaseDeadline } = deadlineSignal(Math.max(1, options.deadlineMs), options.signal);
    const remaining = () => options.deadlineMs - (Date.now() - start);
    const timedOut = () =>
      new TimeoutError(
        href,
        options.deadlineMs,
        undefined,
        `Rendering ${href} did not finish within ${options.deadlineMs} ms: the page kept loading or its scripts ` +
          'kept running. Try again, or read the page without rendering.',
      );
    // Every step races the deadline: a spinning renderer never answers, so no Playwright call can be trusted to.
    const aborted = new Promise<never>((_resolve, reject) => {
      const fail = () => reject(options.signal?.aborted ? options.signal.reason : timedOut());
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => {});
    const bounded = <T>(step: Promise<T>): Promise<T> => {
      step.catch(() => {}); // a step abandoned at the deadline rejects later, when its context closes
      return Promise.race([step, aborted]);
    };

    const once = async (attempt: Attempt): Promise<RenderResult> => {
      let release: (() => void) | undefined;
      let context: BrowserContext | undefined;
      let guard: PageGuard | undefined;
      let entry: RunningBrowser | undefined;
      try {
        release = await bounded(slots.acquire(signal));
        entry = attempt.entry = await bounded(getBrowser(executablePath));
        entry.users++;
        const egress = await getProxy();
        const session = (attempt.session = egress.openSession({
          maxBytes: options.maxBytes ?? config.renderMaxBytes,
        }));
        context = await bounded(
          newContext(entry.launched.browser, egress.url, session, options.userAgent ?? entry.userAgent),
        );
        const page = await bounded(context.newPage());
        if (options.screenshot) await bounded(page.setViewportSize(screenshotViewport(options.screenshot)));
        page.on('crash', () => (attempt.pageCrashed = true));
        // Pop-ups are closed at once: only the page we opened is read.
        context.on('page', (other) => {
          if (other !== page) other.close().catch(() => {});
        });
        guard = await bounded(guardPage(context, page));
        const { html, document, actions, screenshot } = await readRendered(
          page,
          guard,
          href,
          options.waitFor,
          {
            bounded,
            remaining,
            checkDocument: (document) => {
              if (document?.headers()['x-web-reader-refused'] === '403') throw refusedError(href, session, hostPort);
            },
            screenshot: options.screenshot,
          },
          options.actions,
        );
        if (session.overLimit) throw tooLarge(href, session);
        if (session.refusedCount > 0) {
          log(
            'info',
            `rendering ${href}: refused ${session.refusedCount} connection(s), e.g. ${session.refusedTargets[0]}`,
          );
        }
        return {
          html,
          finalUrl: page.url(),
          status: document?.status() ?? 0,
          contentType: document?.headers()['content-type'] ?? '',
          downloadedBytes: session.downloadedBytes,
          refusedCount: session.refusedCount,
          refusedTargets: [...session.refusedTargets],
          ...(screenshot && { screenshot }),
          ...(actions && { actions }),
        };
      } finally {
        // In the background: the caller has its answer (or its error at the deadline) now. The slot is free now
        // too, unless RENDER_CONCURRENCY pages are closing already.
        attempt.session?.close();
        const closing = entry ? closePage(context, guard, entry).finally(() => leave(entry!)) : Promise.resolve();
        if (closingInBackground < config.renderConcurrency) {
          closingInBackground++;
          release?.();
          void closing.finally(() => closingInBackground--);
        } else {
          void closing.finally(() => release?.());
        }
      }
    };

    try {
      for (let tries = 1; ; tries++) {
        const attempt: Attempt = { pageCrashed: false };
        try {
          return await once(attempt);
        } catch (error) {
          if (options.signal?.aborted) throw options.signal.reason;
          if (error instanceof TimeoutError) throw error; // wait_for's own, which names the selector
          if (signal.aborted || remaining() <= 0) throw timedOut();
          const { session } = attempt;
          if (session?.overLimit) throw tooLarge(href, session);
          if (session && session.refusedTargets.some((target) => target.startsWith(`${hostPort} `))) {
            throw refusedError(href, session, hostPort);
          }
          const browserGone = attempt.entry !== undefined && gone(attempt.entry) && !attempt.pageCrashed;
          if (browserGone && tries === 1 && !closed) {
            log('info', `rendering ${href}: the browser went away under the render; trying once more`);
            continue;
          }
          throw renderFailure(error, href, {
            browserDied: attempt.entry !== undefined && gone(attempt.entry),
            pageCrashed: attempt.pageCrashed,
            maxHeapMb: config.renderMaxMemoryMb,
          });
        }
      }
    } finally {
      releaseDeadline();
    }
  }

  return {
    render,
    available: () => findBrowser(config.chromiumPath, deps.browserPaths) !== undefined,
    browserProcess: () =>
      current && !current.dead
        ? { pid: current.launched.pid, residentBytes: current.launched.residentBytes() }
        : undefined,
    async close() {
      closed = true;
      await launching?.catch(() => undefined);
      current = undefined;
      await Promise.all(
        [...browsers].map(async (entry) => {
          if (entry.dead) return;
          entry.dead = true; // before close(): its 'disconnected' is expected, not news for the log
          browsers.delete(entry);
          const closedInTime = await within(
            entry.launched.browser.close().catch(() => {}),
            CLOSE_GRACE_MS,
          );
          if (!closedInTime) entry.launched.kill();
        }),
      );
      await (await proxy)?.close();
    },
  };
}

/** A fresh context: its own proxy credentials, no service workers, downloads or permissions, only http(s) loads. */
async function newContext(
  browser: Browser,
  server: string,
  session: EgressSession,
  userAgent: string | undefined,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    // `<-loopback>` again: a context's proxy settings replace the launch's, bypass list included.
    proxy: { server, username: session.username, password: session.password, bypass: '<-loopback>' },
    serviceWorkers: 'block',
    acceptDownloads: false,
    javaScriptEnabled: true,
    permissions: [],
    userAgent,
  });
  // A second line behind the proxy: file:, chrome:, data: and other non-http loads are refused. (The proxy is the
  // guarantee for the network; this stops what never reaches the network.)
  await context.route(
    (target) => target.protocol !== 'http:' && target.protocol !== 'https:',
    (route) => route.abort('blockedbyclient'),
  );
  await trackMutations(context);
  return context;
}

// URL → rendered HTML with headless Chromium, every connection through the egress proxy (egress-proxy.ts).
//
// One browser per renderer, found and launched at the first render (nothing at start-up) and kept between renders;
// a fresh context per render (no cookies, storage or cache shared), given its own proxy credentials so that the
// proxy can count its bytes and close its sockets. Everything a render does runs inside its deadline: on the
// deadline the context is closed, and a browser that does not close it promptly (a renderer spinning in
// `while(true){}` that the browser cannot stop, a hung browser) is killed with its process group and replaced at
// the next render.
//
// The order of a render: check the URL (the fetcher's check) → find a browser → wait for a slot (RENDER_CONCURRENCY)
// → browser → proxy session → context → navigate (DOMContentLoaded) → settle (network idle, then the DOM quiet,
// capped) → optional `waitFor` selector → the DOM serialised and the page's final URL.
import type { Browser, BrowserContext, Response } from 'playwright-core';
import { DEFAULT_USER_AGENT, type Config } from '../config.js';
import { FetchError, SecurityError, TimeoutError } from '../errors.js';
import { checkUrl } from '../fetch/index.js';
import { log, runOutsideCalls } from '../log.js';
import { startEgressProxy, type EgressProxy, type EgressSession } from './egress-proxy.js';
import { findBrowser, noBrowserHint } from './find-browser.js';
import { launchBrowser, type LaunchedBrowser } from './launch-browser.js';
import { renderFailure, waitForSelector } from './render-failure.js';
import { createRenderSlots } from './render-slots.js';
import { settlePage, trackMutations } from './settle-page.js';

/** Longest wait for the network to go idle and the DOM to stop changing after DOMContentLoaded. */
export const SETTLE_CAP_MS = 5000;
/** How long a context (or the browser) may take to close before its processes are killed. */
export const CLOSE_GRACE_MS = 2000;
/** The longest a browser launch may take, within the render's deadline. */
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
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, Math.max(0, ms)).unref();
  });

export function createBrowserRenderer(config: Config, deps: BrowserRendererDependencies = {}): BrowserRenderer {
  const slots = createRenderSlots(config.renderConcurrency);
  let proxy: Promise<EgressProxy> | undefined;
  let launching: Promise<RunningBrowser> | undefined;
  let current: RunningBrowser | undefined;
  let closed = false;

  // The proxy and the browser serve every call but start during one: they start outside any call's log context,
  // else their event handlers would send later lines (another call's refused connections, the browser's exit) to
  // the client of the call that happened to start them (src/log.ts).
  function getProxy(): Promise<EgressProxy> {
    proxy ??= runOutsideCalls(() => startEgressProxy({ allowPrivateHosts: config.allowPrivateHosts }));
    return proxy;
  }

  /** The running browser, or one launch shared by every render that asks while it starts. */
  function getBrowser(executablePath: string, timeoutMs: number): Promise<RunningBrowser> {
    if (current && !current.dead) return Promise.resolve(current);
    launching ??= runOutsideCalls(async () => {
      const { url: proxyUrl } = await getProxy();
      const launched = await launchBrowser({ executablePath, proxyUrl, timeoutMs });
      // A browser-like default agent: the configured default names Firefox, which a Chromium engine contradicts.
      const major = launched.browser.version().split('.')[0];
      const userAgent =
        config.userAgent !== DEFAULT_USER_AGENT
          ? config.userAgent
          : `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
      const entry: RunningBrowser = { launched, userAgent, dead: false };
      launched.browser.on('disconnected', () => {
        if (!entry.dead) log('info', 'the browser exited; the next render starts a new one');
        entry.dead = true;
      });
      if (closed) replace(entry); // closed while it started
      current = entry;
      return entry;
    }).finally(() => {
      launching = undefined; // a failed launch is retried by the next render
    });
    return launching;
  }

  /** Kills the browser now; the next render launches another. */
  function replace(entry: RunningBrowser) {
    entry.dead = true;
    entry.launched.kill();
  }

  /** Closes `context`; a browser that cannot within the grace is killed. */
  async function closeContext(context: BrowserContext | undefined, entry: RunningBrowser) {
    if (!context || entry.dead) return;
    const closedInTime = await Promise.race([
      context.close().then(
        () => true,
        () => true,
      ),
      sleep(CLOSE_GRACE_MS).then(() => false),
    ]);
    if (!closedInTime) {
      log('warn', `the browser did not close a page within ${CLOSE_GRACE_MS} ms; killing it`);
      replace(entry);
    }
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
    const deadline = AbortSignal.timeout(Math.max(1, options.deadlineMs));
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
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

    let release: (() => void) | undefined;
    let entry: RunningBrowser | undefined;
    let session: EgressSession | undefined;
    let context: BrowserContext | undefined;
    try {
      release = await bounded(slots.acquire(signal));
      entry = await bounded(getBrowser(executablePath, Math.min(LAUNCH_TIMEOUT_MS, Math.max(1, remaining()))));
      const egress = await getProxy();
      session = egress.openSession({ maxBytes: options.maxBytes ?? config.renderMaxBytes });
      context = await bounded(
        newContext(entry.launched.browser, egress.url, session, options.userAgent ?? entry.userAgent),
      );
      const page = await bounded(context.newPage());
      // Pop-ups are closed at once: only the page we opened is read.
      context.on('page', (other) => {
        if (other !== page) other.close().catch(() => {});
      });
      let document: Response | undefined;
      page.on('response', (response) => {
        if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) document = response;
      });
      document =
        // Playwright's own time-out is a backstop a second past ours, so that the deadline always reads as ours.
        (await bounded(page.goto(href, { waitUntil: 'domcontentloaded', timeout: Math.max(1, remaining()) + 1000 }))) ??
        document;
      if (document?.headers()['x-web-reader-refused'] === '403') throw refusedError(href, session, hostPort);
      await bounded(settlePage(page, Math.min(SETTLE_CAP_MS, remaining())));
      if (options.waitFor !== undefined) await bounded(waitForSelector(page, options.waitFor, remaining, href));
      const html = await bounded(page.content());
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
      };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof TimeoutError) throw error; // wait_for's own, which names the selector
      if (signal.aborted || remaining() <= 0) throw timedOut();
      if (session?.overLimit) throw tooLarge(href, session);
      if (session && session.refusedTargets.some((target) => target.startsWith(`${hostPort} `))) {
        throw refusedError(href, session, hostPort);
      }
      throw renderFailure(error, href, entry?.dead ?? false);
    } finally {
      // In the background: the caller has its answer (or its error at the deadline) now, while the slot stays taken
      // until the context is closed or the browser killed.
      session?.close();
      const closing = entry ? closeContext(context, entry) : Promise.resolve();
      void closing.finally(() => release?.());
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
      const entry = current ?? (await launching?.catch(() => undefined));
      current = undefined;
      if (entry && !entry.dead) {
        entry.dead = true; // before close(): its 'disconnected' is expected, not news for the log
        const closedInTime = await Promise.race([
          entry.launched.browser.close().then(
            () => true,
            () => true,
          ),
          sleep(CLOSE_GRACE_MS).then(() => false),
        ]);
        if (!closedInTime) replace(entry);
      }
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

function tooLarge(url: string, session: EgressSession): FetchError {
  return new FetchError(
    'RESPONSE_TOO_LARGE',
    url,
    `Rendering ${url} downloaded more than ${session.maxBytes} bytes, the render limit; ` +
      'raise RENDER_MAX_SIZE to render larger pages, or read the page without rendering.',
  );
}

function refusedError(url: string, session: EgressSession, hostPort: string): SecurityError {
  const why =
    session.refusedTargets.find((target) => target.startsWith(`${hostPort} `)) ?? session.refusedTargets[0] ?? hostPort;
  return new SecurityError(
    'PRIVATE_ADDRESS',
    url,
    `Refusing to render ${url}: ${why}. Only public internet addresses can be fetched. If this host is meant ` +
      `to be reachable (e.g. a local test server), add its host:port to ALLOW_PRIVATE_HOSTS.`,
  );
}

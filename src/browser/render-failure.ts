// What a failed render tells the agent: Playwright's errors become ours (src/errors.ts), with a message that says
// what happened and what to do. The deadline, cancellation, the byte cap and a refused address are decided by
// browser-renderer.ts before it gets here.
import type { Page } from 'playwright-core';
import { FetchError, SecurityError, TimeoutError, WebReaderError, errorMessage } from '../errors.js';
import type { EgressSession } from './egress-proxy.js';

/** The first line of a Playwright message, without its call log, bounded. */
function firstLine(error: unknown): string {
  const line = errorMessage(error).split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** What happened to the browser and the page while the render failed. */
export interface FailureContext {
  /** The browser exited under the render (it crashed, or was killed). */
  readonly browserDied: boolean;
  /** The page's renderer process crashed, the browser alive (out of memory, or ended as stuck). */
  readonly pageCrashed: boolean;
  /** RENDER_MAX_MEMORY, the script heap cap of each page's renderer, in MB. */
  readonly maxHeapMb: number;
}

export function renderFailure(error: unknown, url: string, what: FailureContext): Error {
  if (error instanceof WebReaderError) return error; // already ours (an invalid wait_for, a wait_for time-out)
  const message = firstLine(error);
  if (/browserType\.launch|Failed to launch/i.test(message)) {
    return new FetchError('BROWSER_FAILED', url, `The browser would not start to render ${url}: ${message}`, {
      cause: error,
    });
  }
  if (what.pageCrashed && !what.browserDied) {
    return new FetchError(
      'BROWSER_FAILED',
      url,
      `The page's renderer crashed while rendering ${url}: a page whose scripts use more than RENDER_MAX_MEMORY ` +
        `(${what.maxHeapMb} MB) ends this way. Read the page without rendering, or raise RENDER_MAX_MEMORY.`,
      { cause: error },
    );
  }
  if (
    what.browserDied ||
    /Target page, context or browser has been closed|Browser has been closed|crash/i.test(message)
  ) {
    return new FetchError(
      'BROWSER_FAILED',
      url,
      `The browser crashed while rendering ${url}. A new one starts on the next call: try again.`,
      { cause: error },
    );
  }
  // A navigation error names Chromium's net error, e.g. net::ERR_CONNECTION_REFUSED or net::ERR_NAME_NOT_RESOLVED.
  const netError = /net::ERR_[A-Z_]+/.exec(message)?.[0];
  return new FetchError(
    'CONNECT_FAILED',
    url,
    netError ? `The browser could not load ${url}: ${netError}.` : `Rendering ${url} failed: ${message}`,
    { cause: error },
  );
}

/** Waits for `selector` (CSS, checked before) to be in the DOM; a missing one is a timeout. */
export async function waitForSelector(
  page: Page,
  selector: string,
  remaining: () => number,
  url: string,
): Promise<void> {
  // Checked as CSS in Node before the call reached the browser (src/tools/render-arguments.ts, and the engine's
  // readPage for the library): `css=` keeps Playwright to its CSS engine whatever the text looks like.
  const shown = selector.length > 200 ? `${selector.slice(0, 200)}…` : selector;
  // A little before the render's deadline, so that the agent reads which selector never came. The wait is ended by
  // a timer here, not by Playwright's own time-out alone: that one is measured in the driver and reported over its
  // pipe, and on a loaded machine it came later than the render's deadline, whose message names no selector.
  const timeoutMs = Math.max(1, remaining() - WAIT_FOR_MARGIN_MS);
  const named = () =>
    new TimeoutError(
      url,
      timeoutMs,
      undefined,
      `wait_for: '${shown}' did not appear in ${url} within ${timeoutMs} ms. Check the selector, or render without wait_for.`,
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(named()), timeoutMs);
  });
  const found = page.waitForSelector(`css=${selector}`, { state: 'attached', timeout: timeoutMs + 1000 });
  found.catch(() => {}); // abandoned when the timer wins, it rejects later
  try {
    await Promise.race([found, expired]);
  } catch (error) {
    if (error instanceof TimeoutError) throw error;
    if (/Timeout/i.test(errorMessage(error))) throw named();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** How long before the render's deadline a `wait_for` gives up, so that its own message is the one the agent reads. */
const WAIT_FOR_MARGIN_MS = 500;

/** The render's downloads passed its byte cap (RENDER_MAX_SIZE). */
export function tooLarge(url: string, session: EgressSession): FetchError {
  return new FetchError(
    'RESPONSE_TOO_LARGE',
    url,
    `Rendering ${url} downloaded more than ${session.maxBytes} bytes, the render limit; ` +
      'raise RENDER_MAX_SIZE to render larger pages, or read the page without rendering.',
  );
}

/** The page itself, or its redirect, is at an address the guard refuses. */
export function refusedError(url: string, session: EgressSession, hostPort: string): SecurityError {
  const why =
    session.refusedTargets.find((target) => target.startsWith(`${hostPort} `)) ?? session.refusedTargets[0] ?? hostPort;
  return new SecurityError(
    'PRIVATE_ADDRESS',
    url,
    `Refusing to render ${url}: ${why}. Only public internet addresses can be fetched. If this host is meant ` +
      `to be reachable (e.g. a local test server), add its host:port to ALLOW_PRIVATE_HOSTS.`,
  );
}

// When a rendered page is ready to read: the network has gone idle (Playwright's 'networkidle': no request for
// 500 ms), then the DOM has not changed for DOM_QUIET_MS — both within a cap, past which we read what is there (a
// page that polls or animates for ever still has content). The DOM's last change is kept from the start by an init
// script, so a page already quiet when the network idles costs no further wait.
import type { BrowserContext, Page } from 'playwright-core';

/** The DOM is settled after this long without a mutation. */
export const DOM_QUIET_MS = 200;

const CLOCK = 'web-reader.lastMutation';

/** Installs, in every document of `context`, a record of when its DOM last changed. */
export async function trackMutations(context: BrowserContext): Promise<void> {
  await context.addInitScript((key) => {
    let last = performance.now();
    new MutationObserver(() => {
      last = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    Object.defineProperty(window, Symbol.for(key), { get: () => last });
  }, CLOCK);
}

/** Waits for the network to go idle, then for the DOM to be quiet, all within `capMs`; never throws. */
export async function settlePage(page: Page, capMs: number): Promise<void> {
  const started = Date.now();
  const settle = async () => {
    await page.waitForLoadState('networkidle', { timeout: Math.max(1, capMs) });
    await page.evaluate(
      ([key, quietMs, maxMs]) =>
        new Promise<void>((resolve) => {
          const since = performance.now();
          const check = () => {
            const now = performance.now();
            const last = (window as unknown as Record<symbol, number | undefined>)[Symbol.for(key)] ?? 0;
            if (now - last >= quietMs || now - since >= maxMs) resolve();
            else setTimeout(check, quietMs - (now - last));
          };
          check();
        }),
      [CLOCK, DOM_QUIET_MS, Math.max(1, capMs - (Date.now() - started))] as const,
    );
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, capMs));
  });
  try {
    await Promise.race([settle().catch(() => {}), cap]);
  } finally {
    clearTimeout(timer);
  }
}

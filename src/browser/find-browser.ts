// Which browser renders: CHROMIUM_PATH when it is set, and then no other (a path that does not exist means no
// browser, never a silent fall-back to another one); else Debian's chromium where its package puts it.
import { access, constants } from 'node:fs/promises';

/** Where Debian's `chromium` package (and older Ubuntu's `chromium-browser`) installs its launcher. */
export const DEFAULT_BROWSER_PATHS: readonly string[] = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The hint an agent (or its operator) reads when no browser is found. */
export const NO_BROWSER_HINT = 'install chromium: apt-get install chromium, or set CHROMIUM_PATH';

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false; // missing or not executable: not a browser we can start
  }
}

/** The executable to launch, or undefined when there is none. */
export async function findBrowser(
  chromiumPath: string | undefined,
  candidates: readonly string[] = DEFAULT_BROWSER_PATHS,
): Promise<string | undefined> {
  if (chromiumPath !== undefined) return (await isExecutable(chromiumPath)) ? chromiumPath : undefined;
  for (const path of candidates) if (await isExecutable(path)) return path;
  return undefined;
}

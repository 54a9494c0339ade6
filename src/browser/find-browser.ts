// Which browser renders: CHROMIUM_PATH when it is set, and then no other (a path that does not exist means no
// browser, never a silent fall-back to another one); else Debian's chromium where its package puts it. A few stat
// calls, made at each render until a browser is found, so that installing one needs no restart.
import { statSync } from 'node:fs';

/** Where Debian's `chromium` package (and older Ubuntu's `chromium-browser`) installs its launcher. */
export const DEFAULT_BROWSER_PATHS: readonly string[] = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** What an agent (or its operator) reads when no browser is found: the one thing that makes rendering work. */
export function noBrowserHint(chromiumPath: string | undefined): string {
  if (chromiumPath === undefined) {
    return 'install Chromium with `apt-get install chromium` (or set CHROMIUM_PATH to a Chromium executable)';
  }
  return `CHROMIUM_PATH names ${JSON.stringify(chromiumPath.slice(0, 200))}, which is not an executable file: point it at Chromium, or unset it to use Debian's (\`apt-get install chromium\`)`;
}

/** A regular file with an execute bit (access(X_OK) would say yes to root for any file). */
export function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false; // missing or unreadable: not a browser we can start
  }
}

/** The executable to launch, or undefined when there is none. */
export function findBrowser(
  chromiumPath: string | undefined,
  candidates: readonly string[] = DEFAULT_BROWSER_PATHS,
): string | undefined {
  if (chromiumPath !== undefined) return isExecutableFile(chromiumPath) ? chromiumPath : undefined;
  return candidates.find(isExecutableFile);
}

// Starts headless Chromium so that nothing it sends bypasses the egress proxy (egress-proxy.ts), and finds its
// process so that a hung browser can be killed: Playwright's Browser from launch() does not expose its process,
// so the launch carries a random marker switch (Chromium ignores switches it does not know) and /proc names the
// process that has it. Playwright spawns the browser as the leader of a new process group (detached), so one
// SIGKILL to the group ends the browser, its renderers and its helpers. /proc is Linux; elsewhere kill() falls back
// to closing the browser, and the process tree's memory reads as 0.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/**
 * The switches that keep every connection on the proxy, besides the --proxy-server given per launch.
 * - `<-loopback>`: Chromium bypasses the proxy for localhost, 127.0.0.0/8 and [::1] unless told not to.
 * - WebRTC: with `disable_non_proxied_udp` it uses only proxied TCP (and there is no TURN server), so no STUN or media
 *   UDP packet leaves; the `force-` switch makes the policy one a page cannot change.
 * - QUIC is UDP and never goes through an HTTP proxy; DNS prefetch would resolve names outside the proxy.
 * - Background networking, component updates, sync: connections Chromium opens on its own, not for the page.
 */
export const GUARD_SWITCHES: readonly string[] = [
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-quic',
  '--dns-prefetch-disable',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
];

export interface LaunchedBrowser {
  readonly browser: Browser;
  /** The browser's process id, when /proc could name it. */
  readonly pid: number | undefined;
  /** SIGKILL to the browser's process group and every process of its tree; never throws. */
  kill(): void;
  /** Resident memory of the browser's whole process tree, in bytes (0 without /proc). */
  residentBytes(): number;
}

export interface LaunchOptions {
  readonly executablePath: string;
  readonly proxyUrl: string;
  readonly timeoutMs: number;
  /** The script heap cap of each renderer (V8's old space), in MB: a page past it crashes its renderer alone. */
  readonly maxHeapMb?: number | undefined;
}

export async function launchBrowser(options: LaunchOptions): Promise<LaunchedBrowser> {
  const marker = `--web-reader-browser=${randomBytes(8).toString('hex')}`;
  // Playwright is loaded here, on the first render, not at start-up: importing it costs ~0.35 s, more than an MCP
  // client's whole wait for `initialize` should be (issue 15; npm run bench:start).
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    // We run as root in containers, where Chromium's sandbox cannot start; the proxy, not the sandbox, is the
    // network guard.
    chromiumSandbox: false,
    timeout: options.timeoutMs,
    // Playwright adds --proxy-server and --proxy-bypass-list=<-loopback> from this; GUARD_SWITCHES repeat the
    // bypass rule so that no environment variable of Playwright's can drop it.
    proxy: { server: options.proxyUrl, bypass: '<-loopback>' },
    args: [
      ...GUARD_SWITCHES,
      ...(options.maxHeapMb === undefined ? [] : [`--js-flags=--max-old-space-size=${options.maxHeapMb}`]),
      marker,
    ],
    // The host process decides when the browser ends (close() or kill()), not Playwright's signal handlers.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const pid = findProcess(marker);
  return {
    browser,
    pid,
    kill() {
      if (pid === undefined) {
        browser.close().catch(() => {}); // without /proc, the best we can do
        return;
      }
      const tree = processTree(pid);
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
      for (const child of tree) {
        try {
          process.kill(child, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
    residentBytes: () => (pid === undefined ? 0 : processTree(pid).reduce((sum, id) => sum + residentOf(id), 0)),
  };
}

/** The process (a child of ours) whose command line holds `marker`. */
function findProcess(marker: string): number | undefined {
  for (const id of processIds()) {
    try {
      const argv = readFileSync(`/proc/${id}/cmdline`, 'utf8').split('\0');
      if (argv.includes(marker) && parentOf(id) === process.pid) return id;
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return []; // no /proc (not Linux)
  }
}

function parentOf(id: number): number | undefined {
  try {
    // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so split after the last ')'.
    const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** `root` and all its descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const id of processIds()) {
    const parent = parentOf(id);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), id]);
  }
  const tree: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const id = stack.pop()!;
    tree.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return tree;
}

function residentOf(id: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${id}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

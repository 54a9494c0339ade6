// The engine, loaded on first use. Reading a page needs the fetcher (undici), the extraction workers, the page
// cache and the browser module; none of them is needed to answer an MCP client's `initialize` or `tools/list`, and
// importing them first made a client wait ~2× a bare SDK server's start-up (issue 15; npm run bench:start). Every
// Engine method is async, so the first call imports engine.ts and the rest wait on the same promise.
//
// With REDIS_URL the engine loads at once: its connection to the shared state must be up before the first call, or
// that call would run on this replica's memory alone (src/shared-state/). A replica is a server behind a balancer,
// not a process an MCP client is waiting on.
import type { Config } from '../config.js';
import type { Engine } from './engine.js';

export function createLazyEngine(config: Config): Engine {
  let loading: Promise<Engine> | undefined;
  const engine = () => (loading ??= import('./engine.js').then(({ createEngine }) => createEngine(config)));
  if (config.redisUrl !== undefined) void engine();
  return {
    config,
    loadPage: async (...args) => (await engine()).loadPage(...args),
    readPage: async (...args) => (await engine()).readPage(...args),
    readLlmsTxt: async (...args) => (await engine()).readLlmsTxt(...args),
    parseSitemap: async (...args) => (await engine()).parseSitemap(...args),
    robotsRules: async (...args) => (await engine()).robotsRules(...args),
    // Without REDIS_URL there is nothing shared to ask about, and /healthz must not load the engine to say so.
    sharedStateHealth: async () => (config.redisUrl === undefined ? 'off' : (await engine()).sharedStateHealth()),
    // Without REDIS_URL sessions are this process's own, and must not load the engine to learn it.
    mcpSessionSharing: async () => (config.redisUrl === undefined ? undefined : (await engine()).mcpSessionSharing?.()),
    sharedResumeStore: async () => (config.redisUrl === undefined ? undefined : (await engine()).sharedResumeStore()),
    // Never loaded, nothing to close.
    close: async () => {
      if (loading) await (await loading).close();
    },
  };
}

// Whose work a pool task is: the caller (an MCP session, else one tool call) carried by an AsyncLocalStorage from
// where the call starts (tools/run-tool.ts; server.ts names the session), as log.ts carries a call's log sink. The
// pool takes turns between callers and keeps a worker for the others (pool.ts): one caller's heavy pages cannot hold
// every worker. Work run outside any call (a test, a direct library call of the engine) is a caller of its own.
import { AsyncLocalStorage } from 'node:async_hooks';

/** A caller: compared by identity, never read. */
export type Caller = object;

const callers = new AsyncLocalStorage<Caller>();

/** Runs `fn` with its pool tasks counted as `caller`'s. */
export function runAsCaller<T>(caller: Caller, fn: () => T): T {
  return callers.run(caller, fn);
}

/** The caller whose call is running, or a new one when none is. */
export function currentCaller(): Caller {
  return callers.getStore() ?? {};
}

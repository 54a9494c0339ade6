// The engine, loaded on first use. Reading a page needs the fetcher (undici), the extraction workers and the
// browser module; none of them is needed to answer an MCP client's `initialize` or `tools/list`, and importing them
// first made a client wait ~2× a bare SDK server's start-up (issue 15; npm run bench:start). Every Engine method is
// async, so the first call imports engine.ts and the rest wait on the same promise.
//
// Derived from the Engine interface, not a copy of it: a Proxy answers every method name with one that waits for
// the engine and calls the real one, so a method added to Engine needs no edit here. The type check below refuses
// an Engine member this cannot stand in for (a method that does not return a promise, a field besides `config`).
//
// The shared state (the page cache, and with REDIS_URL the connection to Redis) is built by the composition root
// before this, so a replica's first call is served from the shared state whether or not the engine is loaded yet.
import type { Config } from '../config.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { Engine } from './engine.js';

/** Every Engine member but `config` is a method returning a promise: a call that first loads the engine fits it. */
type Deferrable = { readonly config: Config } & {
  [K in Exclude<keyof Engine, 'config'>]-?: (...args: never[]) => Promise<unknown>;
};
const engineIsDeferrable: Engine extends Deferrable ? true : never = true;
void engineIsDeferrable;

export function createLazyEngine(config: Config, sharedState: SharedState | Promise<SharedState>): Engine {
  let loading: Promise<Engine> | undefined;
  const engine = () =>
    (loading ??= Promise.all([import('./engine.js'), sharedState]).then(([{ createEngine }, shared]) =>
      createEngine(config, { sharedState: shared }),
    ));
  const own: Pick<Engine, 'config' | 'close'> = {
    config,
    // Never loaded, nothing to close.
    close: async () => {
      if (loading) await (await loading).close();
    },
  };
  return new Proxy(own as Engine, {
    get(target, key, receiver) {
      if (key in target) return Reflect.get(target, key, receiver);
      // Not a thenable (`await engine` must not call a method), and no symbol is an Engine method.
      if (typeof key !== 'string' || key === 'then') return undefined;
      return async (...args: unknown[]) => {
        const loaded = (await engine()) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
        return loaded[key]!(...args);
      };
    },
  });
}

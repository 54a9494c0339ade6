// The engine, loaded on first use. Reading a page needs the fetcher (undici), the extraction workers and the
// browser module; none of them is needed to answer an MCP client's `initialize` or `tools/list`, and importing them
// first made a client wait ~2× a bare SDK server's start-up (issue 15; npm run bench:start). Every Engine method is
// async, so the first call imports engine.ts and the rest wait on the same promise.
//
// Derived from the Engine interface, not a copy of it: a Proxy answers every method name with one that waits for
// the engine and calls the real one, so a method added to Engine needs no edit here. The type check below refuses
// an Engine member this cannot stand in for (a method that does not return a promise, a field besides `config`).
//
// Warming (Engine.warm, issue 23 item 7) starts an extraction worker before the engine's own modules load: the
// extractor is built here, from its small module, and handed to the engine, so the worker loads its modules on
// another core while this thread loads the engine's (undici, the parser) instead of after them.
//
// The shared state (the page cache, and with REDIS_URL the connection to Redis) is built by the composition root
// before this, so a replica's first call is served from the shared state whether or not the engine is loaded yet.
import type { Config } from '../config.js';
import type { SharedState } from '../shared-state/shared-state.js';
import type { Extractor } from '../workers/extractor.js';
import type { Engine } from './engine.js';

/** Every Engine member but `config` is a method returning a promise: a call that first loads the engine fits it. */
type Deferrable = { readonly config: Config } & {
  [K in Exclude<keyof Engine, 'config'>]-?: (...args: never[]) => Promise<unknown>;
};
const engineIsDeferrable: Engine extends Deferrable ? true : never = true;
void engineIsDeferrable;

export function createLazyEngine(config: Config, sharedState: SharedState | Promise<SharedState>): Engine {
  let loading: Promise<Engine> | undefined;
  let extracting: Promise<Extractor> | undefined;
  const extractor = () =>
    (extracting ??= import('../workers/extractor.js').then(({ createExtractor }) => createExtractor(config)));
  const engine = () =>
    (loading ??= Promise.all([import('./engine.js'), sharedState, extractor()]).then(
      ([{ createEngine }, shared, extractor]) => createEngine(config, { sharedState: shared, extractor }),
    ));
  const own: Pick<Engine, 'config' | 'close' | 'warm'> = {
    config,
    warm: async () => {
      (await extractor()).warm();
      await (await engine()).warm();
    },
    // Never loaded, nothing to close; a loaded engine closes its extractor too.
    close: async () => {
      if (loading) await (await loading).close();
      else if (extracting) await (await extracting).close();
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

// Warming the first call (issue 23 item 7). `initialize` is answered before anything that only reading a page needs
// is loaded (issue 15), so without this the client's first call would pay for all of it: the engine's modules
// (undici, the parser), then an extraction worker's start, one after the other. Once the client says it is
// initialized, the server starts them in the background while the client lists its tools: the engine's import on
// this thread, the worker on its own. A call that comes first waits on the same loading, never on a second one.
//
// The tokenizer's ranks are not warmed: a page whose text surely fits MAX_OUTPUT_TOKENS in UTF-8 bytes alone never
// counts its tokens (src/tokens.ts tokenBound), and loading them here would hold this thread when the first call
// comes at once. npm run bench:start measures the first fetch result against a bare SDK server's plain fetch.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Engine } from '../engine/engine.js';
import { errorMessage } from '../errors.js';
import { log } from '../log.js';
import { loadTokenizer } from '../tokens.js';

/** Warms `engine` once `server`'s client is initialized, after the loop has answered what is waiting. */
export function warmOnInitialized(server: Server, engine: Engine): void {
  const before = server.oninitialized;
  server.oninitialized = () => {
    before?.();
    setImmediate(() => {
      engine.warm().catch((error: unknown) => log('warn', `Warming up failed: ${errorMessage(error)}`));
    });
  };
}

/**
 * A server of many clients (`serve --http`) warms everything once it listens: the engine, a worker, and the
 * tokenizer's ranks, whose loading holds this thread for 0.1–0.3 s. Left to the first long page, it held /healthz and
 * every other call then (bench:load: /healthz p99 235–334 ms, against 56–85 ms with the ranks loaded at start).
 */
export function warmForServing(engine: Engine): void {
  setImmediate(() => {
    Promise.all([engine.warm(), loadTokenizer()]).catch((error: unknown) =>
      log('warn', `Warming up failed: ${errorMessage(error)}`),
    );
  });
}

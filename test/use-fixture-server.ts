// The fixture server for one test file, started before its tests and closed after them (STYLE §5). Files used to
// copy a `let server` with its beforeAll/afterAll pair; this is that pair, written once.
//
//   const server = useFixtureServer((server) => server.route('/mine', handler));
//   it('…', async () => { … server.url('/mine') … });
import { afterAll, beforeAll } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

/** Starts a fixture server in beforeAll (then runs `setup` on it, e.g. to add routes) and closes it in afterAll. */
export function useFixtureServer(setup?: (server: FixtureServer) => void | Promise<void>): FixtureServer {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await startFixtureServer();
    await setup?.(server);
  });
  afterAll(() => server?.close());
  return standIn('fixture server', () => server);
}

/**
 * A stand-in for something a beforeAll hook creates. Files name `server` or `session` at the top, as they did with
 * `let`, but the real object exists only once the hook has run: the stand-in forwards every property to it then,
 * and says so if a test file reaches it earlier (at import time, say).
 */
export function standIn<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const target = current();
      if (!target) throw new Error(`The ${what} is not started yet: use it inside a test or a hook.`);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// One MCP session for a test file: the fixture server with the file's routes, then the built CLI as an MCP server
// over stdio (a real SDK Client) reaching it through ALLOW_PRIVATE_HOSTS, both closed after the file. Files used to
// copy these beforeAll/afterAll blocks (issue 12 §7).
//
//   const { server, session } = useMcpSession({ tools: 'fetch', setup: addContentRoutes });
//   it('…', async () => { const result = await session.call('fetch', { url: server.url('/feed.rss') }); … });
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { FixtureServer } from '../fixture-server.js';
import { standIn, useFixtureServer } from '../use-fixture-server.js';
import { connectStdio, type StdioSession } from './stdio-client.js';

type Env = Record<string, string>;

export interface McpSessionOptions {
  /** The `--tools` value; none starts the CLI's default tools. */
  readonly tools?: string;
  /** Routes and other set-up on the fixture server, run before the MCP server starts. */
  readonly setup?: (server: FixtureServer) => void | Promise<void>;
  /**
   * Environment over ALLOW_PRIVATE_HOSTS=server.hostPort and PER_DOMAIN_INTERVAL=0; a function when it needs
   * something `setup` made (another loopback port to allow, say).
   */
  readonly env?: Env | ((server: FixtureServer) => Env);
  /** Reach this fixture server (a file's own) instead of starting one: a second session in a describe block. */
  readonly server?: FixtureServer;
  /** No shared session: each test calls connect() for its own server process, and so its own page cache. */
  readonly perTest?: boolean;
}

export interface McpSession {
  readonly server: FixtureServer;
  /** The session shared by the file's tests, started in beforeAll. */
  readonly session: StdioSession;
  /** A fresh server process with the options' environment plus `env`, closed after the test that opened it. */
  connect(env?: Env): Promise<StdioSession>;
}

export function useMcpSession(options: McpSessionOptions = {}): McpSession {
  const server = options.server ?? useFixtureServer(options.setup);
  const open = (extra: Env = {}) =>
    connectStdio(options.tools === undefined ? [] : ['--tools', options.tools], {
      ALLOW_PRIVATE_HOSTS: server.hostPort,
      PER_DOMAIN_INTERVAL: '0',
      ...(typeof options.env === 'function' ? options.env(server) : options.env),
      ...extra,
    });

  let shared: StdioSession | undefined;
  if (!options.perTest) {
    beforeAll(async () => {
      shared = await open();
    });
    // Registered after the fixture server's afterAll, so it runs first (vitest runs after-hooks as a stack).
    afterAll(() => shared?.close());
  }

  let current: StdioSession | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  return {
    server,
    session: standIn('MCP session', () => shared),
    async connect(env) {
      current = await open(env);
      return current;
    },
  };
}

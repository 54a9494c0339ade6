// `web-reader serve --http` as a user runs it: the built CLI as a child process, its stderr log, SIGTERM.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../fixture-server.js';
import { startServeHttp, type ServedHttp } from '../replica-process.js';

interface Served extends ServedHttp {
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];

async function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const served = await startServeHttp(env, args);
  children.push(served.child);
  return {
    ...served,
    stop: () => {
      served.child.kill('SIGTERM');
      return served.exited;
    },
  };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('web-reader serve --http', () => {
  it('serves MCP and the JSON API with a token, logs one line per request, and exits 0 on SIGTERM', async () => {
    const fixtures = await startFixtureServer();
    try {
      const served = await serve(['--token', 'tok', '--tools', 'fetch'], { ALLOW_PRIVATE_HOSTS: fixtures.hostPort });
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const auth = { authorization: 'Bearer tok' };

      expect((await fetch(`${served.url}/tools`)).status).toBe(401);
      const listing = (await (await fetch(`${served.url}/tools`, { headers: auth })).json()) as { name: string }[];
      expect(listing.map((tool) => tool.name)).toContain('web_scraper'); // the API offers every tool

      const client = new Client({ name: 'cli-test', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), { requestInit: { headers: auth } }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['fetch']); // MCP offers the --tools selection
      const result = await client.callTool({ name: 'fetch', arguments: { url: fixtures.url('/html') } });
      expect(result.isError).toBeFalsy();
      await client.close();

      expect(await served.stop()).toBe(0);
      expect(served.stderr()).toMatch(/GET \/tools - 401 \d+ms/);
      expect(served.stderr()).toMatch(/POST \/mcp fetch 200 \d+ms/);
      expect(served.stderr()).toContain('SIGTERM: shutting down');
    } finally {
      await fixtures.close();
    }
  });

  it('warns when bound to a non-loopback address without a token', async () => {
    const served = await serve(['--host', '0.0.0.0']);
    expect(served.stderr()).toMatch(/warn: Listening on 0\.0\.0\.0, reachable from other machines, without a token/);
    expect(await served.stop()).toBe(0);
  });

  it('does not warn on loopback', async () => {
    const served = await serve([]);
    expect(await served.stop()).toBe(0);
    expect(served.stderr()).not.toContain('warn:');
  });
});

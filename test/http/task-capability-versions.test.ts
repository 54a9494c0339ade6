// MCP Tasks came in protocol 2025-11-25: a 2025 client that negotiated an earlier version (2025-06-18, what the MCP
// Inspector and many hosts still send) is not offered them — no `tasks` capability in the initialize answer, no
// `execution.taskSupport` on its tools — while a 2025-11-25 client is (issue 25). Raw initialize over Streamable
// HTTP, since the v1 SDK's Client always asks for its latest version.
import { describe, expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { MCP_HEADERS, useTestHttpServer } from './http-harness.js';

const fixtures = useFixtureServer();
const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: fixtures.hostPort }));

/** The JSON-RPC message of a response, JSON or a one-event SSE stream. */
async function messageOf(response: Response): Promise<{ result?: Record<string, unknown> }> {
  const text = await response.text();
  const data = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data: '))!
        .slice(6);
  return JSON.parse(data) as { result?: Record<string, unknown> };
}

async function openSession(protocolVersion: string) {
  const init = await fetch(http.mcpUrl, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
  const initialized = (await messageOf(init)).result!;
  const headers = {
    ...MCP_HEADERS,
    'mcp-session-id': init.headers.get('mcp-session-id')!,
    'mcp-protocol-version': protocolVersion,
  };
  await (
    await fetch(http.mcpUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
  ).text();
  const list = await fetch(http.mcpUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const tools = (await messageOf(list)).result!.tools as Array<{ name: string; execution?: unknown }>;
  return { initialized, crawl: tools.find((tool) => tool.name === 'crawl')! };
}

describe('the tasks capability by negotiated protocol version', () => {
  it('is not offered to a 2025-06-18 client: no tasks capability, no taskSupport on crawl', async () => {
    const { initialized, crawl } = await openSession('2025-06-18');
    expect(initialized.protocolVersion).toBe('2025-06-18');
    expect(initialized.capabilities).toMatchObject({ tools: {}, logging: {} });
    expect(initialized.capabilities).not.toHaveProperty('tasks');
    expect(crawl).not.toHaveProperty('execution');
  });

  it('is offered to a 2025-11-25 client', async () => {
    const { initialized, crawl } = await openSession('2025-11-25');
    expect(initialized.protocolVersion).toBe('2025-11-25');
    expect(initialized.capabilities).toMatchObject({ tasks: { requests: { tools: { call: {} } } } });
    expect(crawl.execution).toEqual({ taskSupport: 'optional' });
  });
});

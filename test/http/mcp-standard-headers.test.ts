// The standard headers of a 2026-07-28 request over Streamable HTTP (MCP-Protocol-Version, Mcp-Method, Mcp-Name)
// say what its body says; one that disagrees is refused with a 400 naming the header's value and the body's, before
// any tool runs (issue 25 scope 4). The SDK's v2 line checks them; this keeps it so.
import { describe, expect, it } from 'vitest';
import { useTestHttpServer } from './http-harness.js';

const http = useTestHttpServer(() => ({}));

const MODERN = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'headers-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function post(headers: Record<string, string>, body: unknown) {
  return fetch(http.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } };
const callFetch = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'fetch', arguments: { url: 'http://127.0.0.1:9/' }, _meta: envelope },
};

// The tasks extension's binding (SEP-2663): Mcp-Name carries a tasks/* request's params.taskId. The conformance
// suite's check of it (tasks-request-headers) needs a task of its own fixture tools, so it is kept here instead.
const getTask = {
  jsonrpc: '2.0',
  id: 3,
  method: 'tasks/get',
  params: { taskId: 'the-task', _meta: envelope },
};

describe('the standard headers of a 2026-07-28 request', () => {
  it('are accepted when they agree with the body', async () => {
    const response = await post({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }, listTools);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { result: Record<string, unknown> };
    expect((answer.result.tools as Array<{ name: string }>)[0]!.name).toBe('fetch');
    // The revision's result fields: resultType, and the list's cache hints.
    expect([answer.result.resultType, answer.result.ttlMs, answer.result.cacheScope]).toEqual([
      'complete',
      60 * 60 * 1000,
      'public',
    ]);
  });

  it.each([
    ['mcp-method', { 'mcp-method': 'tools/call' }, listTools, ['tools/call', 'tools/list']],
    ['mcp-name', { 'mcp-method': 'tools/call', 'mcp-name': 'links' }, callFetch, ['links', 'fetch']],
    ['mcp-protocol-version', { 'mcp-protocol-version': '2025-11-25' }, listTools, ['2025-11-25', MODERN]],
    ['mcp-name (tasks/get)', { 'mcp-name': 'another-task' }, getTask, ['another-task', 'the-task']],
  ])('refuse a %s header that disagrees: 400 naming both', async (_header, headers, body, named) => {
    const response = await post({ 'mcp-protocol-version': MODERN, 'mcp-method': body.method, ...headers }, body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32020); // HeaderMismatch
    for (const value of named) expect(answer.error.message).toContain(value);
  });
});

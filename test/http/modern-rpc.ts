// One 2026-07-28 request over Streamable HTTP as raw JSON-RPC, for what the SDK's v2 client (2.4.0) does not speak:
// the tasks extension (`io.modelcontextprotocol/tasks`). Its standard headers agree with its body.

export const MODERN = '2026-07-28';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface RpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

/** POSTs one request to `mcpUrl`; `declared`: its `_meta` declares the tasks extension. Returns its answer. */
export async function requestModern(
  mcpUrl: URL | string,
  method: string,
  params: Record<string, unknown>,
  declared = true,
): Promise<RpcAnswer> {
  const name = (params.name ?? params.taskId) as string | undefined;
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '0' },
          'io.modelcontextprotocol/clientCapabilities': declared ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .findLast((line) => line.startsWith('data: '))!
        .slice(6);
  return JSON.parse(data) as RpcAnswer;
}

/** A result without the `_meta` the SDK stamps on every response (the server's identity). */
export function withoutMeta(result: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!result) return result;
  const { _meta: _stamp, ...rest } = result;
  return rest;
}

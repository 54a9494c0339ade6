// How the HTTP front doors answer: HttpError, a refusal with its status, and the JSON writers that turn it into a
// body in the dialect of the route. Shared by the server, the guard, the MCP sessions and the tools API, so each
// status leaves in the same shape whichever of them refused the request.
import type { ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** An error body in the dialect of the route: JSON-RPC on /mcp, the tools-API result on /tools, else plain. */
export function sendError(res: ServerResponse, route: string, status: number, message: string, headers = {}): void {
  if (route === '/mcp') {
    // -32000 is the SDK's code for transport-level refusals; -32700 for unparseable JSON (JSON-RPC 2.0 §5.1).
    const code = status === 400 && message.startsWith('Parse error') ? -32700 : -32000;
    sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
  } else if (route.startsWith('/tools')) {
    sendJson(res, status, { success: false, result: null, error: message, execution_time_ms: 0 }, headers);
  } else {
    sendJson(res, status, { error: message }, headers);
  }
}

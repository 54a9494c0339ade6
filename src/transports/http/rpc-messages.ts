// What the session layer reads in a POST body on /mcp before the SDK does: what to log, which requests a hang-up
// cancels, and which notifications/cancelled other replicas must hear (mcp-sessions.ts). JSON-RPC 2.0 allows a
// batch (an array) where a single message may stand.
import { isJSONRPCNotification, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { quoteInput } from '../../quote.js';

/** The tool a JSON-RPC message calls, or its method, for the log line (log() escapes it; this bounds it). */
export function describeRpc(message: unknown): string {
  const first = (Array.isArray(message) ? message[0] : message) as
    { method?: unknown; params?: { name?: unknown } } | undefined;
  if (first?.method === 'tools/call' && typeof first.params?.name === 'string') return quoteInput(first.params.name);
  return typeof first?.method === 'string' ? quoteInput(first.method) : '-';
}

/** The ids of the JSON-RPC requests (not notifications or responses) in a POST body. */
export function requestIdsOf(message: unknown): RequestId[] {
  return (Array.isArray(message) ? message : [message]).filter(isJSONRPCRequest).map((request) => request.id);
}

/** The notifications/cancelled in a POST body, to pass on to the replica running the request. */
export function cancellationsOf(message: unknown): Array<{ requestId: RequestId; reason?: string }> {
  return (Array.isArray(message) ? message : [message])
    .filter(isJSONRPCNotification)
    .filter((notification) => notification.method === 'notifications/cancelled')
    .map((notification) => notification.params as { requestId?: unknown; reason?: unknown } | undefined)
    .filter((params) => typeof params?.requestId === 'string' || typeof params?.requestId === 'number')
    .map((params) => ({
      requestId: params!.requestId as RequestId,
      ...(typeof params!.reason === 'string' ? { reason: params!.reason } : {}),
    }));
}

// Taking up on this replica a Streamable HTTP session that another replica opened (REDIS_URL, docs/scale-out.md).
// The SDK (1.32) has no API for it: a transport becomes a session's own only by answering that session's initialize,
// and a Server learns the client's capabilities and name only from it. So this does what answering initialize does
// to both, from the initialize params the opening replica stored, and nothing else: the one place that reaches into
// SDK internals, checked so that an SDK that renames them fails loudly here instead of serving sessions half-made.
//
// The protocol version needs nothing: over HTTP every request after initialize carries its own
// MCP-Protocol-Version header, which the transport checks (MCP spec, Transports "Protocol Version Header").
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { InitializeRequest } from '@modelcontextprotocol/sdk/types.js';

interface TransportInternals {
  _webStandardTransport?: { sessionId?: string; _initialized?: boolean };
}

interface ServerInternals {
  _oninitialize?: (request: InitializeRequest) => Promise<unknown>;
}

export async function resumeSession(
  server: McpServer,
  transport: StreamableHTTPServerTransport,
  sessionId: string,
  initialize: Record<string, unknown>,
): Promise<void> {
  const inner = (transport as unknown as TransportInternals)._webStandardTransport;
  const oninitialize = (server as unknown as ServerInternals)._oninitialize;
  if (typeof inner?._initialized !== 'boolean' || typeof oninitialize !== 'function') {
    throw new Error(
      'This @modelcontextprotocol/sdk no longer has the internals resume-session.ts sets: a session cannot be taken ' +
        'up from another replica. Update src/transports/http/resume-session.ts for it.',
    );
  }
  // As the transport's own initialize handling: the session id it answers with, and the session it then checks.
  inner.sessionId = sessionId;
  inner._initialized = true;
  // As the Server's initialize handler: the client's capabilities and clientInfo (its answer is not sent).
  await oninitialize.call(server, { method: 'initialize', params: initialize } as InitializeRequest);
}

// MCP over stdio: what Claude Desktop, Claude Code and Cursor launch. stdout is the protocol channel; all logs go
// to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine.js';
import { log } from '../log.js';
import { createMcpServer } from '../server.js';
import type { AnyTool } from '../tools/registry.js';

export async function serveStdio(engine: Engine, tools: readonly AnyTool[]): Promise<void> {
  const server = createMcpServer(engine, tools);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  log('info', `MCP server on stdio with tools: ${tools.map((tool) => tool.name).join(', ')}`);
  // The client closing stdin ends the session and the process.
  process.stdin.on('end', () => void server.close());
  await closed;
  await engine.close();
}

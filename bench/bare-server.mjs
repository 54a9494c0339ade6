// The floor for bench/start.mjs: an MCP server built on the same SDK over stdio, nothing else. Two tools: `echo`
// (trivial), and `fetch`, which does a plain `fetch()` of the URL and returns its text (what a first call costs a
// server that only fetches: Node's fetch loaded on first use, one loopback request).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'bare', version: '1.0.0' });
server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
server.registerTool('fetch', { description: 'Fetch a URL', inputSchema: { url: z.string() } }, async ({ url }) => {
  const response = await globalThis.fetch(url);
  return { content: [{ type: 'text', text: await response.text() }] };
});
await server.connect(new StdioServerTransport());

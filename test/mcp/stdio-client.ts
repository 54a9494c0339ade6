// A real MCP client over stdio, talking to the built CLI exactly as Claude Desktop or Claude Code would.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const CLI_PATH = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface StdioSession {
  readonly client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string }>;
  close(): Promise<void>;
}

export async function connectStdio(args: string[], env: Record<string, string>): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'web-reader-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name, callArgs) {
      const result = (await client.callTool({ name, arguments: callArgs })) as CallToolResult;
      const first = result.content[0];
      return { ...result, text: first?.type === 'text' ? first.text : '' };
    },
    close: () => client.close(),
  };
}

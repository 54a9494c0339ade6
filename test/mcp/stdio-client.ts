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

/** TESSERACT_PATH of the test run, for the processes it starts (test/ocr-notice.ts finds tesseract the same way). */
export function testTesseract(): Record<string, string> {
  return process.env.TESSERACT_PATH ? { TESSERACT_PATH: process.env.TESSERACT_PATH } : {};
}

export async function connectStdio(args: string[], env: Record<string, string>): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, ...args],
    // TESSERACT_PATH passes through, so a run with it set (to no executable) tests the product without OCR.
    env: { PATH: process.env.PATH ?? '', ...testTesseract(), ...env },
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

// Runs a tool for any front door: validates the arguments with the tool's own schema, runs it, and turns any
// failure into the one failure output. Never throws.
import { z } from 'zod';
import { cleanStrings, cleanText } from '../clean-text.js';
import { InvalidArgumentError } from '../errors.js';
import { quoteInput } from '../quote.js';
import { failureOutput } from './failure.js';
import type { AnyTool } from './registry.js';
import type { ToolContext, ToolOutput } from './types.js';

/** The first problem with the arguments, as a sentence naming the argument. */
export function describeArgumentError(tool: AnyTool, error: z.ZodError): InvalidArgumentError {
  const issue = error.issues[0];
  const argument = issue?.path.join('.') || 'arguments';
  let message = issue?.message ?? 'invalid arguments';
  if (issue?.code === 'unrecognized_keys') {
    // The names are the caller's input: each is quoted within bounds, and a flood of them is counted, not listed.
    const shown = issue.keys.slice(0, 5).map((key) => `'${quoteInput(key)}'`);
    const more = issue.keys.length > shown.length ? ` and ${issue.keys.length - shown.length} more` : '';
    message = `unknown argument ${shown.join(', ')}${more}`;
  }
  if (!message.includes(argument)) message = `${argument}: ${message}`;
  return new InvalidArgumentError(argument, `Invalid arguments for tool ${tool.name}: ${message}`);
}

export function parseArguments(tool: AnyTool, args: unknown): Record<string, unknown> {
  const parsed = z.object(tool.inputShape).safeParse(args ?? {});
  if (!parsed.success) throw describeArgumentError(tool, parsed.error);
  return parsed.data;
}

/**
 * Output hygiene (src/clean-text.ts) over everything a tool returns: the text, the structured result and the data.
 * Every front door (MCP over stdio and HTTP, the JSON API, the CLI's read/links/scrape, the library) takes its
 * output from runTool, so this is the one place every text output passes, error messages included. Page content is
 * already clean at its source (engine readPage, so that budgets and start_index count the text returned); this pass
 * covers the rest: link text, titles, web_scraper JSON, crawl reports and echoes of the caller's input.
 */
export function cleanOutput(output: ToolOutput): ToolOutput {
  return {
    ...output,
    text: cleanText(output.text),
    structured: cleanStrings(output.structured),
    ...(output.data !== undefined && { data: cleanStrings(output.data) }),
  };
}

export async function runTool(tool: AnyTool, args: unknown, context: ToolContext): Promise<ToolOutput> {
  try {
    return cleanOutput(await tool.run(parseArguments(tool, args), context));
  } catch (error) {
    return cleanOutput(failureOutput(error));
  }
}

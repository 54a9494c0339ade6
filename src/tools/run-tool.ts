// Runs a tool for any front door: validates the arguments with the tool's own schema, runs it, and turns any
// failure into the one failure output. Never throws.
import { z } from 'zod';
import { InvalidArgumentError } from '../errors.js';
import { failureOutput } from './failure.js';
import type { AnyTool } from './registry.js';
import type { ToolContext, ToolOutput } from './types.js';

/** The first problem with the arguments, as a sentence naming the argument. */
export function describeArgumentError(tool: AnyTool, error: z.ZodError): InvalidArgumentError {
  const issue = error.issues[0];
  const argument = issue?.path.join('.') || 'arguments';
  let message = issue?.message ?? 'invalid arguments';
  if (issue?.code === 'unrecognized_keys') {
    message = `unknown argument ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
  }
  if (!message.includes(argument)) message = `${argument}: ${message}`;
  return new InvalidArgumentError(argument, `Invalid arguments for tool ${tool.name}: ${message}`);
}

export function parseArguments(tool: AnyTool, args: unknown): Record<string, unknown> {
  const parsed = z.object(tool.inputShape).safeParse(args ?? {});
  if (!parsed.success) throw describeArgumentError(tool, parsed.error);
  return parsed.data;
}

export async function runTool(tool: AnyTool, args: unknown, context: ToolContext): Promise<ToolOutput> {
  try {
    return await tool.run(parseArguments(tool, args), context);
  } catch (error) {
    return failureOutput(error);
  }
}

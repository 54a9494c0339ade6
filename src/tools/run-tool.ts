// Runs a tool for any front door: validates the arguments with the tool's own schema, runs it, and turns any
// failure into the one failure output. Never throws.
import { z } from 'zod';
import { cleanStrings, cleanText } from '../clean-text.js';
import { InvalidArgumentError } from '../errors.js';
import { countToolCall } from '../metrics.js';
import { quoteInput } from '../quote.js';
import { invalidToolArguments, unknownArguments } from '../output/notices.js';
import { runAsCaller } from '../workers/callers.js';
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
    // The closest known name is suggested: agents often send camelCase (`maxLength`) for snake_case arguments.
    const shown = issue.keys.slice(0, 5).map((key) => `"${quoteInput(key)}"`);
    const known = Object.keys(tool.inputShape);
    const guess = issue.keys.length === 1 ? closestName(issue.keys[0]!, known) : undefined;
    message = unknownArguments(shown, issue.keys.length - shown.length, guess, known);
    return new InvalidArgumentError(issue.keys[0]!.slice(0, 100), invalidToolArguments(tool.name, message));
  }
  if (!message.includes(argument)) message = `${argument}: ${message}`;
  return new InvalidArgumentError(argument, invalidToolArguments(tool.name, message));
}

/**
 * The known name an unknown one was most likely meant to be: the same letters without case, `_` and `-`
 * (`maxLength`, `max-length`), else at most two edits away (`max_lenght`), else none.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const plain = (value: string) => value.toLowerCase().replace(/[_-]/g, '');
  const exact = known.find((candidate) => plain(candidate) === plain(name));
  if (exact) return exact;
  if (name.length > 100) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(plain(name), plain(candidate));
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The tool's arguments as a strict object: an unknown name is an error, never silently dropped. */
export function argumentsSchema(tool: AnyTool) {
  return z.strictObject(tool.inputShape);
}

/** The arguments checked by the tool's schema; async, as some checks load their engine on first use (selectors). */
export async function parseArguments(tool: AnyTool, args: unknown): Promise<Record<string, unknown>> {
  const parsed = await argumentsSchema(tool).safeParseAsync(args ?? {});
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

/**
 * The text of a result for a front door that sends no images (the JSON API's `result.text`, the CLI's --json): the
 * tool's text, then each image's caption, the line MCP gives after the image itself (fetch with `screenshot`).
 */
export function textWithCaptions(output: ToolOutput): string {
  const captions = (output.images ?? []).flatMap((image) => (image.caption === undefined ? [] : [image.caption]));
  return [output.text, ...captions].join('\n\n');
}

export async function runTool(tool: AnyTool, args: unknown, context: ToolContext): Promise<ToolOutput> {
  let output: ToolOutput;
  try {
    const parsed = await parseArguments(tool, args);
    // The call's pool tasks are its caller's (a session's), taking turns with every other caller's.
    output = cleanOutput(await runAsCaller(context.caller ?? {}, () => tool.run(parsed, context)));
  } catch (error) {
    output = cleanOutput(failureOutput(error));
  }
  // Counted here, where every front door's calls pass (/metrics). A failure without an error (a crawl that read no
  // page) counts as UNKNOWN.
  const code = output.isError
    ? ((output.structured.error as { code?: string } | undefined)?.code ?? 'UNKNOWN')
    : undefined;
  countToolCall(tool.name, context.frontDoor, code);
  return output;
}

#!/usr/bin/env node
// The command line: argv → Config → the same engine and tools as every other front door → stdout.
// With no command it is the MCP server on stdio, which is what MCP clients launch.
//
// The composition root (with src/index.ts): the Config and the shared state (src/shared-state/: memory, or Redis
// with REDIS_URL) are built here once, and handed to the engine, the transports and the crawl.
//
// Start-up is what an MCP client waits for before `initialize` is answered, so this file imports only what every
// command needs; the HTTP transport, the crawl command, the engine's innards, the Redis state and the explain
// formatter are loaded by the command that uses them (npm run bench:start).
import { writeFile } from 'node:fs/promises';
import { resolveConfig, type Config } from '../config.js';
import { createLazyEngine } from '../engine/lazy-engine.js';
import { createSharedState, type SharedState } from '../shared-state/shared-state.js';
import { errorMessage, InvalidArgumentError } from '../errors.js';
import { cliReadCutLine } from '../output/notices.js';
import { findTool, selectTools, type AnyTool } from '../tools/registry.js';
import { runTool, textWithCaptions } from '../tools/run-tool.js';
import type { ToolOutput } from '../tools/types.js';
import { serveStdio } from '../transports/stdio.js';
import { VERSION } from '../version.js';
import { isNothingToRead, type Outcome } from '../outcome.js';
import {
  commandIn,
  configFlags,
  helpHint,
  integerFlag,
  oneUrl,
  parseCommandLine,
  withScheme,
  type Values,
} from './command-line.js';
import { inFlagWords, statusLineInFlagWords } from './flag-words.js';
import type { Command } from './commands.js';
import { commandHelp, mainHelp } from './help.js';
import { actionsFlag, dataFlags, renderFlags, selectFlags } from './reading-flags.js';
import { asSentence, CLI_SENTENCES } from '../output/notices.js';

/** Exit codes, one table: scripts tell success from each kind of failure. */
export const EXIT = {
  OK: 0,
  FAILED: 1, // the page could not be read: network, HTTP status, security refusal, timeout
  USAGE: 2, // a wrong command, flag or argument
  NOTHING_TO_READ: 3, // fetched, but empty, a JavaScript shell, or a --selector that matched nothing
  INTERRUPTED: 130, // Ctrl-C (SIGINT): a crawl stopped, what was read is printed or saved
} as const;

/** --header "Name: value" (repeatable) and --max-age N as the tools' `headers` and `max_age`; the schema checks them. */
function requestFlags(values: Values): { headers?: Record<string, string>; max_age?: number } {
  const headers: Record<string, string> = {};
  for (const line of values.header ?? []) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new InvalidArgumentError('--header', CLI_SENTENCES.headerFormat);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return {
    ...(values.header !== undefined && { headers }),
    ...(values['max-age'] !== undefined && { max_age: integerFlag(values, 'max-age') }),
  };
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve()));
}

function exitCodeOf(output: ToolOutput): number {
  if (output.isError) {
    const code = (output.structured.error as { code?: string } | undefined)?.code;
    // A URL of another scheme (ftp:, file:) is the caller's mistake too, not a page that failed.
    return code === 'INVALID_ARGUMENT' || code === 'UNSUPPORTED_PROTOCOL' ? EXIT.USAGE : EXIT.FAILED;
  }
  if (isNothingToRead(output.structured.status as Outcome)) return EXIT.NOTHING_TO_READ;
  // Several pages (read with several URLs), none of which could be read.
  if (output.structured.status === 'error') return EXIT.FAILED;
  if (output.structured.selector_matched === 0) return EXIT.NOTHING_TO_READ;
  return EXIT.OK;
}

/** What a person can do about a failed command: its help for a usage error; http:// when https:// was guessed. */
function failureHint(command: Command, exit: number, url: string | undefined): string {
  if (exit === EXIT.USAGE) return ` Run web-reader ${command} --help.`;
  // search's operands are its words, not a URL.
  if (command !== 'search' && url !== undefined && url !== withScheme(url)) {
    return `\nweb-reader: ${url} has no scheme, so ${withScheme(url)} was read; for plain HTTP, give http:// yourself.`;
  }
  return '';
}

async function runOnce(
  config: Config,
  shared: SharedState,
  command: Command,
  operands: readonly string[],
  tool: AnyTool,
  args: Record<string, unknown>,
  options: { json: boolean; explain?: boolean; maxTokensFlag?: boolean; imageFile?: string },
): Promise<number> {
  const engine = createLazyEngine(config, shared);
  try {
    let output = await runTool(tool, args, { engine, explain: options.explain ?? false });
    // A report of several pages none of which could be read is still the report: on stdout, exit 1.
    if (output.isError && !Array.isArray(output.structured.pages)) {
      const exit = exitCodeOf(output);
      const text = inFlagWords(output.text).trimEnd();
      const message = asSentence(text);
      await write(process.stderr, `web-reader: ${message}${failureHint(command, exit, operands[0])}`);
      if (options.json) await write(process.stdout, JSON.stringify(output.structured, null, 2));
      return exit;
    }
    const result = output.data ?? { ...output.structured, text: textWithCaptions(output) };
    const image = output.images?.[0];
    if (options.imageFile !== undefined && image) {
      await writeFile(options.imageFile, image.bytes);
      output = { ...output, text: CLI_SENTENCES.screenshotWritten(output.text, options.imageFile) };
    }
    if (options.json) {
      await write(process.stdout, JSON.stringify(result, null, 2));
    } else if (output.continuation && output.text.endsWith(output.continuation.notice)) {
      // A cut page: the page on stdout, and on stderr the flags that read on, in place of the tool's notice
      // (which tells an agent to call the tool again).
      await write(process.stdout, output.text.slice(0, -output.continuation.notice.length).trimEnd());
      await write(
        process.stderr,
        cliReadCutLine({ ...output.continuation, totalLength: totalLength(output) }, options.maxTokensFlag),
      );
    } else {
      await write(process.stdout, statusLineInFlagWords(output.text));
    }
    if (options.explain) await write(process.stderr, await explainText(output));
    return exitCodeOf(output);
  } finally {
    await engine.close();
  }
}

function totalLength(output: ToolOutput): number {
  const total = output.structured.total_length;
  return typeof total === 'number' ? total : 0;
}

/** `read --explain`: extraction's decisions, one a line, after the page (stdout stays the page alone). */
async function explainText(output: ToolOutput): Promise<string> {
  if (!output.explain) return 'web-reader --explain: no extraction ran: the page is not HTML.';
  const { formatExplain } = await import('../extract/trace.js');
  const lines = formatExplain(output.explain);
  const decisions = lines.length === 1 ? '1 decision' : `${lines.length} decisions`;
  return [`web-reader --explain: ${decisions}, in the order extraction made them:`, ...lines].join('\n');
}

/**
 * `web-reader read URL | head`: when the reader of stdout goes away, a one-shot command ends quietly with 0, as
 * curl and cat do, instead of an EPIPE stack trace. Not for `serve`, where stdout is the MCP channel and its
 * shutdown has its own path.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.OK);
    throw error;
  });
}

export async function main(argv: string[]): Promise<number> {
  const { command, values, operands } = parseCommandLine(argv);
  if ((command ?? 'serve') !== 'serve') endQuietlyOnClosedPipe();
  if (values.help) {
    await write(process.stdout, command ? commandHelp(command) : mainHelp());
    return EXIT.OK;
  }
  if (values.version) {
    await write(process.stdout, VERSION);
    return EXIT.OK;
  }
  const config = resolveConfig(process.env, configFlags(values));
  if (values.explain && values.raw) {
    throw new InvalidArgumentError('--explain', CLI_SENTENCES.explainWithRaw);
  }
  const shared = await createSharedState(config);
  try {
    return await runCommand(command ?? 'serve', config, shared, values, operands);
  } finally {
    await shared.close();
  }
}

async function runCommand(
  command: Command,
  config: Config,
  shared: SharedState,
  values: Values,
  operands: readonly string[],
): Promise<number> {
  const json = values.json ?? false;
  switch (command) {
    case 'serve': {
      if (operands.length > 0) {
        throw new InvalidArgumentError('serve', CLI_SENTENCES.serveTakesNoUrl);
      }
      const tools = selectTools(config.tools, values.tools === undefined ? 'WEB_READER_TOOLS' : '--tools', config);
      if (values.http) {
        const { serveHttp } = await import('../transports/http/server.js');
        await serveHttp(config, createLazyEngine(config, shared), tools, shared);
      } else {
        await serveStdio(createLazyEngine(config, shared), tools, { sharedState: shared });
      }
      return EXIT.OK;
    }
    case 'read': {
      if (operands.length > 1) return readSeveral(config, shared, values, operands);
      const several = SEVERAL_PAGES_FLAGS.find((flag) => values[flag] !== undefined);
      if (several) throw new InvalidArgumentError(`--${several}`, CLI_SENTENCES.severalPagesFlag(`--${several}`));
      const args = {
        url: oneUrl('read', operands),
        raw: values.raw ?? false,
        max_length: integerFlag(values, 'max-length') ?? 0,
        start_index: integerFlag(values, 'start-index') ?? 0,
        ...renderFlags(values),
        ...actionsFlag(values),
        ...dataFlags(values),
        ...requestFlags(values),
        ...selectFlags(values),
        ...(values.section !== undefined && { section: values.section }),
        ...(values.query !== undefined && { query: values.query }),
      };
      // One page's --max-tokens is its token cap: MAX_OUTPUT_TOKENS for this read.
      const maxTokens = integerFlag(values, 'max-tokens');
      const readConfig = maxTokens === undefined ? config : { ...config, maxOutputTokens: maxTokens };
      return runOnce(readConfig, shared, 'read', operands, findTool('fetch')!, args, {
        json,
        explain: values.explain ?? false,
        maxTokensFlag: maxTokens !== undefined,
      });
    }
    case 'map': {
      const args = {
        url: oneUrl('map', operands),
        max_urls: integerFlag(values, 'max-urls') ?? 500,
        ...(values.search !== undefined && { search: values.search }),
        ...requestFlags(values),
      };
      return runOnce(config, shared, 'map', operands, findTool('map')!, args, { json });
    }
    case 'links': {
      const args = {
        url: oneUrl('links', operands),
        max_links: integerFlag(values, 'max-links') ?? 100,
        titles: !values['no-titles'],
        ...requestFlags(values),
      };
      return runOnce(config, shared, 'links', operands, findTool('links')!, args, { json });
    }
    case 'scrape': {
      const args = {
        url: oneUrl('scrape', operands),
        include_html: values['include-html'] ?? false,
        include_chunks: values['include-chunks'] ?? false,
        chunk_size: integerFlag(values, 'chunk-size') ?? 1000,
        ...renderFlags(values),
        ...actionsFlag(values),
        ...dataFlags(values),
        ...requestFlags(values),
        ...selectFlags(values),
      };
      // The scraper's text is its JSON already: --json is implied.
      return runOnce(config, shared, 'scrape', operands, findTool('web_scraper')!, args, { json: true });
    }
    case 'crawl':
      return crawlCommand(config, shared, values, operands);
    case 'screenshot': {
      if (values.output === undefined) throw new InvalidArgumentError('--output', CLI_SENTENCES.screenshotNeedsOutput);
      const args = {
        url: oneUrl('screenshot', operands),
        full_page: values['full-page'] ?? false,
        ...(values.width !== undefined && { width: integerFlag(values, 'width') }),
        ...(values.format !== undefined && { format: values.format }),
        ...(values.quality !== undefined && { quality: integerFlag(values, 'quality') }),
        ...(values['wait-for'] !== undefined && { wait_for: values['wait-for'] }),
        ...actionsFlag(values),
      };
      const tool = findTool('screenshot')!;
      return runOnce(config, shared, 'screenshot', operands, tool, args, { json, imageFile: values.output });
    }
    case 'search': {
      if (operands.length === 0) throw new InvalidArgumentError('query', CLI_SENTENCES.searchNeedsQuery);
      const args = {
        // `web-reader search rust async runtime` searches for the words as one query, as a shell user means it.
        query: operands.join(' '),
        ...(values['max-results'] !== undefined && { max_results: integerFlag(values, 'max-results') }),
        ...(values.read !== undefined && { read: integerFlag(values, 'read') }),
        ...(values.language !== undefined && { language: values.language }),
        ...(values['time-range'] !== undefined && { time_range: values['time-range'] }),
        ...manyFlags(values),
      };
      return runOnce(config, shared, 'search', operands, findTool('search')!, args, { json });
    }
  }
}

/** --max-tokens, --deadline and the reading flags of a call that reads several pages (read_many, search --read). */
function manyFlags(values: Values): Record<string, unknown> {
  return {
    ...(values['max-tokens'] !== undefined && { max_tokens: integerFlag(values, 'max-tokens') }),
    ...(values.deadline !== undefined && { timeout: integerFlag(values, 'deadline') }),
    ...(values['max-age'] !== undefined && { max_age: integerFlag(values, 'max-age') }),
    ...renderFlags(values),
    ...selectFlags(values),
    ...dataFlags(values),
  };
}

/** The flags of `read` that read one page only: refused with several URLs rather than silently dropped. */
const ONE_PAGE_FLAGS = ['raw', 'explain', 'max-length', 'start-index', 'section', 'header', 'actions'] as const;

/** The flags of `read` that time several pages: refused with one URL rather than silently dropped. */
const SEVERAL_PAGES_FLAGS = ['deadline'] as const;

/** `web-reader read URL URL…`: read_many, pages one after another with a header line each. */
function readSeveral(config: Config, shared: SharedState, values: Values, operands: readonly string[]) {
  const single = ONE_PAGE_FLAGS.find((flag) => values[flag] !== undefined);
  if (single) throw new InvalidArgumentError(`--${single}`, CLI_SENTENCES.onePageFlag(`--${single}`));
  const args = {
    urls: operands.map(withScheme),
    ...manyFlags(values),
    ...(values.query !== undefined && { query: values.query }),
  };
  return runOnce(config, shared, 'read', operands, findTool('read_many')!, args, { json: values.json ?? false });
}

async function crawlCommand(
  config: Config,
  shared: SharedState,
  values: Values,
  operands: readonly string[],
): Promise<number> {
  const continueFrom = values.continue;
  if (continueFrom !== undefined && operands.length > 0) {
    throw new InvalidArgumentError('--continue', CLI_SENTENCES.continueTakesNoUrl);
  }
  const url = continueFrom === undefined ? oneUrl('crawl', operands) : undefined;
  // Pages go to a terminal or files, not to an agent's context: MAX_OUTPUT_TOKENS only with --max-output-tokens.
  const crawlConfig = values['max-output-tokens'] === undefined ? { ...config, maxOutputTokens: 0 } : config;
  const engine = createLazyEngine(crawlConfig, shared);
  const controller = new AbortController();
  // The first Ctrl-C stops the crawl and keeps what was read; a second one leaves at once.
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.INTERRUPTED);
    controller.abort(new Error('Interrupted'));
  };
  process.on('SIGINT', interrupt);
  try {
    const { runCrawlCommand } = await import('./crawl-command.js');
    const crawl = await runCrawlCommand(engine, {
      url,
      continueFrom,
      maxTokens: integerFlag(values, 'max-tokens'),
      maxPages: integerFlag(values, 'max-pages'),
      maxSeconds: integerFlag(values, 'max-seconds'),
      maxDepth: integerFlag(values, 'max-depth'),
      allowedDomains: values['allowed-domains']?.split(',').map((domain) => domain.trim()),
      patterns: values.include,
      excludePatterns: values.exclude,
      render: values.render,
      waitFor: values['wait-for'],
      request: requestFlags(values),
      selector: values.selector,
      excludeSelectors: values['exclude-selector'],
      query: values.query,
      out: values.out,
      json: values.json ?? false,
      stdout: process.stdout,
      stderr: process.stderr,
      signal: controller.signal,
    });
    if (crawl.cancelled) return EXIT.INTERRUPTED;
    return crawl.pagesRead === 0 && !crawl.continueFrom ? EXIT.FAILED : EXIT.OK;
  } finally {
    process.off('SIGINT', interrupt);
    await engine.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    // Usage errors (bad flags, bad configuration, a tool's refusal of an argument) end here, one line each.
    const usage = error instanceof InvalidArgumentError;
    const text = inFlagWords(errorMessage(error)).trimEnd();
    const sentence = asSentence(text);
    const hint = usage && !text.includes('--help') ? ` ${helpHint(commandIn(process.argv.slice(2)))}` : '';
    await write(process.stderr, `web-reader: ${sentence}${hint}`);
    process.exit(usage ? EXIT.USAGE : EXIT.FAILED);
  },
);

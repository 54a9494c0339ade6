#!/usr/bin/env node
// The command line: argv → Config → the same engine and tools as every other front door → stdout.
// With no command it is the MCP server on stdio, which is what MCP clients launch.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolveConfig, type Config, type ConfigFlags } from '../config.js';
import { createEngine } from '../engine/engine.js';
import { errorMessage, InvalidArgumentError } from '../errors.js';
import { formatExplain } from '../extract/trace.js';
import { quoteInput } from '../quote.js';
import { runCrawlCommand } from './crawl-command.js';
import { findTool, selectTools, type AnyTool } from '../tools/registry.js';
import { runTool } from '../tools/run-tool.js';
import type { ToolOutput } from '../tools/types.js';
import { serveHttp } from '../transports/http/server.js';
import { serveStdio } from '../transports/stdio.js';
import { VERSION } from '../version.js';

/** Exit codes, one table: scripts tell success from each kind of failure. */
export const EXIT = {
  OK: 0,
  FAILED: 1, // the page could not be read: network, HTTP status, security refusal, timeout
  USAGE: 2, // a wrong command, flag or argument
  NOTHING_TO_READ: 3, // fetched, but empty or a JavaScript shell
  INTERRUPTED: 130, // Ctrl-C (SIGINT): a crawl stopped, what was read is printed or saved
} as const;

const HELP = `web-reader ${VERSION} — gives AI agents the web

Usage:
  web-reader                       MCP server on stdio (what MCP clients launch)
  web-reader serve [--tools LIST]  the same, choosing the tools
  web-reader serve --http          MCP at /mcp and the JSON tools API at /tools over HTTP
      --host HOST                  address to bind (WEB_READER_HOST, default 127.0.0.1)
      --port N                     port (WEB_READER_PORT, default 3000)
      --token T                    require Authorization: Bearer T (WEB_READER_TOKEN)
  web-reader read <url>            print the page's main content as Markdown
      --raw                        the raw body instead of extracted Markdown
      --max-length N               at most N characters (0 = no limit)
      --start-index N              continue from character N
      --json                       a machine-readable result
      --explain                    on stderr, why extraction removed each block and which block it chose
      --render MODE                run the page in headless Chromium first: auto (RENDER_JS, default), always, never
      --wait-for SELECTOR          when rendering, wait until this CSS selector matches
      --selector CSS               read only the elements this CSS selector matches (no main-content detection)
      --exclude-selector CSS       remove the elements this CSS selector matches first (repeatable, at most 20)
      --section HEADING            only this section: a heading's text, or #n (the n-th heading of scrape's outline)
  web-reader links <url>           the page's same-site links, most frequent first
      --max-links N                at most N links (default 100)
      --no-titles                  URLs only, without anchor text
  web-reader map <url>             the site's URLs (sitemaps, /llms.txt, the page's links), not their content
      --max-urls N                 at most N URLs (default 500)
      --search TEXT                only URLs (or titles) containing TEXT, case-insensitive
      --json                       a machine-readable result
  web-reader scrape <url>          structured JSON: text with [n] link markers, references, metadata, outline
      --include-html               add the raw HTML
      --include-chunks             add word chunks (--chunk-size N words, 100–10000, default 1000)
      --render MODE, --wait-for SELECTOR   as for read
      --selector CSS, --exclude-selector CSS   as for read
  web-reader crawl <url>           breadth-first from the URL within a token budget; a summary at the end
      --max-tokens N               token budget for all pages (DEFAULT_MAX_TOKENS, 100000)
      --max-pages N                at most N pages (default 100)
      --max-seconds N              stop after N seconds (default 45, at most 3600) and print how to continue
      --json                       the crawl result as JSON (pages, summary, continue_from)
      --out DIR                    one .md file per page and index.md in DIR; the summary on stdout
      --render MODE, --wait-for SELECTOR   as for read, for every page
      --allowed-domains LIST       comma-separated domains it may visit, sub-domains included (default: the start host)
      --include GLOB               only follow URLs whose path matches (repeatable): '/docs/**', or 're:' + a regex
      --exclude GLOB               never follow URLs whose path matches (repeatable, same syntax)
      --max-depth N                at most N links from the start URL (default 5; 0 = the start page only)
      --selector CSS, --exclude-selector CSS   as for read, on every page (links are still followed from the whole page)
                                   (a progress bar on stderr when it is a terminal; Ctrl-C stops and keeps what was read)
  web-reader crawl --continue ID   continue a crawl stopped at its time limit (same scope and budgets, for
                                   CRAWL_RESUME_TTL seconds; --max-seconds applies anew)
  web-reader --help | --version

Options for every command:
  --tools LIST                 tools and presets: default (fetch, links, crawl), url-reader, explore, all, or names
  --user-agent UA              User-Agent header (USER_AGENT)
  --timeout MS                 request deadline in ms, from when it leaves the queue (FETCH_TIMEOUT)
  --max-response-size BYTES    decoded body limit (MAX_RESPONSE_SIZE)
  --max-output-tokens N        cap on one result, 0 = none (MAX_OUTPUT_TOKENS)
  --allow-private-hosts LIST   exact host:port pairs that may be private (ALLOW_PRIVATE_HOSTS)
  --header "Name: value"       (read, links, scrape, crawl, map; repeatable) a request header for the page's own origin
                               only, e.g. a cookie; never cached, never logged
  --max-age N                  (read, links, scrape, crawl, map) use a cached copy only if at most N seconds old

Environment variables: USER_AGENT, DEFAULT_MAX_LENGTH, DEFAULT_MAX_TOKENS, FETCH_TIMEOUT, CACHE_TTL,
MAX_CONCURRENT, PER_DOMAIN_INTERVAL, QUEUE_TIMEOUT, MAX_RESPONSE_SIZE, MAX_REDIRECTS, ALLOW_PRIVATE_HOSTS,
RESPECT_ROBOTS, WEB_READER_TOOLS, MAX_OUTPUT_TOKENS, EXTRACT_TIMEOUT, CRAWL_RESUME_TTL, HTTPS_PROXY, HTTP_PROXY,
NO_PROXY, PROXY_IS_EGRESS_POLICY, RENDER_JS, RENDER_TIMEOUT, RENDER_CONCURRENCY, RENDER_MAX_SIZE, CHROMIUM_PATH; for serve --http also
WEB_READER_HOST, WEB_READER_PORT, WEB_READER_TOKEN, WEB_READER_ALLOWED_ORIGINS, WEB_READER_ALLOWED_HOSTS,
WEB_READER_MAX_CONNECTIONS, WEB_READER_MAX_SESSIONS, WEB_READER_SESSION_IDLE, WEB_READER_MAX_BODY_SIZE.

Exit codes: 0 success, 1 the page could not be read, 2 usage error, 3 nothing to read (empty or needs JavaScript),
130 a crawl stopped by Ctrl-C.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: { type: 'boolean' },
  raw: { type: 'boolean' },
  explain: { type: 'boolean' },
  render: { type: 'string' },
  header: { type: 'string', multiple: true },
  'max-age': { type: 'string' },
  'wait-for': { type: 'string' },
  selector: { type: 'string' },
  'exclude-selector': { type: 'string', multiple: true },
  'allowed-domains': { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-depth': { type: 'string' },
  section: { type: 'string' },
  'max-length': { type: 'string' },
  'start-index': { type: 'string' },
  'max-links': { type: 'string' },
  'no-titles': { type: 'boolean' },
  'max-urls': { type: 'string' },
  search: { type: 'string' },
  'include-html': { type: 'boolean' },
  'include-chunks': { type: 'boolean' },
  'chunk-size': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-pages': { type: 'string' },
  'max-seconds': { type: 'string' },
  continue: { type: 'string' },
  out: { type: 'string' },
  tools: { type: 'string' },
  'user-agent': { type: 'string' },
  timeout: { type: 'string' },
  'max-response-size': { type: 'string' },
  'max-output-tokens': { type: 'string' },
  'allow-private-hosts': { type: 'string' },
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** --header "Name: value" (repeatable) and --max-age N as the tools' `headers` and `max_age`; the schema checks them. */
function requestFlags(values: Values): { headers?: Record<string, string>; max_age?: number } {
  const headers: Record<string, string> = {};
  for (const line of values.header ?? []) {
    const colon = line.indexOf(':');
    if (colon <= 0)
      throw new InvalidArgumentError('--header', '--header takes "Name: value", e.g. --header "Cookie: a=b".');
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return {
    ...(values.header !== undefined && { headers }),
    ...(values['max-age'] !== undefined && { max_age: integerFlag(values, 'max-age') }),
  };
}

/** --render and --wait-for as the tools' arguments; the tool's schema checks them and names a wrong value. */
function renderFlags(values: Values): { render?: string; wait_for?: string } {
  return {
    ...(values.render !== undefined && { render: values.render }),
    ...(values['wait-for'] !== undefined && { wait_for: values['wait-for'] }),
  };
}

/** --selector and --exclude-selector as the tools' arguments; the tool's schema checks each selector. */
function selectFlags(values: Values): { selector?: string; exclude_selectors?: string[] } {
  return {
    ...(values.selector !== undefined && { selector: values.selector }),
    ...(values['exclude-selector'] !== undefined && { exclude_selectors: values['exclude-selector'] }),
  };
}

function integerFlag(values: Values, name: keyof Values): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`--${name}`, `--${name} must be an integer ≥ 0, got '${String(raw)}'.`);
  }
  return value;
}

function configFlags(values: Values): ConfigFlags {
  return {
    tools: values.tools,
    userAgent: values['user-agent'],
    fetchTimeoutMs: integerFlag(values, 'timeout'),
    maxResponseBytes: integerFlag(values, 'max-response-size'),
    maxOutputTokens: integerFlag(values, 'max-output-tokens'),
    allowPrivateHosts: values['allow-private-hosts']?.split(',').filter((host) => host.trim() !== ''),
    httpHost: values.host,
    httpPort: integerFlag(values, 'port'),
    httpToken: values.token,
  };
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve()));
}

function exitCodeOf(output: ToolOutput): number {
  if (output.isError) {
    const code = (output.structured.error as { code?: string } | undefined)?.code;
    return code === 'INVALID_ARGUMENT' ? EXIT.USAGE : EXIT.FAILED;
  }
  if (output.structured.status === 'empty' || output.structured.status === 'needs_js') return EXIT.NOTHING_TO_READ;
  return EXIT.OK;
}

async function runOnce(
  config: Config,
  tool: AnyTool,
  args: Record<string, unknown>,
  json: boolean,
  explain = false,
): Promise<number> {
  const engine = createEngine(config);
  try {
    const output = await runTool(tool, args, { engine, explain });
    const result = output.data ?? { ...output.structured, text: output.text };
    if (json) await write(process.stdout, JSON.stringify(result, null, 2));
    else await write(output.isError ? process.stderr : process.stdout, output.text);
    if (explain && !output.isError) await write(process.stderr, explainText(output));
    return exitCodeOf(output);
  } finally {
    await engine.close();
  }
}

/** `read --explain`: extraction's decisions, one a line, after the page (stdout stays the page alone). */
function explainText(output: ToolOutput): string {
  if (!output.explain) return 'web-reader --explain: no extraction ran: the page is not HTML.';
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
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if ((positionals[0] ?? 'serve') !== 'serve') endQuietlyOnClosedPipe();
  if (values.help) {
    await write(process.stdout, HELP);
    return EXIT.OK;
  }
  if (values.version) {
    await write(process.stdout, VERSION);
    return EXIT.OK;
  }
  const config = resolveConfig(process.env, configFlags(values));
  const [command = 'serve', ...rest] = positionals;
  // --explain explains main-content extraction, which only `read` runs (and `--raw` skips): elsewhere it would be
  // accepted and do nothing.
  if (values.explain && command !== 'read') {
    throw new InvalidArgumentError(
      '--explain',
      `--explain applies to read only; ${command} runs no main-content extraction.`,
    );
  }
  if ((values.render !== undefined || values['wait-for'] !== undefined) && command === 'links') {
    throw new InvalidArgumentError(
      '--render',
      '--render and --wait-for apply to read, scrape and crawl; links lists the links of the HTML as served.',
    );
  }
  if (values.explain && values.raw) {
    throw new InvalidArgumentError('--explain', '--explain explains extraction, and --raw skips it: use one of them.');
  }
  // As --explain: a flag a command would accept and ignore is refused instead.
  if (values.section !== undefined && command !== 'read') {
    throw new InvalidArgumentError('--section', `--section applies to read only, not to ${command}.`);
  }
  if (
    (values.selector !== undefined || values['exclude-selector'] !== undefined) &&
    !['read', 'scrape', 'crawl'].includes(command)
  ) {
    throw new InvalidArgumentError(
      '--selector',
      `--selector and --exclude-selector apply to read, scrape and crawl, not to ${command}.`,
    );
  }
  switch (command) {
    case 'serve': {
      const tools = selectTools(config.tools, values.tools === undefined ? 'WEB_READER_TOOLS' : '--tools');
      if (values.http) await serveHttp(config, createEngine(config), tools);
      else await serveStdio(createEngine(config), tools);
      return EXIT.OK;
    }
    case 'read': {
      const [url, ...extra] = rest;
      if (!url || extra.length > 0) throw new InvalidArgumentError('url', 'read takes exactly one URL.');
      const args = {
        url,
        raw: values.raw ?? false,
        max_length: integerFlag(values, 'max-length') ?? 0,
        start_index: integerFlag(values, 'start-index') ?? 0,
        ...renderFlags(values),
        ...requestFlags(values),
        ...selectFlags(values),
        ...(values.section !== undefined && { section: values.section }),
      };
      return runOnce(config, findTool('fetch')!, args, values.json ?? false, values.explain ?? false);
    }
    case 'map': {
      const [url, ...extra] = rest;
      if (!url || extra.length > 0) throw new InvalidArgumentError('url', 'map takes exactly one URL.');
      const args = {
        url,
        max_urls: integerFlag(values, 'max-urls') ?? 500,
        ...(values.search !== undefined && { search: values.search }),
        ...requestFlags(values),
      };
      return runOnce(config, findTool('map')!, args, values.json ?? false);
    }
    case 'links':
    case 'scrape': {
      const [url, ...extra] = rest;
      if (!url || extra.length > 0) throw new InvalidArgumentError('url', `${command} takes exactly one URL.`);
      if (command === 'links') {
        const args = {
          url,
          max_links: integerFlag(values, 'max-links') ?? 100,
          titles: !values['no-titles'],
          ...requestFlags(values),
        };
        return runOnce(config, findTool('links')!, args, values.json ?? false);
      }
      const args = {
        url,
        include_html: values['include-html'] ?? false,
        include_chunks: values['include-chunks'] ?? false,
        chunk_size: integerFlag(values, 'chunk-size') ?? 1000,
        ...renderFlags(values),
        ...requestFlags(values),
        ...selectFlags(values),
      };
      // The scraper's text is its JSON already: --json is implied.
      return runOnce(config, findTool('web_scraper')!, args, true);
    }
    case 'crawl': {
      const [url, ...extra] = rest;
      const continueFrom = values.continue;
      if (continueFrom !== undefined && (url || extra.length > 0)) {
        throw new InvalidArgumentError('--continue', 'crawl --continue ID takes no URL: the crawl keeps its own.');
      }
      if (continueFrom === undefined && (!url || extra.length > 0)) {
        throw new InvalidArgumentError('url', 'crawl takes exactly one URL (or --continue ID).');
      }
      // Pages go to a terminal or files, not to an agent's context: MAX_OUTPUT_TOKENS only with --max-output-tokens.
      const crawlConfig = values['max-output-tokens'] === undefined ? { ...config, maxOutputTokens: 0 } : config;
      const engine = createEngine(crawlConfig);
      const controller = new AbortController();
      // The first Ctrl-C stops the crawl and keeps what was read; a second one leaves at once.
      const interrupt = () => {
        if (controller.signal.aborted) process.exit(EXIT.INTERRUPTED);
        controller.abort(new Error('Interrupted'));
      };
      process.on('SIGINT', interrupt);
      try {
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
    default:
      throw new InvalidArgumentError('command', `Unknown command '${command}'. Run web-reader --help.`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    // Usage errors (bad flags, bad configuration) end here; tool failures were already reported by runOnce.
    const code = (error as { code?: string }).code;
    const usage = error instanceof InvalidArgumentError || code?.startsWith('ERR_PARSE_ARGS');
    // node:util parseArgs explains an unknown option at length, about positionals; say what a person needs.
    const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && /'([^']*)'/.exec(errorMessage(error))?.[1];
    const message = unknown ? `Unknown option '${quoteInput(unknown)}'. Run web-reader --help.` : errorMessage(error);
    await write(process.stderr, `web-reader: ${message}`);
    process.exit(usage ? EXIT.USAGE : EXIT.FAILED);
  },
);

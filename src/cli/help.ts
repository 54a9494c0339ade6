// The help texts, built from the flag table (flags.ts) so that a flag's help is written once and every command's
// help lists every flag it takes.
import { VERSION } from '../version.js';
import { COMMAND_NAMES, COMMANDS, type Command } from './commands.js';
import { FLAGS, flagsOf, type Flag, type FlagName } from './flags.js';

const ENVIRONMENT = `Environment variables: USER_AGENT, DEFAULT_MAX_LENGTH, DEFAULT_MAX_TOKENS, FETCH_TIMEOUT, CACHE_TTL,
MAX_CONCURRENT, PER_DOMAIN_INTERVAL, QUEUE_TIMEOUT, MAX_RESPONSE_SIZE, MAX_REDIRECTS, ALLOW_PRIVATE_HOSTS,
RESPECT_ROBOTS, WEB_READER_TOOLS, MAX_OUTPUT_TOKENS, EXTRACT_TIMEOUT, CRAWL_RESUME_TTL, HTTPS_PROXY, HTTP_PROXY,
NO_PROXY, PROXY_IS_EGRESS_POLICY, RENDER_JS, RENDER_TIMEOUT, RENDER_CONCURRENCY, RENDER_MAX_SIZE, RENDER_MAX_MEMORY,
CHROMIUM_PATH, SEARXNG_URL, BRAVE_API_KEY, BRAVE_API_URL;
REDIS_URL and REDIS_CACHE_MAX_SIZE for state shared by replicas (docs/scale-out.md); for serve --http also
WEB_READER_HOST, WEB_READER_PORT, WEB_READER_TOKEN, WEB_READER_ALLOWED_ORIGINS, WEB_READER_ALLOWED_HOSTS,
WEB_READER_MAX_CONNECTIONS, WEB_READER_MAX_SESSIONS, WEB_READER_SESSION_IDLE, WEB_READER_MAX_BODY_SIZE.`;

const EXIT_CODES = `Exit codes: 0 success, 1 the page could not be read, 2 usage error, 3 nothing to read (empty, needs
JavaScript, or a --selector that matched nothing), 130 a crawl stopped by Ctrl-C.`;

const COLUMN = 30;

function flagLine(name: FlagName): string {
  const flag: Flag = FLAGS[name];
  const short = flag.short ? `-${flag.short}, ` : '';
  const left = `  ${short}--${name}${flag.value ? ` ${flag.value}` : ''}`;
  return `${left.padEnd(COLUMN)} ${flag.help}`;
}

function commandLine(command: Command): string {
  // The first form only (crawl's `--continue ID` form is in its own help): a usage longer than the column would run
  // into its summary.
  const usage = COMMANDS[command].usage.split(' | ')[0]!;
  return `  ${`web-reader ${usage}`.padEnd(COLUMN + 8)} ${COMMANDS[command].summary}`;
}

/** `web-reader --help`: the commands, the flags every command takes, the environment and the exit codes. */
export function mainHelp(): string {
  return [
    `web-reader ${VERSION} — gives AI agents the web`,
    '',
    'Usage:',
    `  ${'web-reader'.padEnd(COLUMN + 8)} the MCP server on stdio (what MCP clients launch)`,
    ...COMMAND_NAMES.map(commandLine),
    `  ${'web-reader <command> --help'.padEnd(COLUMN + 8)} every flag of a command`,
    '',
    'A URL without a scheme is read over https (example.com → https://example.com).',
    '',
    'Flags of every command:',
    ...flagsOf('read').common.map(flagLine),
    '',
    ENVIRONMENT,
    '',
    EXIT_CODES,
  ].join('\n');
}

const NOTES: Partial<Record<Command, string>> = {
  read:
    'A page longer than MAX_OUTPUT_TOKENS (20000 tokens) is cut; stderr then says how to read the rest.\n' +
    'Several URLs (at most 20) are read at once, politely per host, and printed one after another under a header\n' +
    'line each, the whole within --max-tokens (default MAX_OUTPUT_TOKENS) shared fairly between them.',
  search:
    'Needs a provider: SEARXNG_URL (a SearXNG instance with its JSON format on) or BRAVE_API_KEY (Brave Search\n' +
    'API; BRAVE_API_URL to go through a proxy). Results as a numbered list; --read N adds the top N pages.',
  crawl:
    'A progress bar on stderr when it is a terminal; Ctrl-C stops and keeps what was read. A crawl stopped at\n' +
    '--max-seconds prints the command that continues it: web-reader crawl --continue ID.',
  serve: 'Over HTTP: MCP (Streamable HTTP) at /mcp, the JSON tools API at /tools, /healthz. See docs/http.md.',
};

/** `web-reader <command> --help`: what it does and every flag it takes. */
export function commandHelp(command: Command): string {
  const { own, common } = flagsOf(command);
  const usage = COMMANDS[command].usage
    .split(' | ')
    .map((form) => `  web-reader ${form} [flags]`)
    .join('\n');
  return [
    `web-reader ${command} — ${COMMANDS[command].summary}`,
    '',
    'Usage:',
    usage,
    '',
    'Flags:',
    ...own.map(flagLine),
    '',
    'Flags of every command:',
    ...common.map(flagLine),
    ...(NOTES[command] ? ['', NOTES[command]] : []),
    '',
    EXIT_CODES,
  ].join('\n');
}

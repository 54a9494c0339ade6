// Every flag of the command line, once: its commands, its value, its help line, the tool argument it becomes and
// the bounds of a number. The help texts (web-reader --help, web-reader <command> --help), the parser's options,
// the check that a flag belongs to its command and the did-you-mean for a mistyped one are all read from here.
import type { ParseArgsConfig } from 'node:util';
import { CONFIG_BOUNDS } from '../config.js';
import type { Command } from './commands.js';

export interface Flag {
  readonly type: 'boolean' | 'string';
  readonly multiple?: boolean;
  readonly short?: string;
  /** The value's name in the help ("N", "URL"); none for a boolean. */
  readonly value?: string;
  readonly help: string;
  /** The commands it applies to; 'every' for the configuration flags. */
  readonly commands: readonly Command[] | 'every';
  /** The tool argument it becomes, so a tool's error about that argument can name the flag instead. */
  readonly argument?: string;
  /** A whole number within these bounds (checked before anything runs). */
  readonly integer?: { readonly min: number; readonly max?: number };
}

const PAGE_READERS: readonly Command[] = ['read', 'links', 'scrape', 'crawl', 'map'];
const CONTENT_READERS: readonly Command[] = ['read', 'scrape', 'crawl', 'search'];

export const FLAGS = {
  json: {
    type: 'boolean',
    help: 'a machine-readable result (scrape always prints JSON)',
    commands: ['read', 'links', 'map', 'scrape', 'crawl', 'search'],
  },
  raw: { type: 'boolean', help: 'the raw body instead of extracted Markdown', commands: ['read'], argument: 'raw' },
  explain: {
    type: 'boolean',
    help: 'on stderr, why extraction removed each block and which block it chose',
    commands: ['read'],
  },
  'max-length': {
    type: 'string',
    value: 'N',
    help: 'at most N characters (default 0 = no limit; MAX_OUTPUT_TOKENS still caps the output)',
    commands: ['read'],
    argument: 'max_length',
    integer: { min: 0 },
  },
  'start-index': {
    type: 'string',
    value: 'N',
    help: 'continue from character N (what a cut page says to use)',
    commands: ['read'],
    argument: 'start_index',
    integer: { min: 0 },
  },
  section: {
    type: 'string',
    value: 'HEADING',
    help: "only this section: a heading's text, or #n (the n-th heading of scrape's outline)",
    commands: ['read'],
    argument: 'section',
  },
  query: {
    type: 'string',
    value: 'TEXT',
    help: 'only the passages that best answer TEXT, best first, each under its heading path (per page in a crawl)',
    commands: ['read', 'crawl'],
    argument: 'query',
  },
  selector: {
    type: 'string',
    value: 'CSS',
    help: 'read only the elements this CSS selector matches (no main-content detection)',
    commands: CONTENT_READERS,
    argument: 'selector',
  },
  'exclude-selector': {
    type: 'string',
    multiple: true,
    value: 'CSS',
    help: 'remove the elements this CSS selector matches first (repeatable, at most 20)',
    commands: CONTENT_READERS,
    argument: 'exclude_selectors',
  },
  render: {
    type: 'string',
    value: 'MODE',
    help: 'run the page in headless Chromium first: auto (RENDER_JS, default), always, never',
    commands: CONTENT_READERS,
    argument: 'render',
  },
  'wait-for': {
    type: 'string',
    value: 'SELECTOR',
    help: 'when rendering, wait until this CSS selector matches',
    commands: [...CONTENT_READERS, 'screenshot'],
    argument: 'wait_for',
  },
  actions: {
    type: 'string',
    value: 'JSON',
    help: 'done to the rendered page before it is read, a JSON list: \'[{"click":"#more"}]\' (README "Actions")',
    commands: ['read', 'scrape', 'screenshot'],
    argument: 'actions',
  },
  'structured-data': {
    type: 'boolean',
    help: "also the page's declared data (JSON-LD, OpenGraph, microdata, tables): in the result of --json",
    commands: ['read', 'scrape', 'search'],
    argument: 'structured_data',
  },
  tables: {
    type: 'string',
    value: 'rows|csv',
    help: "the page's data tables as rows (default) or CSV text, in the structured data (implies --structured-data)",
    commands: ['read', 'scrape', 'search'],
    argument: 'tables',
  },
  output: { type: 'string', short: 'o', value: 'FILE', help: 'write the image to FILE', commands: ['screenshot'] },
  'full-page': {
    type: 'boolean',
    help: 'the whole page (cut at 8000 px) instead of the viewport',
    commands: ['screenshot'],
    argument: 'full_page',
  },
  width: {
    type: 'string',
    value: 'N',
    help: "the viewport's width in CSS px, 320–1920 (default 1280)",
    commands: ['screenshot'],
    argument: 'width',
    integer: { min: 320, max: 1920 },
  },
  format: {
    type: 'string',
    value: 'png|jpeg',
    help: 'png (default) or jpeg',
    commands: ['screenshot'],
    argument: 'format',
  },
  quality: {
    type: 'string',
    value: 'N',
    help: 'JPEG quality, 1–100 (default 80)',
    commands: ['screenshot'],
    argument: 'quality',
    integer: { min: 1, max: 100 },
  },
  'max-links': {
    type: 'string',
    value: 'N',
    help: 'at most N links (default 100)',
    commands: ['links'],
    argument: 'max_links',
    integer: { min: 1 },
  },
  'no-titles': { type: 'boolean', help: 'URLs only, without anchor text', commands: ['links'] },
  'max-urls': {
    type: 'string',
    value: 'N',
    help: 'at most N URLs (default 500)',
    commands: ['map'],
    argument: 'max_urls',
    integer: { min: 1 },
  },
  search: {
    type: 'string',
    value: 'TEXT',
    help: 'only URLs (or titles) containing TEXT, case-insensitive',
    commands: ['map'],
    argument: 'search',
  },
  'include-html': { type: 'boolean', help: 'add the raw HTML', commands: ['scrape'], argument: 'include_html' },
  'include-chunks': {
    type: 'boolean',
    help: 'add word chunks of --chunk-size words',
    commands: ['scrape'],
    argument: 'include_chunks',
  },
  'chunk-size': {
    type: 'string',
    value: 'N',
    help: 'words per chunk, 100–10000 (default 1000)',
    commands: ['scrape'],
    argument: 'chunk_size',
    integer: { min: 100, max: 10000 },
  },
  'max-tokens': {
    type: 'string',
    value: 'N',
    help: 'token budget (crawl: all pages, default 100000; read: the page, or all URLs given; default MAX_OUTPUT_TOKENS)',
    commands: ['crawl', 'read', 'search'],
    argument: 'max_tokens',
    integer: { min: 1 },
  },
  'max-pages': {
    type: 'string',
    value: 'N',
    help: 'at most N pages (default 100)',
    commands: ['crawl'],
    argument: 'max_pages',
    integer: { min: 1, max: 10000 },
  },
  'max-depth': {
    type: 'string',
    value: 'N',
    help: 'at most N links away from the start URL (default 5; 0 = the start page only)',
    commands: ['crawl'],
    argument: 'max_depth',
    integer: { min: 0, max: 100 },
  },
  'max-seconds': {
    type: 'string',
    value: 'N',
    help: 'stop after N seconds (default 45, at most 3600) and print how to continue',
    commands: ['crawl'],
    argument: 'max_seconds',
    integer: { min: 1, max: 3600 },
  },
  deadline: {
    type: 'string',
    value: 'N',
    help: 'several URLs, search --read: print what was read within N seconds (default 45, at most 300), name the rest',
    commands: ['read', 'search'],
    argument: 'timeout',
    integer: { min: 1, max: 300 },
  },
  'max-results': {
    type: 'string',
    value: 'N',
    help: 'at most N results, 1–20 (default 10)',
    commands: ['search'],
    argument: 'max_results',
    integer: { min: 1, max: 20 },
  },
  read: {
    type: 'string',
    value: 'N',
    help: 'also read the top N results, 0–20 (default 0)',
    commands: ['search'],
    integer: { min: 0, max: 20 },
  },
  language: { type: 'string', value: 'CODE', help: 'results in this language, e.g. en or de-DE', commands: ['search'] },
  'time-range': {
    type: 'string',
    value: 'RANGE',
    help: 'only pages from the last day, week, month or year',
    commands: ['search'],
    argument: 'time_range',
  },
  'allowed-domains': {
    type: 'string',
    value: 'LIST',
    help: "comma-separated domains it may visit, sub-domains included (default: the start URL's host)",
    commands: ['crawl'],
    argument: 'allowed_domains',
  },
  include: {
    type: 'string',
    multiple: true,
    value: 'GLOB',
    help: "only follow URLs whose path matches (repeatable): '/docs/**', '/blog/*/2024-*', or 're:' + a regex",
    commands: ['crawl'],
    argument: 'patterns',
  },
  exclude: {
    type: 'string',
    multiple: true,
    value: 'GLOB',
    help: 'never follow URLs whose path matches (repeatable, the same syntax)',
    commands: ['crawl'],
    argument: 'exclude_patterns',
  },
  out: {
    type: 'string',
    value: 'DIR',
    help: 'one .md file per page and index.md in DIR; the summary on stdout',
    commands: ['crawl'],
  },
  continue: {
    type: 'string',
    value: 'ID',
    help: 'continue a crawl stopped at its time limit (same scope and budgets, for CRAWL_RESUME_TTL seconds)',
    commands: ['crawl'],
    argument: 'continue_from',
  },
  header: {
    type: 'string',
    multiple: true,
    value: '"Name: value"',
    help: "a request header for the page's origin only (repeatable), e.g. a cookie; never cached or logged",
    commands: PAGE_READERS,
    argument: 'headers',
  },
  'max-age': {
    type: 'string',
    value: 'N',
    help: 'use a cached copy only if at most N seconds old (0 = fetch now)',
    commands: [...PAGE_READERS, 'search'],
    argument: 'max_age',
    integer: { min: 0 },
  },
  tools: {
    type: 'string',
    value: 'LIST',
    help: 'tools and presets: default (fetch, links, crawl; search with a provider), url-reader, explore, research, all, or names (WEB_READER_TOOLS)',
    commands: ['serve'],
  },
  http: {
    type: 'boolean',
    help: 'MCP at /mcp and the JSON tools API at /tools over HTTP, instead of stdio',
    commands: ['serve'],
  },
  host: {
    type: 'string',
    value: 'HOST',
    help: 'with --http, the address to bind (WEB_READER_HOST, default 127.0.0.1)',
    commands: ['serve'],
  },
  port: {
    type: 'string',
    value: 'N',
    help: 'with --http, the port (WEB_READER_PORT, default 3000; 0 = any free port)',
    commands: ['serve'],
    integer: CONFIG_BOUNDS.httpPort,
  },
  token: {
    type: 'string',
    value: 'T',
    help: 'with --http, require Authorization: Bearer T (WEB_READER_TOKEN)',
    commands: ['serve'],
  },
  'user-agent': {
    type: 'string',
    value: 'UA',
    help: "User-Agent (USER_AGENT; default a browser's, and web-reader/VERSION (+repository) for crawl and map)",
    commands: 'every',
  },
  timeout: {
    type: 'string',
    value: 'MS',
    help: 'request deadline in milliseconds, from when it leaves the queue (FETCH_TIMEOUT, default 10000)',
    commands: 'every',
    integer: CONFIG_BOUNDS.fetchTimeoutMs,
  },
  'max-response-size': {
    type: 'string',
    value: 'BYTES',
    help: 'decoded body limit (MAX_RESPONSE_SIZE)',
    commands: 'every',
    integer: CONFIG_BOUNDS.maxResponseBytes,
  },
  'max-output-tokens': {
    type: 'string',
    value: 'N',
    help: 'cap on one result, 0 = none (MAX_OUTPUT_TOKENS, default 20000)',
    commands: 'every',
    integer: CONFIG_BOUNDS.maxOutputTokens,
  },
  'allow-private-hosts': {
    type: 'string',
    value: 'LIST',
    help: 'comma-separated exact host:port pairs that may be private (ALLOW_PRIVATE_HOSTS)',
    commands: 'every',
  },
  help: { type: 'boolean', short: 'h', help: 'this help', commands: 'every' },
  version: { type: 'boolean', short: 'v', help: 'the version', commands: 'every' },
} as const satisfies Record<string, Flag>;

export type FlagName = keyof typeof FLAGS;

/** node:util parseArgs's options, from the table. */
export const PARSE_OPTIONS = Object.fromEntries(
  Object.entries(FLAGS).map(([name, flag]: [string, Flag]) => [
    name,
    { type: flag.type, multiple: flag.multiple ?? false, ...(flag.short && { short: flag.short }) },
  ]),
) as {
  [Name in FlagName]: {
    type: (typeof FLAGS)[Name]['type'];
    multiple: (typeof FLAGS)[Name] extends { multiple: true } ? true : false;
    short?: string;
  };
} satisfies ParseArgsConfig['options'];

export function appliesTo(name: FlagName, command: Command): boolean {
  const commands = (FLAGS[name] as Flag).commands;
  return commands === 'every' || commands.includes(command);
}

/** The flags of a command, its own first, then the ones every command takes. */
export function flagsOf(command: Command): { own: FlagName[]; common: FlagName[] } {
  const names = Object.keys(FLAGS) as FlagName[];
  return {
    own: names.filter((name) => (FLAGS[name] as Flag).commands !== 'every' && appliesTo(name, command)),
    common: names.filter((name) => (FLAGS[name] as Flag).commands === 'every'),
  };
}

// The one typed configuration object (SPEC "Configuration"). It is the only module that reads environment
// variables, and it does so once: everything below receives a Config. Flags win over the environment; a bad
// value is a start-up error naming the variable.
import { InvalidArgumentError } from './errors.js';
import { quoteInput } from './quote.js';
import { REPOSITORY_URL, VERSION } from './version.js';
import { RENDER_POLICIES, type RenderPolicy } from './outcome.js';

export type RobotsPolicy = 'always' | 'crawl' | 'never';

export interface Config {
  readonly userAgent: string; // USER_AGENT: the single-page tools' User-Agent (a browser-like default)
  readonly crawlerUserAgent: string; // USER_AGENT when set, else PRODUCT_USER_AGENT: what crawl and map send
  readonly defaultMaxLength: number; // DEFAULT_MAX_LENGTH, characters (read_url)
  readonly defaultMaxTokens: number; // DEFAULT_MAX_TOKENS, crawl budget
  readonly fetchTimeoutMs: number; // FETCH_TIMEOUT, one deadline over connect + headers + body
  readonly cacheTtlSeconds: number; // CACHE_TTL
  readonly snapshotTtlSeconds: number; // SNAPSHOT_TTL, how long fetch `since` snapshots are kept
  readonly maxConcurrent: number; // MAX_CONCURRENT
  readonly perDomainIntervalMs: number; // PER_DOMAIN_INTERVAL
  readonly queueTimeoutMs: number; // QUEUE_TIMEOUT, longest wait for a turn in the request queue (src/fetch/queue.ts)
  readonly maxResponseBytes: number; // MAX_RESPONSE_SIZE, counted after decompression
  readonly maxRedirects: number; // MAX_REDIRECTS
  readonly allowPrivateHosts: ReadonlySet<string>; // ALLOW_PRIVATE_HOSTS, exact lower-case "host:port"
  readonly respectRobots: RobotsPolicy; // RESPECT_ROBOTS
  readonly tools: string; // WEB_READER_TOOLS, names and presets, resolved by the tool registry
  readonly maxOutputTokens: number; // MAX_OUTPUT_TOKENS, 0 = no cap
  readonly extractTimeoutMs: number; // EXTRACT_TIMEOUT, per-page limit on extraction work
  readonly crawlResumeTtlSeconds: number; // CRAWL_RESUME_TTL, how long a stopped crawl's continue_from id holds
  readonly httpProxy: string | undefined; // HTTP_PROXY / http_proxy
  readonly httpsProxy: string | undefined; // HTTPS_PROXY / https_proxy
  readonly noProxy: string | undefined; // NO_PROXY / no_proxy
  readonly proxyIsEgressPolicy: boolean; // PROXY_IS_EGRESS_POLICY: names our DNS cannot resolve go to the proxy
  // Rendering with headless Chromium (src/browser/)
  readonly renderJs: RenderPolicy; // RENDER_JS: auto renders only pages the static read finds script-built
  readonly renderTimeoutMs: number; // RENDER_TIMEOUT, one render's deadline (default 2 × FETCH_TIMEOUT; a tool's timeout may cut it)
  readonly renderConcurrency: number; // RENDER_CONCURRENCY, pages rendered at once (one browser, a context each)
  readonly chromiumPath: string | undefined; // CHROMIUM_PATH: when set, the only browser used
  readonly renderMaxBytes: number; // RENDER_MAX_SIZE, all bytes one render may download (default 4 × MAX_RESPONSE_SIZE)
  readonly renderMaxMemoryMb: number; // RENDER_MAX_MEMORY, MB of script heap each page's renderer may use
  // Text in pictures with Debian's tesseract (src/ocr/)
  readonly tesseractPath: string | undefined; // TESSERACT_PATH: when set, the only tesseract used
  readonly ocrLanguages: string; // OCR_LANGUAGES, tesseract's -l ("eng", "eng+deu"; commas accepted)
  readonly ocrTimeoutMs: number; // OCR_TIMEOUT, one read's OCR deadline (a tool's timeout may cut it)
  readonly ocrConcurrency: number; // OCR_CONCURRENCY, tesseract processes at once (one core each)
  readonly ocrMaxPixels: number; // OCR_MAX_PIXELS, the largest image (width × height) OCR decodes
  // `serve --http` (src/transports/http/)
  readonly httpHost: string; // WEB_READER_HOST, --host
  readonly httpPort: number; // WEB_READER_PORT, --port (0 = any free port)
  readonly httpToken: string | undefined; // WEB_READER_TOKEN, --token: bearer token on every route but /healthz
  readonly httpAllowedOrigins: readonly string[]; // WEB_READER_ALLOWED_ORIGINS, browser origins besides same-origin
  readonly httpAllowedHosts: readonly string[]; // WEB_READER_ALLOWED_HOSTS, Host names besides loopback and the bind address
  readonly httpMaxConnections: number; // WEB_READER_MAX_CONNECTIONS, open sockets; past it 503 + Retry-After
  readonly httpMaxSessions: number; // WEB_READER_MAX_SESSIONS, concurrent MCP sessions (LRU idle one evicted at the cap)
  readonly httpSessionIdleSeconds: number; // WEB_READER_SESSION_IDLE, an MCP session with no open request expires
  readonly httpMaxBodyBytes: number; // WEB_READER_MAX_BODY_SIZE, request body limit (413)
  // Many replicas (docs/scale-out.md, src/shared-state/)
  readonly redisUrl: string | undefined; // REDIS_URL: state shared through Redis; none, one process keeps it in memory
  readonly redisCacheMaxBytes: number; // REDIS_CACHE_MAX_SIZE, the compressed pages kept in Redis, all replicas together
  // The `search` tool's provider (src/runs/search-web.ts): SearXNG when SEARXNG_URL is set, else Brave with a key.
  // Operator-trusted endpoints: reached even on a private address, that exact host:port only; results are not.
  readonly searxngUrl: string | undefined; // SEARXNG_URL, the instance's base URL (its JSON API is /search)
  readonly braveApiKey: string | undefined; // BRAVE_API_KEY, sent as X-Subscription-Token
  readonly braveApiUrl: string; // BRAVE_API_URL, Brave's web search endpoint unless a proxy or a test stands in
}

/** Brave Search API's web search endpoint (BRAVE_API_URL's default). */
export const DEFAULT_BRAVE_API_URL = 'https://api.search.brave.com/res/v1/web/search';

/**
 * The crawler's name: the product token of its User-Agent and the robots.txt group it obeys (RFC 9309 §2.2.1: a
 * crawler matches groups by the product token it sends). src/fetch/robots.ts reads it from the crawler's UA.
 */
export const PRODUCT_TOKEN = 'web-reader';

/**
 * The product's honest User-Agent (RFC 9110 §10.1.5: product/version, then a comment): what `crawl` and `map` send
 * unless USER_AGENT is set, and the one retry after a bot wall refused the browser-like default. The URL in the
 * comment lets a site owner find out who reads their site and how to name it in robots.txt.
 */
export const PRODUCT_USER_AGENT = `${PRODUCT_TOKEN}/${VERSION} (+${REPOSITORY_URL})`;

// A current Firefox release string: many sites serve degraded or challenge pages to unknown agents.
export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0';

export type ConfigFlags = Partial<Omit<Config, 'allowPrivateHosts'>> & { allowPrivateHosts?: Iterable<string> };

type Env = Record<string, string | undefined>;

export interface IntegerBounds {
  readonly min: number;
  readonly max?: number;
}

/** Bounds of the settings a CLI flag can set too (src/cli/flags.ts checks the flag against the same). */
export const CONFIG_BOUNDS = {
  fetchTimeoutMs: { min: 1 },
  maxResponseBytes: { min: 1 },
  maxOutputTokens: { min: 0 },
  httpPort: { min: 0, max: 65535 },
} as const satisfies Record<string, IntegerBounds>;

/** What a whole number within `bounds` is called in an error ("an integer from 0 to 65535", "an integer ≥ 1"). */
export function describeBounds({ min, max }: IntegerBounds): string {
  return max === undefined ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
}

/** `raw` as a whole number within `bounds`, else an error naming `name` (a variable or a flag). */
export function parseInteger(name: string, raw: string, bounds: IntegerBounds): number {
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < bounds.min || value > (bounds.max ?? Infinity)) {
    throw new InvalidArgumentError(name, `${name} must be ${describeBounds(bounds)}, got '${raw}'.`);
  }
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number | IntegerBounds): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return parseInteger(name, raw, typeof min === 'number' ? { min } : min);
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new InvalidArgumentError(name, `${name} must be one of ${allowed.join(', ')}, got '${env[name]}'.`);
  }
  return raw as T;
}

// A traineddata name (tesseract --list-langs): letters, digits, '_', and a script's '/' is not taken.
const LANGUAGE = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;

/** OCR_LANGUAGES as tesseract's `-l` takes them: names joined by '+' (commas accepted), each checked. */
function ocrLanguages(raw: string | undefined): string {
  const names = (raw ?? '')
    .split(/[+,]/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return 'eng';
  const bad = names.find((name) => !LANGUAGE.test(name));
  if (bad !== undefined) {
    throw new InvalidArgumentError(
      'OCR_LANGUAGES',
      `OCR_LANGUAGES must be tesseract language names joined by '+' (e.g. eng+deu), got '${raw}'.`,
    );
  }
  return names.join('+');
}

function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** The schemes a URL setting takes, and how its error names them. */
const HTTP_URL = { protocols: ['http:', 'https:'], words: 'an http:// or https:// URL' } as const;
const REDIS_URL = { protocols: ['redis:', 'rediss:'], words: 'a redis:// or rediss:// URL' } as const;

/**
 * A URL setting whose scheme must be one `kind` takes (REDIS_URL: redis:// or rediss://, TLS; SEARXNG_URL and
 * BRAVE_API_URL: http(s)://); anything else is a start-up error naming it, not a silent default.
 */
function urlSetting(
  name: string,
  raw: string | undefined,
  kind: { readonly protocols: readonly string[]; readonly words: string },
): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // not a URL at all: refused below with the same message
  }
  if (!kind.protocols.includes(protocol)) {
    throw new InvalidArgumentError(name, `${name} must be ${kind.words}, got '${quoteInput(value)}'.`);
  }
  return value;
}

/** Parses "host:port,host:port"; an entry without a port would exempt every port, so it is refused. */
export function parseHostPortList(raw: string | undefined, name = 'ALLOW_PRIVATE_HOSTS'): Set<string> {
  const hosts = new Set<string>();
  for (const entry of (raw ?? '').split(',')) {
    const item = entry.trim().toLowerCase();
    if (item === '') continue;
    const match = /^(\[[0-9a-f:.]+\]|[^:\s[\]]+):(\d{1,5})$/.exec(item);
    if (!match || Number(match[2]) > 65535) {
      const given = quoteInput(entry.trim());
      const list = `${name} is a comma-separated list of exact host:port pairs (e.g. 127.0.0.1:8080,localhost:3000)`;
      throw new InvalidArgumentError(name, `${list}; got '${given}'.`);
    }
    hosts.add(item);
  }
  return hosts;
}

export function resolveConfig(env: Env = {}, flags: ConfigFlags = {}): Config {
  const maxResponseBytes = integer(env, 'MAX_RESPONSE_SIZE', 10485760, CONFIG_BOUNDS.maxResponseBytes);
  const fetchTimeoutMs = integer(env, 'FETCH_TIMEOUT', 10000, CONFIG_BOUNDS.fetchTimeoutMs);
  const userAgent = env.USER_AGENT?.trim() || undefined;
  const fromEnv: Config = {
    userAgent: userAgent ?? DEFAULT_USER_AGENT,
    crawlerUserAgent: userAgent ?? PRODUCT_USER_AGENT,
    defaultMaxLength: integer(env, 'DEFAULT_MAX_LENGTH', 50000, 0),
    defaultMaxTokens: integer(env, 'DEFAULT_MAX_TOKENS', 100000, 1),
    fetchTimeoutMs,
    cacheTtlSeconds: integer(env, 'CACHE_TTL', 3600, 0),
    snapshotTtlSeconds: integer(env, 'SNAPSHOT_TTL', 86400, 0),
    maxConcurrent: integer(env, 'MAX_CONCURRENT', 3, 1),
    perDomainIntervalMs: integer(env, 'PER_DOMAIN_INTERVAL', 2000, 0),
    queueTimeoutMs: integer(env, 'QUEUE_TIMEOUT', 30000, 1),
    maxResponseBytes,
    maxRedirects: integer(env, 'MAX_REDIRECTS', 5, 0),
    allowPrivateHosts: parseHostPortList(env.ALLOW_PRIVATE_HOSTS),
    respectRobots: oneOf(env, 'RESPECT_ROBOTS', 'crawl', ['always', 'crawl', 'never'] as const),
    renderJs: oneOf(env, 'RENDER_JS', 'auto', RENDER_POLICIES),
    // A render runs a page's whole load (every request, its scripts) where a fetch reads one document.
    renderTimeoutMs: integer(env, 'RENDER_TIMEOUT', 2 * fetchTimeoutMs, 1),
    tools: env.WEB_READER_TOOLS?.trim() || 'default',
    maxOutputTokens: integer(env, 'MAX_OUTPUT_TOKENS', 20000, CONFIG_BOUNDS.maxOutputTokens),
    extractTimeoutMs: integer(env, 'EXTRACT_TIMEOUT', 5000, 1),
    crawlResumeTtlSeconds: integer(env, 'CRAWL_RESUME_TTL', 900, 1),
    httpProxy: env.HTTP_PROXY || env.http_proxy || undefined,
    httpsProxy: env.HTTPS_PROXY || env.https_proxy || undefined,
    noProxy: env.NO_PROXY || env.no_proxy || undefined,
    proxyIsEgressPolicy: ['1', 'true', 'yes'].includes(
      oneOf(env, 'PROXY_IS_EGRESS_POLICY', '0', ['0', '1', 'false', 'true', 'no', 'yes'] as const),
    ),
    renderConcurrency: integer(env, 'RENDER_CONCURRENCY', 2, 1),
    chromiumPath: env.CHROMIUM_PATH?.trim() || undefined,
    // A rendered page fetches its scripts, styles, data and images besides the document: four documents' worth.
    renderMaxBytes: integer(env, 'RENDER_MAX_SIZE', 4 * maxResponseBytes, 1),
    renderMaxMemoryMb: integer(env, 'RENDER_MAX_MEMORY', 512, 16),
    tesseractPath: env.TESSERACT_PATH?.trim() || undefined,
    ocrLanguages: ocrLanguages(env.OCR_LANGUAGES),
    ocrTimeoutMs: integer(env, 'OCR_TIMEOUT', 30000, 1),
    ocrConcurrency: integer(env, 'OCR_CONCURRENCY', 2, 1),
    // A page scanned at 600 dpi is about 35 million pixels; an image past this is a decompression bomb, not a page.
    ocrMaxPixels: integer(env, 'OCR_MAX_PIXELS', 50_000_000, 1),
    httpHost: env.WEB_READER_HOST?.trim() || '127.0.0.1',
    httpPort: integer(env, 'WEB_READER_PORT', 3000, CONFIG_BOUNDS.httpPort),
    httpToken: env.WEB_READER_TOKEN?.trim() || undefined,
    httpAllowedOrigins: commaList(env.WEB_READER_ALLOWED_ORIGINS),
    httpAllowedHosts: commaList(env.WEB_READER_ALLOWED_HOSTS),
    httpMaxConnections: integer(env, 'WEB_READER_MAX_CONNECTIONS', 1024, 1),
    httpMaxSessions: integer(env, 'WEB_READER_MAX_SESSIONS', 100, 1),
    httpSessionIdleSeconds: integer(env, 'WEB_READER_SESSION_IDLE', 1800, 1),
    httpMaxBodyBytes: integer(env, 'WEB_READER_MAX_BODY_SIZE', 1048576, 1),
    redisUrl: urlSetting('REDIS_URL', env.REDIS_URL, REDIS_URL),
    redisCacheMaxBytes: integer(env, 'REDIS_CACHE_MAX_SIZE', 268435456, 0),
    searxngUrl: urlSetting('SEARXNG_URL', env.SEARXNG_URL, HTTP_URL),
    braveApiKey: env.BRAVE_API_KEY?.trim() || undefined,
    braveApiUrl: urlSetting('BRAVE_API_URL', env.BRAVE_API_URL, HTTP_URL) ?? DEFAULT_BRAVE_API_URL,
  };
  const { allowPrivateHosts, ...rest } = flags;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  // One rule for both agents: a User-Agent the user gives (--user-agent over USER_AGENT) is sent by every tool; by
  // default single-page tools look like a browser and the crawler says who it is.
  const givenUserAgent = flags.userAgent?.trim() || undefined;
  return {
    ...fromEnv,
    ...defined,
    userAgent: givenUserAgent ?? fromEnv.userAgent,
    crawlerUserAgent: flags.crawlerUserAgent ?? givenUserAgent ?? fromEnv.crawlerUserAgent,
    // The render's deadline follows FETCH_TIMEOUT (twice it) whichever way that came, unless it was set itself.
    renderTimeoutMs: env.RENDER_TIMEOUT?.trim()
      ? fromEnv.renderTimeoutMs
      : 2 * (flags.fetchTimeoutMs ?? fetchTimeoutMs),
    // The render cap follows MAX_RESPONSE_SIZE whichever way that came, unless it was set itself.
    renderMaxBytes:
      flags.renderMaxBytes ??
      (env.RENDER_MAX_SIZE?.trim() ? fromEnv.renderMaxBytes : 4 * (flags.maxResponseBytes ?? maxResponseBytes)),
    allowPrivateHosts: allowPrivateHosts
      ? new Set([...allowPrivateHosts].map((host) => host.toLowerCase()))
      : fromEnv.allowPrivateHosts,
  };
}

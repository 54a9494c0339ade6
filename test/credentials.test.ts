// Credentials bound to their origin (issue 22 item 1), through a real MCP client over stdio against two loopback
// origins that record every request's headers. The caller gives `headers` for origin A; whatever path the engine
// takes — a declared Markdown twin, a redirect, an llms.txt twin, robots.txt, a sitemap, a crawl or map link — no
// request to origin B ever carries them, robots.txt, sitemaps and /llms.txt never carry them on either origin, and a
// raw read asks for no twin at all. The positive rows: a same-origin twin and a same-origin redirect do carry them.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FixtureServer, RouteHandler } from './fixture-server.js';
import { useMcpSession } from './mcp/session.js';
import { useFixtureServer } from './use-fixture-server.js';

const COOKIE = 'session=s3cr3t-value';
const AUTHORIZATION = 'Bearer t0ken';
const CREDENTIALS = { cookie: COOKIE, authorization: AUTHORIZATION };

interface Seen {
  readonly path: string;
  readonly carried: boolean;
}

/** Every request an origin received since the last reset: its path and whether it carried the caller's headers. */
const seen: Record<'A' | 'B', Seen[]> = { A: [], B: [] };

function page(title: string, head = '', body = ''): string {
  const words = `${title} is a page with enough words to be read as an article by the extractor. `.repeat(6);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><article><h1>${title}</h1><p>${words}</p>${body}</article></body></html>`;
}

const twinLink = (href: string) => `<link rel="alternate" type="text/markdown" href="${href}">`;
const markdown = (title: string) =>
  `# ${title}\n\n${`The Markdown twin ${title}, written by its author. `.repeat(4)}\n`;

/** Routes of one origin, every request recorded; any other path is a recorded 404. */
function addOrigin(
  server: FixtureServer,
  name: 'A' | 'B',
  routes: (self: FixtureServer) => Record<string, [string, string] | { redirect: string }>,
): void {
  const record: RouteHandler = (req, res, _params, url) => {
    const carried = req.headers.cookie === COOKIE || req.headers.authorization === AUTHORIZATION;
    seen[name].push({ path: url.pathname, carried });
    const route = routes(server)[url.pathname];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    } else if ('redirect' in route) {
      res.writeHead(302, { location: route.redirect });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': route[0] });
      res.end(route[1]);
    }
  };
  server.route('/:one', record);
  server.route('/:one/:two', record);
}

/** The tools that read a page's Markdown twin; each has its own paths, so no row is served by another's cache. */
const TWIN_TOOLS = ['fetch', 'read_url', 'web'];

const a = useFixtureServer();
const b = useFixtureServer();
const html = 'text/html; charset=utf-8';
const md = 'text/markdown; charset=utf-8';
const text = 'text/plain; charset=utf-8';
const xml = 'application/xml';

function addRoutes(): void {
  addOrigin(a, 'A', (self) => ({
    ...Object.fromEntries(
      TWIN_TOOLS.flatMap((tool) => [
        [`/${tool}/twin-away`, [html, page('Twin away', twinLink(b.url(`/${tool}/twin.md`)))]],
        [`/${tool}/away`, { redirect: b.url(`/${tool}/landed`) }],
        [`/${tool}/llms-away`, { redirect: b.url(`/${tool}/llms-landed`) }],
      ]),
    ),
    '/twin-home': [html, page('Twin home', twinLink(self.url('/twin-home.md')))],
    '/twin-home.md': [md, markdown('Twin home')],
    '/raw-twin': [html, page('Raw twin', twinLink(self.url('/raw-twin.md')))],
    '/raw-twin.md': [md, markdown('Raw twin')],
    '/hop': { redirect: self.url('/hop-target') },
    '/hop-target': [html, page('Hop target')],
    '/llms-home': [html, page('Llms home')],
    '/llms-home.md': [md, markdown('Llms home')],
    '/llms.txt': [text, `# Site A\n\n- [Llms home](${self.url('/llms-home.md')})\n`],
    '/robots.txt': [text, `User-agent: *\nAllow: /\nSitemap: ${b.url('/sitemap.xml')}\n`],
    '/crawl-start': [
      html,
      page('Crawl start', '', `<a href="${b.url('/crawl-b')}">on B</a> <a href="${self.url('/crawl-a2')}">on A</a>`),
    ],
    '/crawl-a2': [html, page('Crawl a2', twinLink(b.url('/crawl-twin.md')))],
    '/map-start': [html, page('Map start', '', `<a href="${b.url('/map-b')}">on B</a>`)],
  }));
  addOrigin(b, 'B', (self) => ({
    ...Object.fromEntries(
      TWIN_TOOLS.flatMap((tool) => [
        [`/${tool}/twin.md`, [md, markdown('Twin on B')]],
        [`/${tool}/landed`, [html, page('Landed', twinLink(self.url(`/${tool}/landed.md`)))]],
        [`/${tool}/landed.md`, [md, markdown('Landed')]],
        [`/${tool}/llms-landed`, [html, page('Llms landed')]],
        [`/${tool}/llms-landed.md`, [md, markdown('Llms landed')]],
      ]),
    ),
    '/llms.txt': [
      text,
      `# Site B\n\n${TWIN_TOOLS.map((tool) => `- [Llms landed](${self.url(`/${tool}/llms-landed.md`)})\n`).join('')}`,
    ],
    '/robots.txt': [text, `User-agent: *\nAllow: /\nSitemap: ${self.url('/sitemap.xml')}\n`],
    '/sitemap.xml': [
      xml,
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${self.url('/crawl-b')}</loc></url><url><loc>${self.url('/map-b')}</loc></url></urlset>`,
    ],
    '/crawl-b': [html, page('Crawl b')],
    '/crawl-twin.md': [md, markdown('Crawl twin')],
    '/map-b': [html, page('Map b')],
  }));
}

const { session } = useMcpSession({
  server: a,
  tools: 'all',
  env: () => {
    addRoutes();
    return { ALLOW_PRIVATE_HOSTS: `${a.hostPort},${b.hostPort}`, FETCH_TIMEOUT: '5000' };
  },
});

beforeEach(() => {
  seen.A.length = 0;
  seen.B.length = 0;
});

const pathsOf = (origin: 'A' | 'B', carried: boolean) =>
  seen[origin].filter((request) => request.carried === carried).map((request) => request.path);

interface Row {
  readonly tool: string;
  readonly path: string;
  readonly args: () => Record<string, unknown>;
  /** Paths on A that must have carried the headers (every request for them). */
  readonly carriedOnA?: readonly string[];
  /** Paths that must have been asked for (so the row cannot pass by asking nothing). */
  readonly asked?: ReadonlyArray<readonly ['A' | 'B', string]>;
  /** Paths on A never asked for (a raw read asks for no twin). */
  readonly notAsked?: readonly string[];
  /** Repeat the call until this path was asked for (an llms.txt lookup runs after a first read). */
  readonly until?: readonly ['A' | 'B', string];
}

const url = (origin: 'A' | 'B', path: string) => (origin === 'A' ? a : b).url(path);
const withHeaders =
  (path: string, extra: Record<string, unknown> = {}) =>
  () => ({
    url: url('A', path),
    headers: CREDENTIALS,
    ...extra,
  });

const ROWS: Row[] = [
  ...TWIN_TOOLS.flatMap((tool): Row[] => [
    {
      tool,
      path: 'a twin declared on another origin',
      args: withHeaders(`/${tool}/twin-away`),
      carriedOnA: [`/${tool}/twin-away`],
      asked: [['B', `/${tool}/twin.md`]],
    },
    {
      tool,
      path: 'the twin of the page landed on after a redirect to another origin',
      args: withHeaders(`/${tool}/away`),
      carriedOnA: [`/${tool}/away`],
      asked: [['B', `/${tool}/landed.md`]],
    },
    {
      tool,
      path: 'the llms.txt twin of the page landed on after a redirect to another origin',
      args: withHeaders(`/${tool}/llms-away`),
      until: ['B', `/${tool}/llms-landed.md`],
    },
    {
      tool,
      path: 'a twin declared on the same origin (positive)',
      args: withHeaders('/twin-home'),
      carriedOnA: ['/twin-home', '/twin-home.md'],
    },
    {
      tool,
      path: 'a redirect within the origin (positive)',
      args: withHeaders('/hop'),
      carriedOnA: ['/hop', '/hop-target'],
    },
    {
      tool,
      path: 'an llms.txt twin on the same origin (positive; /llms.txt itself never)',
      args: withHeaders('/llms-home'),
      until: ['A', '/llms-home.md'],
      carriedOnA: ['/llms-home', '/llms-home.md'],
    },
  ]),
  {
    tool: 'fetch',
    path: 'raw: true asks for no twin',
    args: withHeaders('/raw-twin', { raw: true }),
    carriedOnA: ['/raw-twin'],
    notAsked: ['/raw-twin.md'],
  },
  {
    tool: 'web',
    path: 'mode raw asks for no twin',
    args: withHeaders('/raw-twin', { mode: 'raw' }),
    carriedOnA: ['/raw-twin'],
    notAsked: ['/raw-twin.md'],
  },
  {
    tool: 'map',
    path: 'robots.txt, sitemaps and llms.txt across allowed_domains',
    args: withHeaders('/map-start', { allowed_domains: ['127.0.0.1'] }),
    carriedOnA: ['/map-start'],
    asked: [
      ['A', '/robots.txt'],
      ['B', '/sitemap.xml'],
    ],
  },
  {
    tool: 'crawl',
    path: 'links, twins, robots.txt and sitemaps across allowed_domains',
    args: withHeaders('/crawl-start', { allowed_domains: ['127.0.0.1'], max_pages: 10, max_depth: 2 }),
    carriedOnA: ['/crawl-start', '/crawl-a2'],
    asked: [
      ['B', '/robots.txt'],
      ['B', '/crawl-b'],
      ['B', '/crawl-twin.md'],
    ],
  },
];

describe('credentials reach their own origin only, whatever path the engine takes', () => {
  it.each(ROWS.map((row) => [row.tool, row.path, row] as const))('%s: %s', async (tool, _path, row) => {
    const call = () => session.call(tool, row.args());
    const result = await call();
    expect(result.isError, result.text).toBeFalsy();
    if (row.until) {
      const [origin, path] = row.until;
      await vi.waitFor(
        async () => {
          if (!seen[origin].some((request) => request.path === path)) await call();
          expect(seen[origin].map((request) => request.path)).toContain(path);
        },
        { timeout: 10_000, interval: 200 },
      );
    }
    // Origin B never sees A's headers, on any path.
    expect(pathsOf('B', true)).toEqual([]);
    // The site's files for machines are shared answers: never asked for with anyone's headers.
    expect(pathsOf('A', true).filter((path) => /^\/(robots\.txt|llms\.txt|sitemap\.xml)$/.test(path))).toEqual([]);
    for (const path of row.carriedOnA ?? []) {
      const requests = seen.A.filter((request) => request.path === path);
      expect(requests.length, `${path} asked for`).toBeGreaterThan(0);
      expect(
        requests.every((request) => request.carried),
        `${path} carried the headers`,
      ).toBe(true);
    }
    for (const [origin, path] of row.asked ?? []) {
      expect(
        seen[origin].map((request) => request.path),
        `${origin}${path} asked for`,
      ).toContain(path);
    }
    for (const path of row.notAsked ?? []) {
      expect(seen.A.map((request) => request.path)).not.toContain(path);
    }
  });
});

// What an agent controls when it reads (issue 14): freshness per call (`max_age`, `age_seconds`), credentials scoped
// to the page's origin (`headers`), and strict arguments (an unknown name is an error that suggests the right one) —
// over MCP, the JSON API and the CLI, against real loopback servers.
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respondWith, startFixtureServer, type FixtureServer } from '../fixture-server.js';
import { callApi, useTestHttpServer } from '../http/http-harness.js';
import { runCli } from '../run-cli.js';
import { useMcpSession } from './session.js';

const ARTICLE = `<html><head><title>Counted</title></head><body><article><h1>Counted</h1><p>${'A page whose every request is counted by the server. '.repeat(6)}</p></article></body></html>`;
const SECRET = 'session=s3cr3t-value';

// A second origin on another loopback port: the page behind the login redirects there, and it must never see the cookie.
let other: FixtureServer;
const seenByOther: IncomingHttpHeaders[] = [];
beforeAll(async () => {
  other = await startFixtureServer();
  other.route('/landing', (req, res) => {
    seenByOther.push(req.headers);
    respondWith('text/html', ARTICLE.replace(/Counted/g, 'Landing'))(req, res, {}, new URL('http://x/'));
  });
});
afterAll(() => other.close());

function addRoutes(server: FixtureServer): void {
  server.route('/counted', respondWith('text/html', ARTICLE));
  server.route('/private', (req, res) => {
    if (req.headers.cookie !== SECRET) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('log in first');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(ARTICLE.replace(/Counted/g, 'Members only'));
  });
  server.route('/private-away', (req, res) => {
    res.writeHead(302, { location: other.url('/landing') });
    res.end();
  });
}

const { server, session } = useMcpSession({
  tools: 'all',
  setup: addRoutes,
  env: (server) => ({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},${other.hostPort}` }),
});

describe('max_age: freshness per call', () => {
  it('a cached copy is used within max_age, and max_age 0 fetches now; the result says from_cache and age_seconds', async () => {
    // age_seconds counts from when the body arrived; a loaded machine may take a second to extract the page, so
    // ages are compared with each other, never with the clock.
    const ageOf = (result: { structuredContent?: unknown }) =>
      (result.structuredContent as { age_seconds: number }).age_seconds;
    const first = await session.call('fetch', { url: server.url('/counted') });
    expect(first.structuredContent).toMatchObject({ from_cache: false, age_seconds: expect.any(Number) });
    const cached = await session.call('fetch', { url: server.url('/counted'), max_age: 3600 });
    expect(cached.structuredContent).toMatchObject({ from_cache: true });
    expect(ageOf(cached)).toBeGreaterThanOrEqual(ageOf(first));
    expect(server.hits('/counted')).toBe(1);
    const fresh = await session.call('read_url', { url: server.url('/counted'), max_age: 0 });
    expect(fresh.structuredContent).toMatchObject({ from_cache: false, age_seconds: expect.any(Number) });
    expect(server.hits('/counted')).toBe(2);
    // The fresh copy replaced the old one: links reads it from the cache.
    const links = await session.call('links', { url: server.url('/counted') });
    expect(links.structuredContent).toMatchObject({ from_cache: true });
    expect(server.hits('/counted')).toBe(2);
  });

  it('a snapshot older than max_age is fetched again', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const result = await session.call('web_scraper', { url: server.url('/counted'), max_age: 1 });
    expect(result.structuredContent).toMatchObject({ from_cache: false });
    expect(server.hits('/counted')).toBe(3);
  });
});

describe('headers: credentials for the page’s own origin', () => {
  it('a cookie opens the private page; a later call without it is not served that page', async () => {
    const member = await session.call('fetch', { url: server.url('/private'), headers: { Cookie: SECRET } });
    expect(member.isError).toBeFalsy();
    expect(member.text).toContain('Members only');
    expect(member.structuredContent).toMatchObject({ from_cache: false });
    const stranger = await session.call('fetch', { url: server.url('/private') });
    expect(stranger.isError).toBe(true);
    expect(stranger.text).toContain('401');
    expect(stranger.text).not.toContain('Members only');
    // Nor from the cache with the same cookie: a read with headers is never cached.
    const again = await session.call('fetch', { url: server.url('/private'), headers: { cookie: SECRET } });
    expect(again.structuredContent).toMatchObject({ from_cache: false });
    expect(server.hits('/private')).toBe(3);
  });

  it('a redirect to another origin drops the headers: the second origin never sees the cookie', async () => {
    const result = await session.call('fetch', {
      url: server.url('/private-away'),
      headers: { cookie: SECRET, authorization: 'Bearer t0ken' },
    });
    expect(result.text).toContain('Landing');
    expect(seenByOther.length).toBeGreaterThan(0);
    for (const headers of seenByOther) {
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
    }
  });

  it('Host and hop-by-hop headers are refused, naming the header and never echoing its value', async () => {
    const result = await session.call('fetch', { url: server.url('/counted'), headers: { Host: 'evil.example' } });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('"Host" cannot be set');
    expect(result.text).not.toContain('evil.example');
    const split = await session.call('fetch', { url: server.url('/counted'), headers: { 'x-a': 'one\r\nx-b: two' } });
    expect(split.isError).toBe(true);
    expect(split.text).toContain('the value of "x-a" contains a control character (U+000D)');
    expect(split.text).not.toContain('two');
  });

  it('a header value with any control character is refused up front, naming the header (issue 23)', async () => {
    // Once only CR, LF and NUL were: the rest failed later, inside the HTTP client, as CONNECT_FAILED.
    for (const [char, code] of [
      ['\u0001', 'U+0001'],
      ['\u001b', 'U+001B'],
      ['\u007f', 'U+007F'],
    ]) {
      const before = server.hits('/counted');
      const result = await session.call('fetch', {
        url: server.url('/counted'),
        headers: { cookie: `session=abc${char}def` },
      });
      expect(result.isError, code).toBe(true);
      expect((result.structuredContent as { error?: { code?: string } }).error?.code, code).toBe('INVALID_ARGUMENT');
      expect(result.text, code).toContain(`the value of "cookie" contains a control character (${code})`);
      expect(result.text, code).not.toContain('session=abc');
      expect(server.hits('/counted'), code).toBe(before); // nothing was requested
    }
    const tab = await session.call('fetch', { url: server.url('/counted'), headers: { 'x-note': 'a\tb' } });
    expect(tab.isError).toBeFalsy(); // a tab is allowed in a field value (RFC 9110 §5.5)
  });

  it("wait_for is checked as CSS in Node, before anything is fetched: another engine's query is refused", async () => {
    // Once checked inside the rendered page, where a page patching querySelector let `xpath=` through to Playwright.
    const before = server.hits('/counted');
    for (const [waitFor, reason] of [
      ['xpath=//a', 'it starts with a selector engine (text=, xpath=, …), which is not CSS'],
      ['text=Sign in', 'it starts with a selector engine'],
      ['div[', 'found the end of the selector'],
    ]) {
      const result = await session.call('fetch', { url: server.url('/counted'), render: 'always', wait_for: waitFor });
      expect(result.isError, waitFor).toBe(true);
      expect((result.structuredContent as { error?: { code?: string } }).error?.code, waitFor).toBe('INVALID_ARGUMENT');
      expect(result.text, waitFor).toContain(`wait_for "${waitFor}" is not valid CSS: `);
      expect(result.text, waitFor).toContain(reason);
    }
    expect(server.hits('/counted')).toBe(before);
  });

  it('map reads its start page with them', async () => {
    const stranger = await session.call('map', { url: server.url('/private') });
    expect(stranger.isError).toBe(true);
    expect(stranger.text).toContain('401');
    const member = await session.call('map', { url: server.url('/private'), headers: { cookie: SECRET } });
    expect(member.isError).toBeFalsy();
  });

  it('a crawl sends them to the start origin only', async () => {
    const result = await session.call('crawl', {
      url: server.url('/private'),
      headers: { cookie: SECRET },
      max_pages: 1,
    });
    expect(result.text).toContain('Members only');
  });
});

describe('strict arguments', () => {
  it('an unknown argument is an error that names it and suggests the closest known one', async () => {
    const result = await session.call('fetch', { url: server.url('/counted'), maxLength: 100 });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('unknown argument "maxLength" — did you mean "max_length"?');
    const typo = await session.call('crawl', { url: server.url('/counted'), max_pagse: 2 });
    expect(typo.text).toContain('unknown argument "max_pagse" — did you mean "max_pages"?');
  });

  it('every input schema says additionalProperties: false', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) expect(tool.inputSchema.additionalProperties).toBe(false);
  });
});

describe('the JSON API and the CLI', () => {
  const http = useTestHttpServer(() => ({ ALLOW_PRIVATE_HOSTS: `${server.hostPort},${other.hostPort}` }));

  it('POST /tools/fetch takes headers and max_age, and refuses maxLength with the suggestion', async () => {
    const member = await callApi(http.url, 'fetch', { url: server.url('/private'), headers: { cookie: SECRET } });
    expect(member.success).toBe(true);
    expect(member.result?.text).toContain('Members only');
    const wrong = await callApi(http.url, 'fetch', { url: server.url('/counted'), maxLength: 5 });
    expect(wrong.success).toBe(false);
    expect(wrong.error).toContain('did you mean "max_length"?');
  });

  it('web-reader read --header sends the cookie; the value never reaches stderr', async () => {
    const env = { ALLOW_PRIVATE_HOSTS: server.hostPort };
    const ok = await runCli(['read', server.url('/private'), '--header', `Cookie: ${SECRET}`], env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Members only');
    const refused = await runCli(['read', server.url('/private'), '--header', 'Cookie: wrong-secret-42'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('401');
    expect(refused.stderr).not.toContain('wrong-secret-42');
  });

  it('web-reader read --header with a header it sets itself ends its sentence before the help hint', async () => {
    const refused = await runCli(['read', server.url('/private'), '--header', 'Host: x'], {
      ALLOW_PRIVATE_HOSTS: server.hostPort,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("connection's own headers). Run web-reader read --help.");
  });
});

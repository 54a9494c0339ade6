import { describe, expect, it } from 'vitest';
import { disallowAll, parseRobots, type RobotsRules } from '../fetch/robots.js';
import type { Politeness } from './politeness.js';
import { createVisit } from './visit.js';

const URL_A = 'https://site.test/a';

function visitWith(rules: RobotsRules) {
  const read: string[] = [];
  const politeness: Politeness = {
    robotsFor: async () => rules,
    waitForTurn: async () => undefined,
    lastStarts: () => ({}),
  };
  const visit = createVisit({
    io: {
      async readPage(url) {
        read.push(url);
        return { finalUrl: url, title: 'A', content: 'A' };
      },
      extractLinks: async () => ({ urls: [] }),
    },
    politeness,
    respectRobots: true,
    signal: new AbortController().signal,
    onRequest: () => undefined,
  });
  return { visit: () => visit({ url: URL_A, depth: 0 }), read };
}

describe('a visit and robots.txt', () => {
  it('files a URL disallowed by robots.txt under robots, unfetched', async () => {
    const { visit, read } = visitWith(parseRobots('https://site.test/robots.txt', 'User-agent: *\nDisallow: /a\n'));
    expect(await visit()).toMatchObject({ kind: 'robots', reason: 'disallowed by robots.txt' });
    expect(read).toEqual([]);
  });

  it('files a site whose robots.txt answered 5xx under robots: the server answered', async () => {
    const { visit } = visitWith(disallowAll('robots.txt answered HTTP 503'));
    expect(await visit()).toMatchObject({ kind: 'robots', reason: 'robots.txt answered HTTP 503' });
  });

  it("files a site that refused the connection (or whose name did not resolve) with the page's own error, unfetched", async () => {
    const message = "Failed to connect to https://site.test/robots.txt: 'getaddrinfo ENOTFOUND site.test'";
    const { visit, read } = visitWith(
      disallowAll(`robots.txt could not be read: ${message}`, { code: 'CONNECT_FAILED', message }),
    );
    // Issue 23: the start page's failure names the page, not robots.txt, which was asked first and failed alike.
    expect(await visit()).toEqual({
      kind: 'error',
      entry: { url: URL_A, depth: 0 },
      code: 'CONNECT_FAILED',
      message:
        "Failed to connect to https://site.test/a: 'getaddrinfo ENOTFOUND site.test' (robots.txt, asked first, failed alike)",
    });
    expect(read).toEqual([]);
  });

  it('files a site whose robots.txt timed out as an error with its code, unfetched (RFC 9309)', async () => {
    const message = 'Timed out after 10000 ms fetching https://site.test/robots.txt.';
    const { visit, read } = visitWith(
      disallowAll(`robots.txt could not be read: ${message}`, { code: 'TIMEOUT', message }),
    );
    expect(await visit()).toEqual({
      kind: 'error',
      entry: { url: URL_A, depth: 0 },
      code: 'TIMEOUT',
      message: `${message} — no page of https://site.test is fetched while its robots.txt cannot be reached (RFC 9309)`,
    });
    expect(read).toEqual([]);
  });
});

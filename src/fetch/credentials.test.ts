import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../test/fixture-server.js';
import { resolveConfig } from '../config.js';
import { bindCredentials, carriesCredentials, credentialHeadersFor } from './credentials.js';
import { createFetcher } from './guarded-fetch.js';

let a: FixtureServer;
let b: FixtureServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startFixtureServer(), startFixtureServer()]);
});
afterAll(() => Promise.all([a.close(), b.close()]));

const SECRET = { cookie: 'session=s3cr3t' };
const fetcher = () =>
  createFetcher(resolveConfig({ ALLOW_PRIVATE_HOSTS: `${a.hostPort},${b.hostPort}`, FETCH_TIMEOUT: '5000' }));
const redirect = (from: FixtureServer, to: string) => from.url(`/redirect-to?url=${encodeURIComponent(to)}`);
const cookieSeen = async (url: string, credentials = bindCredentials(a.url('/'), SECRET)) => {
  const page = await fetcher()(url, { credentials });
  return (JSON.parse(new TextDecoder().decode(page.body)) as { cookie?: string }).cookie;
};

describe('bindCredentials and the one check', () => {
  it('binds headers to the origin of the URL, and answers them for that origin only', () => {
    const credentials = bindCredentials('http://a.example:8080/login?x=1', SECRET);
    expect(credentials).toEqual({ origin: 'http://a.example:8080', headers: SECRET });
    expect(credentialHeadersFor(credentials, 'http://a.example:8080/other')).toEqual(SECRET);
    expect(credentialHeadersFor(credentials, 'http://a.example:8081/other')).toBeUndefined();
    expect(credentialHeadersFor(credentials, 'https://a.example:8080/other')).toBeUndefined();
    expect(carriesCredentials(credentials, 'http://b.example/')).toBe(false);
    expect(carriesCredentials(undefined, 'http://a.example:8080/')).toBe(false);
  });

  it('no headers, or no URL to bind them to, is no credentials', () => {
    expect(bindCredentials('http://a.example/', {})).toBeUndefined();
    expect(bindCredentials('http://a.example/', undefined)).toBeUndefined();
    expect(bindCredentials('not a url', SECRET)).toBeUndefined();
  });
});

describe('the fetcher sends them on their own origin only', () => {
  it('the first request and a redirect within the origin carry them', async () => {
    expect(await cookieSeen(a.url('/echo-headers'))).toBe(SECRET.cookie);
    expect(await cookieSeen(redirect(a, a.url('/echo-headers')))).toBe(SECRET.cookie);
  });

  it('a request to another origin does not, nor a chain that starts there and redirects to theirs', async () => {
    expect(await cookieSeen(b.url('/echo-headers'))).toBeUndefined();
    expect(await cookieSeen(redirect(b, a.url('/echo-headers')))).toBeUndefined();
  });

  it('a chain that left their origin never carries them again, even back on it', async () => {
    expect(await cookieSeen(redirect(a, redirect(b, a.url('/echo-headers'))))).toBeUndefined();
    expect(b.requestHeaders('/redirect-to').every((headers) => headers.cookie === undefined)).toBe(true);
  });
});

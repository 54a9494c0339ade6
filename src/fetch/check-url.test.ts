import { describe, expect, it } from 'vitest';
import { checkUrl, hostPortOf } from './check-url.js';

const NONE = new Set<string>();

describe('checkUrl', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/', 'data:text/html,hi', 'javascript:alert(1)', 'gopher://x/'])(
    'refuses the scheme of %s',
    (url) => {
      expect(() => checkUrl(url, NONE)).toThrow(
        expect.objectContaining({ name: 'SecurityError', code: 'UNSUPPORTED_PROTOCOL' }),
      );
    },
  );

  it('names the argument when the URL does not parse', () => {
    expect(() => checkUrl('not a url', NONE)).toThrow(
      expect.objectContaining({
        name: 'InvalidArgumentError',
        argument: 'url',
        message: expect.stringContaining("Invalid URL 'not a url'"),
      }),
    );
  });

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://0.0.0.0/', '0.0.0.0'],
    ['http://[::]/', '::'],
    ['http://[::1]:8080/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1::'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['http://localhost/', 'localhost'],
    ['http://LOCALHOST./', 'localhost.'],
    ['http://app.localhost:3000/', 'app.localhost'],
  ])('refuses %s before connecting (host %s)', (url, host) => {
    expect.assertions(1);
    try {
      checkUrl(url, NONE);
    } catch (error) {
      expect(error).toMatchObject({
        name: 'SecurityError',
        code: 'PRIVATE_ADDRESS',
        message: expect.stringContaining(`: ${host} is `),
      });
    }
  });

  it('tells the agent how to allow the exact host:port', () => {
    expect(() => checkUrl('http://127.0.0.1:4000/x', NONE)).toThrow(
      "Refusing to fetch http://127.0.0.1:4000/x: 127.0.0.1 is loopback 127.0.0.0/8 (RFC 1122). Only public internet addresses can be fetched. If this host is meant to be reachable (e.g. a local test server), add '127.0.0.1:4000' to ALLOW_PRIVATE_HOSTS.",
    );
  });

  it('allows exactly the listed host:port, whatever spelling the URL used', () => {
    const allow = new Set(['127.0.0.1:4000']);
    expect(checkUrl('http://127.0.0.1:4000/', allow)).toMatchObject({
      hostPort: '127.0.0.1:4000',
      isAllowedPrivate: true,
    });
    expect(checkUrl('http://2130706433:4000/', allow).isAllowedPrivate).toBe(true);
    expect(() => checkUrl('http://127.0.0.1:4001/', allow)).toThrow(/PRIVATE|Refusing/);
    expect(() => checkUrl('http://127.0.0.1/', allow)).toThrow(/Refusing/);
    expect(() => checkUrl('http://127.0.0.2:4000/', allow)).toThrow(/Refusing/);
  });

  it('leaves public hosts and names for the connect-time check', () => {
    expect(checkUrl('https://example.com/a?b#c', NONE)).toMatchObject({
      hostPort: 'example.com:443',
      isAllowedPrivate: false,
    });
    expect(checkUrl('http://93.184.216.34/', NONE).hostPort).toBe('93.184.216.34:80');
  });

  it('spells host:port as ALLOW_PRIVATE_HOSTS does, brackets kept for IPv6', () => {
    expect(hostPortOf(new URL('http://[::1]:8080/'))).toBe('[::1]:8080');
    expect(hostPortOf(new URL('https://Example.COM/'))).toBe('example.com:443');
  });
});

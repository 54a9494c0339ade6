import { describe, expect, it } from 'vitest';
import { credentialsOf, endToEndHeaders, parseAuthority } from './proxy-protocol.js';

describe('proxy protocol', () => {
  it.each([
    ['127.0.0.1:80', '127.0.0.1:80'],
    ['[::1]:443', '[::1]:443'],
    ['2130706433:80', '127.0.0.1:80'],
    ['0x7f000001:80', '127.0.0.1:80'],
    ['127.1:80', '127.0.0.1:80'],
    ['EXAMPLE.com:443', 'example.com:443'],
  ])('parseAuthority(%s) is %s, as URL parsing spells it', (input, hostPort) => {
    expect(parseAuthority(input)?.hostPort).toBe(hostPort);
  });

  it.each(['example.com', 'example.com:0', 'example.com:70000', 'a b:80', 'user@host:80'])(
    'parseAuthority(%s) is no authority',
    (input) => expect(parseAuthority(input)).toBeUndefined(),
  );

  it('credentialsOf reads Basic user:password (the password may hold colons), nothing else', () => {
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    expect(credentialsOf(basic('render-1:a:b'))).toEqual({ username: 'render-1', password: 'a:b' });
    expect(credentialsOf(basic('no-colon'))).toBeUndefined();
    expect(credentialsOf('Bearer abc')).toBeUndefined();
    expect(credentialsOf(undefined)).toBeUndefined();
  });

  it('endToEndHeaders drops hop-by-hop headers, our credentials and what Connection names', () => {
    const raw = ['Host', 'a', 'Proxy-Authorization', 'Basic x', 'Connection', 'keep-alive, X-Secret', 'X-Secret', '1'];
    expect(endToEndHeaders([...raw, 'Accept', '*/*'], ['connection', 'close'])).toEqual([
      'Host',
      'a',
      'Accept',
      '*/*',
      'connection',
      'close',
    ]);
  });
});

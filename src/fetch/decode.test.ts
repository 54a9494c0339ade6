import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARSET_SAMPLES, startFixtureServer, type FixtureServer } from '../../test/fixture-server.js';
import { resolveConfig } from '../config.js';
import { decodeBody } from './decode.js';
import { createFetcher } from './guarded-fetch.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'));

describe('decodeBody', () => {
  it.each(Object.entries(CHARSET_SAMPLES))('decodes %s from the Content-Type charset', (label, sample) => {
    expect(decodeBody(sample.bytes, `text/html; charset=${label}`)).toEqual({ text: sample.text, charset: label });
  });

  it('maps windows-1252 bytes 0x80–0x9F to the characters the Encoding Standard says, not C1 controls', () => {
    expect(
      decodeBody(bytes(0x80, 0x85, 0x93, 0x94, 0x96, 0x97, 0x99, 0x9f, 0x81), 'text/plain; charset=windows-1252').text,
    ).toBe('€…“”–—™Ÿ\u0081');
  });

  it('reads labels the Encoding Standard way: latin1 and iso-8859-1 mean windows-1252', () => {
    expect(decodeBody(bytes(0x93, 0x41, 0x94), 'text/html; charset=ISO-8859-1')).toEqual({
      text: '“A”',
      charset: 'windows-1252',
    });
    expect(decodeBody(bytes(0xe9), 'text/html; charset="latin1"').text).toBe('é');
    expect(decodeBody(CHARSET_SAMPLES.shift_jis!.bytes, 'text/html; charset=x-sjis').charset).toBe('shift_jis');
  });

  it('falls through an unknown header label to the BOM', () => {
    const body = Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from('é', 'utf8')]);
    expect(decodeBody(body, 'text/html; charset=no-such-charset')).toEqual({ text: 'é', charset: 'utf-8' });
  });

  it.each([
    ['utf-8', [0xef, 0xbb, 0xbf, 0xc3, 0xa9], 'é'],
    ['utf-16le', [0xff, 0xfe, 0xe9, 0x00, 0x41, 0x00], 'éA'],
    ['utf-16be', [0xfe, 0xff, 0x00, 0xe9, 0x00, 0x41], 'éA'],
  ])('uses a %s byte order mark when the header names no charset, and strips it', (charset, input, text) => {
    expect(decodeBody(Uint8Array.from(input), 'text/html')).toEqual({ text, charset });
  });

  it('trusts a BOM over the header charset (Encoding Standard "decode") and never keeps the BOM as text', () => {
    const utf8 = Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from('café', 'utf8')]);
    expect(decodeBody(utf8, 'text/html; charset=windows-1252')).toEqual({ text: 'café', charset: 'utf-8' });
    const utf16 = Uint8Array.from([0xff, 0xfe, 0xe9, 0x00, 0x41, 0x00]);
    expect(decodeBody(utf16, 'text/plain; charset=iso-8859-1')).toEqual({ text: 'éA', charset: 'utf-16le' });
  });

  it.each([
    ['<meta charset="shift_jis">', 'shift_jis'],
    ["<meta charset='GBK'>", 'gbk'],
    ['<META CHARSET=koi8-r>', 'koi8-r'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">', 'euc-kr'],
  ])('finds %s in the first 1024 bytes', (meta, charset) => {
    const sample = CHARSET_SAMPLES[charset]!;
    const body = Buffer.concat([Buffer.from(`<html><head>${meta}</head><body>`), sample.bytes]);
    expect(decodeBody(body, 'text/html')).toEqual({ text: expect.stringContaining(sample.text), charset });
  });

  it('ignores a meta charset beyond the first 1024 bytes', () => {
    const body = ascii(`<html><!--${'x'.repeat(1100)}--><meta charset="koi8-r">ok`);
    expect(decodeBody(body, 'text/html').charset).toBe('utf-8');
  });

  it('treats a meta charset of UTF-16 as UTF-8 (HTML prescan rule)', () => {
    expect(decodeBody(ascii('<meta charset="utf-16"><p>hi'), 'text/html').charset).toBe('utf-8');
  });

  it('does not look for meta tags in JSON or plain text', () => {
    expect(decodeBody(ascii('{"a":"<meta charset=koi8-r>"}'), 'application/json').charset).toBe('utf-8');
  });

  it('reads the XML declaration of XML documents', () => {
    const body = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><rss>'), bytes(0xe9)]);
    expect(decodeBody(body, 'application/rss+xml')).toEqual({
      text: '<?xml version="1.0" encoding="ISO-8859-1"?><rss>é',
      charset: 'windows-1252',
    });
  });

  it('defaults to UTF-8, and to windows-1252 when the bytes are not valid UTF-8', () => {
    expect(decodeBody(Buffer.from('naïve — 日本', 'utf8'), undefined)).toEqual({
      text: 'naïve — 日本',
      charset: 'utf-8',
    });
    expect(decodeBody(CHARSET_SAMPLES['windows-1252']!.bytes, 'text/html')).toEqual({
      text: 'Café — naïve €5',
      charset: 'windows-1252',
    });
  });

  it('decodes an empty body', () => {
    expect(decodeBody(new Uint8Array(0), undefined)).toEqual({ text: '', charset: 'utf-8' });
  });
});

describe('decoding pages from the fixture server', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function fetchText(path: string) {
    const fetchPage = createFetcher(resolveConfig({ ALLOW_PRIVATE_HOSTS: server.hostPort }));
    const page = await fetchPage(server.url(path));
    return decodeBody(page.body, page.headers['content-type']);
  }

  it.each(['windows-1252', 'shift_jis', 'gbk', 'euc-kr', 'koi8-r'])('%s declared in the header', async (label) => {
    expect(await fetchText(`/charset/${label}`)).toMatchObject({
      text: expect.stringContaining(CHARSET_SAMPLES[label]!.text),
      charset: label,
    });
  });

  it.each(['shift_jis', 'gbk'])('%s declared in <meta charset> and <meta http-equiv>', async (label) => {
    const text = CHARSET_SAMPLES[label]!.text;
    expect(await fetchText(`/charset-meta/${label}`)).toMatchObject({
      text: expect.stringContaining(text),
      charset: label,
    });
    expect(await fetchText(`/charset-http-equiv/${label}`)).toMatchObject({ text: expect.stringContaining(text) });
  });

  it('a UTF-8 BOM, a header that contradicts the meta tag, and no declaration at all', async () => {
    const bom = await fetchText('/charset-bom');
    expect(bom).toMatchObject({ charset: 'utf-8', text: expect.stringContaining('Café — 日本語') });
    expect(bom.text.startsWith('<!doctype')).toBe(true);
    expect(await fetchText('/charset-conflict')).toMatchObject({
      charset: 'windows-1252',
      text: expect.stringContaining('Café — naïve €5'),
    });
    expect(await fetchText('/charset-none')).toMatchObject({
      charset: 'windows-1252',
      text: expect.stringContaining('Café — naïve €5'),
    });
  });
});

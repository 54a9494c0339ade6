import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAVE_API_URL, DEFAULT_USER_AGENT, PRODUCT_USER_AGENT, resolveConfig } from './config.js';
import { REPOSITORY_URL, VERSION } from './version.js';

describe('User-Agent', () => {
  it('is browser-like for single pages and the product name for the crawler by default', () => {
    const config = resolveConfig({});
    expect(config.userAgent).toBe(DEFAULT_USER_AGENT);
    expect(config.crawlerUserAgent).toBe(`web-reader/${VERSION} (+${REPOSITORY_URL})`);
    expect(config.crawlerUserAgent).toBe(PRODUCT_USER_AGENT);
  });

  it('is the one the user set, for every tool: USER_AGENT, or --user-agent over it', () => {
    const fromEnv = resolveConfig({ USER_AGENT: ' MyBot/2.0 ' });
    expect([fromEnv.userAgent, fromEnv.crawlerUserAgent]).toEqual(['MyBot/2.0', 'MyBot/2.0']);
    const fromFlag = resolveConfig({ USER_AGENT: 'MyBot/2.0' }, { userAgent: 'FlagBot/1.0' });
    expect([fromFlag.userAgent, fromFlag.crawlerUserAgent]).toEqual(['FlagBot/1.0', 'FlagBot/1.0']);
  });

  it('keeps the defaults when the value is blank', () => {
    const config = resolveConfig({ USER_AGENT: '  ' }, { userAgent: '' });
    expect([config.userAgent, config.crawlerUserAgent]).toEqual([DEFAULT_USER_AGENT, PRODUCT_USER_AGENT]);
  });
});

describe('ALLOW_PRIVATE_HOSTS', () => {
  it('is a comma-separated list, and a space-separated one is refused saying so', () => {
    expect([...resolveConfig({ ALLOW_PRIVATE_HOSTS: '127.0.0.1:8080, localhost:3000' }).allowPrivateHosts]).toEqual([
      '127.0.0.1:8080',
      'localhost:3000',
    ]);
    expect(() => resolveConfig({ ALLOW_PRIVATE_HOSTS: '127.0.0.1:8080 127.0.0.1:1' })).toThrow(
      "ALLOW_PRIVATE_HOSTS is a comma-separated list of exact host:port pairs (e.g. 127.0.0.1:8080,localhost:3000); got '127.0.0.1:8080 127.0.0.1:1'.",
    );
  });
});

describe('search providers', () => {
  it('none by default; Brave at its own endpoint unless BRAVE_API_URL names another', () => {
    expect(resolveConfig({})).toMatchObject({ searxngUrl: undefined, braveApiKey: undefined });
    expect(resolveConfig({}).braveApiUrl).toBe(DEFAULT_BRAVE_API_URL);
    const proxied = resolveConfig({ BRAVE_API_KEY: ' k ', BRAVE_API_URL: 'http://10.0.0.5:8080/brave' });
    expect([proxied.braveApiKey, proxied.braveApiUrl]).toEqual(['k', 'http://10.0.0.5:8080/brave']);
  });

  it.each(['SEARXNG_URL', 'BRAVE_API_URL'])('%s must be an http(s) URL, refused naming it', (name) => {
    expect(() => resolveConfig({ [name]: 'searxng.local' })).toThrow(`${name} must be an http:// or https:// URL`);
    expect(() => resolveConfig({ [name]: 'ftp://searxng.local/' })).toThrow(name);
  });
});

describe('OCR', () => {
  it('eng by default; OCR_LANGUAGES joined by + (commas accepted), TESSERACT_PATH taken as is', () => {
    expect(resolveConfig({})).toMatchObject({ ocrLanguages: 'eng', tesseractPath: undefined, ocrConcurrency: 2 });
    const config = resolveConfig({ OCR_LANGUAGES: 'eng, deu+fra', TESSERACT_PATH: ' /opt/tesseract ' });
    expect([config.ocrLanguages, config.tesseractPath]).toEqual(['eng+deu+fra', '/opt/tesseract']);
  });

  it.each(['eng --tessdata-dir /tmp', '../../etc/x', '-l'])('OCR_LANGUAGES %j is refused naming it', (value) => {
    expect(() => resolveConfig({ OCR_LANGUAGES: value })).toThrow(
      "OCR_LANGUAGES must be tesseract language names joined by '+'",
    );
  });
});

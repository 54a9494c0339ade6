import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GZIP_BOMB_DECODED_BYTES,
  prepareBombs,
  startFixtureServer,
  type FixtureServer,
} from '../../test/fixture-server.js';
import { resolveConfig } from '../config.js';
import { createFetcher } from './guarded-fetch.js';
import { readBody } from './read-body.js';

const MB = 1024 * 1024;
let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
  prepareBombs(); // outside the CPU time the tests measure
});

afterAll(async () => {
  await server.close();
});

/** CPU time this process (every thread: zlib's too) spent since `before`, in ms. */
function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function fetcher(maxBytes = MB) {
  return createFetcher(
    resolveConfig({
      ALLOW_PRIVATE_HOSTS: server.hostPort,
      MAX_RESPONSE_SIZE: String(maxBytes),
      FETCH_TIMEOUT: '10000',
    }),
  );
}

/** A source that yields `bytes` in 16 KiB chunks and counts how many it was asked for. */
function countingSource(bytes: Buffer) {
  const counter = { pulled: 0 };
  async function* chunks() {
    for (let offset = 0; offset < bytes.length; offset += 16 * 1024) {
      const chunk = bytes.subarray(offset, offset + 16 * 1024);
      counter.pulled += chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), counter };
}

describe('MAX_RESPONSE_SIZE over the network', () => {
  it.each([
    ['/gzip-bomb', 'a 1 GiB gzip bomb'],
    ['/brotli-bomb', 'a 100 MiB brotli bomb'],
    ['/endless', 'an endless body'],
  ])('stops %s (%s) quickly', async (path) => {
    const before = process.cpuUsage();
    await expect(fetcher()(server.url(path))).rejects.toMatchObject({
      name: 'FetchError',
      code: 'RESPONSE_TOO_LARGE',
      url: server.url(path),
      message: expect.stringContaining(`Response from ${server.url(path)} exceeds MAX_RESPONSE_SIZE (1048576 bytes)`),
    });
    // CPU time, which load does not stretch: a sliver of the body decoded, not all of it (1 GiB takes seconds).
    expect(cpuMsSince(before)).toBeLessThan(1000);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    await expect(fetcher()(server.url('/large/50000000'))).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      message: expect.stringContaining('Content-Length is 50000000 bytes'),
    });
  });

  it('accepts a body of exactly MAX_RESPONSE_SIZE bytes', async () => {
    const page = await fetcher()(server.url(`/large/${MB}`));
    expect(page.body.byteLength).toBe(MB);
  });

  it('reports a corrupt gzip body as BAD_RESPONSE', async () => {
    await expect(fetcher()(server.url('/corrupt-gzip'))).rejects.toMatchObject({
      name: 'FetchError',
      code: 'BAD_RESPONSE',
      message: expect.stringContaining(`Could not decode the gzip body of ${server.url('/corrupt-gzip')}`),
    });
  });
});

describe('stacked content codings', () => {
  /** `depth` layers of gzip, announced as `listed` codings (a hostile header may list more than it applied). */
  function stacked(depth: number, listed = depth) {
    let body = Buffer.from('layered');
    for (let layer = 0; layer < depth; layer += 1) body = zlib.gzipSync(body);
    return { body, header: new Array<string>(listed).fill('gzip').join(',') };
  }

  it('undoes five stacked codings (the limit)', async () => {
    const { body, header } = stacked(5);
    server.route('/codings/5', (_req, res) => {
      res.writeHead(200, { 'content-encoding': header }).end(body);
    });
    const page = await fetcher()(server.url('/codings/5'));
    expect(Buffer.from(page.body).toString()).toBe('layered');
  });

  it('refuses a Content-Encoding listing more than five codings with a clear BAD_RESPONSE', async () => {
    const { body, header } = stacked(6);
    server.route('/codings/6', (_req, res) => {
      res.writeHead(200, { 'content-encoding': header }).end(body);
    });
    await expect(fetcher()(server.url('/codings/6'))).rejects.toMatchObject({
      name: 'FetchError',
      code: 'BAD_RESPONSE',
      message:
        `Refusing to decode the body of ${server.url('/codings/6')}: its Content-Encoding lists 6 codings, ` +
        'more than the limit of 5. The server is misconfigured or hostile.',
    });
  });

  it('refuses 3,000 listed codings at once instead of building 3,000 decoders', async () => {
    const { body, header } = stacked(1, 3000);
    server.route('/codings/3000', (_req, res) => {
      res.writeHead(200, { 'content-encoding': header }).end(body);
    });
    const before = process.cpuUsage();
    await expect(fetcher()(server.url('/codings/3000'))).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('lists 3000 codings, more than the limit of 5'),
    });
    expect(cpuMsSince(before)).toBeLessThan(1000); // CPU time: the old code spent ~10 s and 755 MB here
  });
});

describe('readBody', () => {
  const url = 'http://example.test/';

  it('stops a 1 GiB gzip bomb after reading a sliver of it', async () => {
    const member = zlib.gzipSync(Buffer.alloc(10 * MB), { level: 9 });
    const bomb = Buffer.concat(new Array<Buffer>(GZIP_BOMB_DECODED_BYTES / (10 * MB)).fill(member));
    const { stream, counter } = countingSource(bomb);
    const before = process.cpuUsage();
    await expect(readBody(stream, { url, maxBytes: MB, contentEncoding: 'gzip' })).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      message: expect.stringContaining('after decompression'),
    });
    expect(cpuMsSince(before)).toBeLessThan(1000); // CPU time, which load does not stretch
    expect(counter.pulled).toBeLessThan(bomb.length / 20);
    expect(stream.destroyed).toBe(true);
  });

  it('undoes codings in reverse order of application (RFC 9110 §8.4)', async () => {
    const twice = zlib.brotliCompressSync(zlib.gzipSync(Buffer.from('hello twice')));
    const body = await readBody(Readable.from([twice]), { url, maxBytes: MB, contentEncoding: 'gzip, br' });
    expect(Buffer.from(body).toString()).toBe('hello twice');
  });

  it.each([
    ['x-gzip', zlib.gzipSync],
    ['GZIP', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['deflate', zlib.deflateRawSync],
    ['br', zlib.brotliCompressSync],
  ])('decodes %s', async (coding, encode) => {
    const encoded = encode(Buffer.from('decoded text'));
    // One byte at a time, so the deflate header sniff must wait for its two bytes.
    const source = Readable.from([...encoded].map((byte) => Buffer.from([byte])));
    const body = await readBody(source, { url, maxBytes: MB, contentEncoding: coding });
    expect(Buffer.from(body).toString()).toBe('decoded text');
  });

  it('passes unknown codings and identity through as received', async () => {
    for (const coding of ['zstd', 'identity', 'utf-8', undefined]) {
      const body = await readBody(Readable.from([Buffer.from('as is')]), {
        url,
        maxBytes: MB,
        contentEncoding: coding,
      });
      expect(Buffer.from(body).toString()).toBe('as is');
    }
  });

  it('accepts a truncated gzip body, keeping what decoded', async () => {
    const gzip = zlib.gzipSync(Buffer.from('a'.repeat(10000)));
    const body = await readBody(Readable.from([gzip.subarray(0, gzip.length - 8)]), {
      url,
      maxBytes: MB,
      contentEncoding: 'gzip',
    });
    expect(body.byteLength).toBe(10000);
  });

  it('counts decoded bytes, not Content-Length, when the body is compressed', async () => {
    const gzip = zlib.gzipSync(Buffer.from('small'));
    const body = await readBody(Readable.from([gzip]), {
      url,
      maxBytes: 10,
      contentEncoding: 'gzip',
      contentLength: '999999',
    });
    expect(Buffer.from(body).toString()).toBe('small');
  });

  it('stops when the signal aborts', async () => {
    const source = new Readable({ read() {} });
    const controller = new AbortController();
    const reading = readBody(source, { url, maxBytes: MB, signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(source.destroyed).toBe(true);
  });

  it('reports a broken connection as BAD_RESPONSE', async () => {
    const source = new Readable({ read() {} });
    const reading = readBody(source, { url, maxBytes: MB });
    source.destroy(new Error('other side closed'));
    await expect(reading).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: "The connection broke while reading http://example.test/: 'other side closed'.",
    });
  });
});

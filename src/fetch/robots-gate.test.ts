import { describe, expect, it } from 'vitest';
import { FetchError, HttpStatusError, SecurityError, TimeoutError } from '../errors.js';
import { createRobotsGate } from './robots-gate.js';
import { readRobotsRules } from './robots.js';

const DENY_PRIVATE = 'User-agent: *\nDisallow: /private/\n';

describe('readRobotsRules (RFC 9309 §2.3.1)', () => {
  const read = (error: Error) => readRobotsRules('https://example.com/a', () => Promise.reject(error));

  it('a 4xx robots.txt means no rules; a 5xx or a failed read disallows everything, saying why', async () => {
    expect((await read(new HttpStatusError('u', 404, 'gone'))).isAllowed('https://example.com/a')).toBe(true);
    const down = await read(new HttpStatusError('u', 503, 'down'));
    expect(down.isAllowed('https://example.com/a')).toBe(false);
    expect(down.disallowAllReason).toBe('robots.txt answered HTTP 503');
    expect((await read(new Error('reset'))).disallowAllReason).toBe('robots.txt could not be read: reset');
  });

  it('a site that does not answer is "unreachable", with the failure kept apart from a 5xx answer', async () => {
    const refused = await read(new FetchError('CONNECT_FAILED', 'u', "Failed to connect to u: 'ECONNREFUSED'"));
    expect(refused.isAllowed('https://example.com/a')).toBe(false);
    expect(refused.unreachable).toEqual({ code: 'CONNECT_FAILED', message: "Failed to connect to u: 'ECONNREFUSED'" });
    expect((await read(new TimeoutError('u', 10))).unreachable?.code).toBe('TIMEOUT');
    expect((await read(new HttpStatusError('u', 503, 'down'))).unreachable).toBeUndefined();
  });

  it('a refused address is thrown, not read as "unreachable"', async () => {
    await expect(read(new SecurityError('PRIVATE_ADDRESS', 'u', 'refused'))).rejects.toThrow('refused');
  });
});

describe('createRobotsGate', () => {
  it('refuses a disallowed URL with ROBOTS_DENIED and lets the rest and robots.txt itself through', async () => {
    const gate = createRobotsGate(async () => DENY_PRIVATE, 60_000);
    await expect(gate.check('https://example.com/private/x')).rejects.toMatchObject({ code: 'ROBOTS_DENIED' });
    await expect(gate.check('https://example.com/public')).resolves.toBeUndefined();
    await expect(gate.check('https://example.com/robots.txt')).resolves.toBeUndefined();
  });

  it("keeps an origin's rules for the TTL, then reads robots.txt again", async () => {
    let clock = 0;
    const reads: string[] = [];
    const gate = createRobotsGate(
      async (url) => (reads.push(url), DENY_PRIVATE),
      1000,
      () => clock,
    );
    await gate.check('https://example.com/a');
    await gate.check('https://example.com/b');
    await gate.check('https://other.example/a');
    expect(reads).toEqual(['https://example.com/robots.txt', 'https://other.example/robots.txt']);
    clock = 1000;
    await gate.check('https://example.com/c');
    expect(reads).toHaveLength(3);
  });

  it('a failed read is not kept: the next read asks again', async () => {
    let calls = 0;
    const gate = createRobotsGate(async () => {
      calls++;
      throw new SecurityError('PRIVATE_ADDRESS', 'u', 'refused');
    }, 60_000);
    await expect(gate.check('https://example.com/a')).rejects.toThrow('refused');
    await expect(gate.check('https://example.com/a')).rejects.toThrow('refused');
    expect(calls).toBe(2);
  });

  it('callers asking at once share one read, and one caller hanging up leaves the others their answer', async () => {
    let reads = 0;
    let answer: (text: string) => void = () => {};
    const gate = createRobotsGate(() => {
      reads++;
      return new Promise<string>((resolve) => (answer = resolve));
    }, 60_000);
    const gone = new AbortController();
    const first = gate.rulesFor('https://example.com/a', gone.signal);
    const second = gate.rulesFor('https://example.com/b');
    const check = gate.check('https://example.com/private/x');
    gone.abort(new Error('hung up'));
    await expect(first).rejects.toThrow('hung up');
    answer(DENY_PRIVATE);
    expect((await second).isAllowed('https://example.com/private/x')).toBe(false);
    await expect(check).rejects.toMatchObject({ code: 'ROBOTS_DENIED' });
    expect(reads).toBe(1);
  });
});

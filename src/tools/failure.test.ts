import { describe, expect, it } from 'vitest';
import { FetchError } from '../errors.js';
import { boundedMessage, failureOutput } from './failure.js';

describe('failureOutput', () => {
  it('quotes an echoed input of any length within bounds, in the text and the structured error', () => {
    const url = `https://example.com/${'a'.repeat(20_000)}`;
    const output = failureOutput(new FetchError('CONNECT_FAILED', url, `Could not connect to ${url}: refused.`));
    // The run ends at the next space, so it takes the colon along.
    expect(output.text).toBe(`Could not connect to ${url.slice(0, 200)}… (${url.length + 1} characters) refused.`);
    expect((output.structured.error as { message: string }).message).toBe(output.text);
  });

  it('leaves an ordinary message, and a quote already bounded, as they are', () => {
    const quoted = `'${'b'.repeat(200)}… (9000 characters)'`;
    expect(boundedMessage(new Error(`url is too long: ${quoted}.`))).toBe(`url is too long: ${quoted}.`);
    expect(boundedMessage(new Error('Timed out after 5000 ms fetching https://example.com/.'))).toBe(
      'Timed out after 5000 ms fetching https://example.com/.',
    );
  });
});

import O200K_RANKS from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens as plainO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, test } from 'vitest';
import {
  countTokens,
  countTokensAsync,
  LONG_PRE_TOKEN,
  LONGEST_TOKEN_BYTES,
  loadTokenizer,
  prefixLengthWithinTokens,
  surelyOverTokens,
  tokenBound,
  tokensWithin,
} from './tokens.js';

// countTokens is synchronous: the encoding it uses is loaded once, here.
await loadTokenizer();

const PLAIN = { disallowedSpecial: new Set<string>() };

// Ordinary text of several kinds, none with a pre-token longer than LONG_PRE_TOKEN.
const PROSE =
  'The quick brown fox jumps over the lazy dog. It isn\'t the first time; "they\'re" at it again!\n\n' +
  '  Indented line with\ttabs\t\tand   runs of   spaces.\r\nWindows line, then numbers 1234567 and 3.14159.\n' +
  '- [A link](https://example.com/path?q=1&r=2) — and an em dash…\n\n```js\nconst x = { a: [1, 2, 3] };\n```\n';
const CJK =
  '一个约定，信守15年，感人至深；一段真情，延续15年。子どもへの虐待をなくすための法律ができて、親が子どもを教育する。';
const TABS_BEFORE_MARKUP = '<div>\n\t\t<p>x</p>\t\t<a href="/">home</a>\n</div>';

/** CPU time this process (every thread: the tokenizer's workers too) spent since `before`, in ms. */
function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function randomWord(length: number, alphabet: string, seed = 7): string {
  let state = seed;
  const chars = Array.from(alphabet);
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return chars[state % chars.length];
  }).join('');
}

describe('countTokens', () => {
  test('counts tokens with a real BPE tokenizer, not characters / 4', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  test('ordinary text counts exactly as plain o200k, in pieces and whole, sync and async', async () => {
    for (const text of [
      PROSE,
      CJK,
      TABS_BEFORE_MARKUP,
      PROSE.repeat(400),
      (CJK + '\n').repeat(400),
      TABS_BEFORE_MARKUP.repeat(2000),
    ]) {
      expect(countTokens(text)).toBe(plainO200k(text, PLAIN));
      expect(await countTokensAsync(text)).toBe(plainO200k(text, PLAIN));
    }
  });

  test('a pre-token longer than LONG_PRE_TOKEN is counted in chunks, never below plain o200k', () => {
    const runs = [
      randomWord(3000, 'abcdefghijklmnopqrstuvwxyz'),
      randomWord(2000, '一个约定信守年感人至深段真情延续秦皇岛承德张家口等设区市演出'),
      randomWord(2000, '=-_*#~.,;:!?<>|'),
      'a'.repeat(5000),
      ' \t'.repeat(1000),
      `intro ${'x'.repeat(LONG_PRE_TOKEN + 1)} outro`,
    ];
    for (const run of runs) {
      const plain = plainO200k(run, PLAIN);
      expect(countTokens(run)).toBeGreaterThanOrEqual(plain);
      expect(countTokens(run)).toBeLessThan(plain * 1.6 + 10);
    }
  });

  // Plain o200k took 8.5 s on this word (issue 10): merging inside one pre-token grows with its square.
  // CPU time, not wall-clock time: a loaded machine stretches the one, not the other.
  test('one 100,000-character word is counted in far less than the old seconds', async () => {
    const word = randomWord(100_000, 'abcdefghijklmnopqrstuvwxyz');
    const before = process.cpuUsage();
    expect(countTokens(word)).toBeGreaterThan(20_000);
    expect(await countTokensAsync(`Before. ${word} After.`)).toBeGreaterThan(20_000);
    expect(cpuMsSince(before)).toBeLessThan(2500);
  });

  test('tokensWithin gives the count up to the limit and undefined past it', async () => {
    expect(await tokensWithin('hello world', 2)).toBe(2);
    expect(await tokensWithin('hello world', 1)).toBeUndefined();
    expect(await tokensWithin(PROSE.repeat(100), 50)).toBeUndefined();
  });

  test('text quoting a special token is counted and cut as plain text, not refused', async () => {
    const text = 'Models end a document with <|endoftext|> and chats with <|im_end|>. '.repeat(40);
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1); // spelled out, not the one special token
    expect(countTokens(text)).toBeGreaterThan(400);
    const length = await prefixLengthWithinTokens(text, 30);
    expect(length).toBeGreaterThan(0);
    expect(countTokens(text.slice(0, length))).toBeLessThanOrEqual(30);
  });
});

describe('prefixLengthWithinTokens', () => {
  test('the prefix that fits a token budget really fits and is a prefix of the text', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
    const length = await prefixLengthWithinTokens(text, 100);
    expect(length).toBeLessThan(text.length);
    expect(countTokens(text.slice(0, length))).toBeLessThanOrEqual(100);
    expect(countTokens(text.slice(0, length + 20))).toBeGreaterThan(100);
  });

  test('text within the budget is kept whole', async () => {
    expect(await prefixLengthWithinTokens('short text', 100)).toBe('short text'.length);
    expect(await prefixLengthWithinTokens('', 0)).toBe(0);
  });

  test('never ends on half a multi-byte character', async () => {
    const text = '日本語のテキスト。'.repeat(100);
    const length = await prefixLengthWithinTokens(text, 50);
    expect(text.slice(0, length)).not.toContain('\ufffd');
    expect(countTokens(text.slice(0, length))).toBeLessThanOrEqual(50);
  });

  test.each([
    ['a long word', `Start ${randomWord(200_000, 'abcdefghijklmnopqrstuvwxyz')} end`],
    ['a CJK run', randomWord(100_000, '一个约定信守年感人至深段真情延续秦皇岛承德张家口等设区市演出')],
    ['punctuation', '='.repeat(500_000)],
    ['ordinary text', PROSE.repeat(2000)],
  ])('cuts %s within the budget, and the budget is nearly used', async (_, text) => {
    const before = process.cpuUsage();
    for (const budget of [1, 37, 1000, 20_000]) {
      const length = await prefixLengthWithinTokens(text, budget);
      const counted = countTokens(text.slice(0, length));
      expect(counted).toBeLessThanOrEqual(budget);
      if (length < text.length) expect(counted).toBeGreaterThanOrEqual(budget - 30);
      else expect(countTokens(text)).toBeLessThanOrEqual(budget);
    }
    expect(cpuMsSince(before)).toBeLessThan(5000); // CPU time, which load does not stretch
  });
});

describe('surelyOverTokens', () => {
  test('LONGEST_TOKEN_BYTES is the longest token of the o200k vocabulary', () => {
    const encoder = new TextEncoder();
    let longest = 0;
    O200K_RANKS.forEach((token) => {
      longest = Math.max(longest, typeof token === 'string' ? encoder.encode(token).length : token.length);
    });
    expect(longest).toBe(LONGEST_TOKEN_BYTES);
  });

  test('a text longer than limit × LONGEST_TOKEN_BYTES is over the limit, and tokensWithin says so at once', async () => {
    const spaces = ' '.repeat(LONGEST_TOKEN_BYTES * 10 + 1);
    expect(surelyOverTokens(spaces.length, 10)).toBe(true);
    expect(countTokens(spaces)).toBeGreaterThan(10);
    expect(await tokensWithin(spaces, 10)).toBeUndefined();
    expect(surelyOverTokens(LONGEST_TOKEN_BYTES * 10, 10)).toBe(false);
  });
});

describe('tokenBound', () => {
  // Characters o200k has no merges for come out as several byte tokens each: more tokens than UTF-16 units.
  const HIEROGLYPHS = '𓀀𓀁𓀂𓀃𓀄𓀅𓀆𓀇𓀈𓀉 𓀊𓀋𓀌𓀍';
  const texts: Record<string, string> = {
    prose: PROSE,
    cjk: CJK,
    tabs: TABS_BEFORE_MARKUP,
    hieroglyphs: HIEROGLYPHS,
    emoji: '🙂👍🏽🇺🇳 '.repeat(50),
    'a long word (chunked)': 'x'.repeat(LONG_PRE_TOKEN * 7 + 3),
    'a long whitespace run (chunked)': ' \t'.repeat(LONG_PRE_TOKEN * 3),
    'a long CJK run (chunked)': '漢字仮名交じり文'.repeat(200),
    // Nearly a token per byte, in chunks: the chunks' slack is what keeps the bound above the count.
    'a long hieroglyph run (chunked)': HIEROGLYPHS.replace(' ', '').repeat(100),
    base64: Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251)).toString('base64'),
  };

  test('is never below the count, so a text within it fits (the rare-character case is above its length)', async () => {
    expect(countTokens(HIEROGLYPHS)).toBeGreaterThan(HIEROGLYPHS.length);
    for (const [name, text] of Object.entries(texts)) {
      expect([name, tokenBound(text) >= countTokens(text)]).toEqual([name, true]);
      expect([name, await prefixLengthWithinTokens(text, tokenBound(text))]).toEqual([name, text.length]);
    }
  });
});

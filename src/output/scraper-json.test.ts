import { describe, expect, it } from 'vitest';
import { chunkText, qualityOf, splitWords } from './scraper-json.js';

describe('chunkText', () => {
  it('splits into chunkSize words and lists the references each chunk contains', () => {
    const words = Array.from({ length: 250 }, (_, i) => (i === 10 ? '[1]' : i === 120 ? '[2]!' : `w${i}`));
    const chunks = chunkText(words.join(' '), [1, 2, 12], 100);
    expect(chunks.map((c) => [c.id, c.start_word, c.end_word, c.references])).toEqual([
      ['chunk-0', 0, 100, [1]],
      ['chunk-1', 100, 200, [2]],
      ['chunk-2', 200, 250, []],
    ]);
    expect(chunks[2]!.text.split(' ')).toHaveLength(50);
  });

  it('makes no chunks of an empty text', () => expect(chunkText('  ', [], 100)).toEqual([]));
});

describe('qualityOf', () => {
  it('counts characters, words and links; an article has more than 500 characters', async () => {
    expect(await qualityOf('a b  c', 2)).toEqual({
      text_length: 6,
      word_count: 3,
      link_count: 2,
      likely_article: false,
    });
    expect((await qualityOf('x'.repeat(501), 0)).likely_article).toBe(true);
  });

  it('counts the words of a page-sized text as splitWords does, across its slices', async () => {
    const text = 'one two\tthree\n\n  four '.repeat(60_000) + 'x'.repeat(300_000) + ' last';
    expect((await qualityOf(text, 0)).word_count).toBe(splitWords(text).length);
  });
});

import { describe, expect, it } from 'vitest';
import { isDateLine, MONTH_NAMES } from './date-line.js';

describe('isDateLine', () => {
  it.each([
    '23.10.2018',
    'Veröffentlichung: 2. Februar 2022',
    'opublikowano: 2021-04-29 17:13:04.031886+02:00',
    '| November 18, 2019 12:01 PM',
    'Registered: 2012-09-03',
    '4 de mayo de 2022',
    '12 stycznia 2021, 10:15',
  ])('%s is a date line', (text) => {
    expect(isDateLine(text)).toBe(true);
  });

  it.each([
    'The report was published on 23.10.2018.',
    'Die Halle öffnet am 2. Februar 2022 um 18 Uhr für alle Besucher',
    '2022',
    'Seite 2 von 5',
    '',
    `Updated: ${'2. Februar 2022 '.repeat(6)}`,
  ])('%s is not', (text) => {
    expect(isDateLine(text)).toBe(false);
  });

  // DATE matches lower-cased text without the `i` flag (date-line.ts): the same as `/iu` only if no letter of
  // lower-cased text but `ſ`, which isDateLine folds, is a case variant of a letter DATE spells.
  it('reads `ſ` as `s`, as case-insensitive matching did', () => {
    expect(isDateLine('12 Auguſt 2020')).toBe(true);
    expect(isDateLine('ſeptember 3, 2019')).toBe(true);
  });

  it('spells its month names in letters no other lower-case letter folds to, `ſ` apart', () => {
    const letters = new Set([...MONTH_NAMES.join(''), 'd', 'e', 't', 'T']);
    const sameLetter = new RegExp(`[${[...letters].join('')}]`, 'iu');
    const variants = new Set<string>();
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      for (const char of String.fromCodePoint(cp).toLowerCase()) {
        if (!letters.has(char) && sameLetter.test(char)) variants.add(char);
      }
    }
    expect([...variants]).toEqual(['ſ']);
  });
});

import { describe, expect, it } from 'vitest';
import { isDateLine } from './date-line.js';

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
});

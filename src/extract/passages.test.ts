import { describe, expect, it } from 'vitest';
import { headingText, PASSAGE_MAX_CHARS, splitPassages } from './passages.js';

const paths = (markdown: string) => splitPassages(markdown).passages.map((p) => p.path.join(' › '));

describe('splitPassages', () => {
  it('gives each passage the headings above it, outermost first, the title heading left out', () => {
    const markdown =
      '# Manual\n\nIntro.\n\n## Install\n\nPick one.\n\n### Linux\n\napt.\n\n### Windows\n\nmsi.\n\n## Use\n\nRun.';
    const split = splitPassages(markdown);
    expect(split.title).toBe('Manual');
    expect(paths(markdown)).toEqual(['', 'Install', 'Install › Linux', 'Install › Windows', 'Use']);
    expect(split.sectionCount).toBe(5);
    expect(split.sectionHeadings).toEqual([undefined, 'Install', 'Linux', 'Windows', 'Use']);
    expect(split.passages[2]).toMatchObject({ text: 'apt.', section: 2, part: 1, parts: 1 });
  });

  it('counts a heading with nothing under it but a deeper heading as a section of its own', () => {
    const split = splitPassages('## A\n\n### B\n\nText.');
    expect(split.sectionCount).toBe(2);
    expect(paths('## A\n\n### B\n\nText.')).toEqual(['A › B']);
  });

  it('a # inside a code fence is no heading, and a fence is never cut at its blank lines', () => {
    const markdown = '## Shell\n\n```sh\n# not a heading\n\necho hi\n```\n\nAfter.';
    const split = splitPassages(markdown);
    expect(paths(markdown)).toEqual(['Shell']);
    expect(split.passages[0]!.text).toBe('```sh\n# not a heading\n\necho hi\n```\n\nAfter.');
  });

  it('cuts a long section into numbered parts at paragraph boundaries', () => {
    const paragraph = 'Word '.repeat(100).trim() + '.';
    const markdown = `## Long\n\n${Array.from({ length: 6 }, () => paragraph).join('\n\n')}`;
    const { passages } = splitPassages(markdown);
    expect(passages.length).toBeGreaterThan(2);
    expect(passages.every((p) => p.path[0] === 'Long' && p.parts === passages.length)).toBe(true);
    expect(passages.map((p) => p.part)).toEqual(passages.map((_, i) => i + 1));
    expect(passages.map((p) => p.text).join('\n\n')).toBe(markdown.slice('## Long\n\n'.length));
  });

  it('cuts one paragraph longer than the cap between sentences, no passage over it', () => {
    const sentence = 'The tide came in over the flats and the birds rose together. ';
    const markdown = sentence.repeat(80).trim();
    const { passages } = splitPassages(markdown);
    expect(passages.length).toBeGreaterThan(3);
    for (const passage of passages) {
      expect(passage.text.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
      expect(passage.text).toMatch(/birds rose together\.$/);
    }
  });

  it('a page with no text has no passages', () => {
    expect(splitPassages('')).toEqual({ passages: [], sectionCount: 0, sectionHeadings: [] });
  });
});

describe('headingText', () => {
  it.each([
    ['[Install](https://example.com/install) on *Linux*', 'Install on Linux'],
    ['`npm` \\_scripts\\_', 'npm _scripts_'],
    ['  Spaced   out ', 'Spaced out'],
  ])('%s → %s', (markdown, text) => {
    expect(headingText(markdown)).toBe(text);
  });
});

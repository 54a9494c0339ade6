import { describe, expect, it } from 'vitest';
import { LEFT_OUT_HEADINGS, QUERY_PASSAGES, rankPassages } from './rank-passages.js';

const MANUAL = [
  '# Widget',
  'Widget draws charts in the terminal.',
  '## Installation',
  'Download the package for your system.',
  '### Linux',
  'Use apt on Debian: sudo apt install widget.',
  '### Windows',
  'Run the MSI installer as an administrator.',
  '## Configuration',
  'The config file sets the colour theme and the port.',
  '## Café',
  'The café in the lobby sells coffee to the widget team.',
].join('\n\n');

describe('rankPassages', () => {
  it('ranks the passage that answers first, with its path and score', () => {
    const answer = rankPassages(MANUAL, 'how do I install it on Debian with apt?');
    expect(answer.passages[0]).toMatchObject({ path: ['Installation', 'Linux'] });
    expect(answer.passages[0]!.score).toBeGreaterThan(0);
    expect(answer).toMatchObject({ title: 'Widget', passageCount: 6, sectionCount: 6 });
    expect(answer.passages.length).toBeLessThanOrEqual(QUERY_PASSAGES);
    expect(answer.sectionsLeftOut).toBe(6 - new Set(answer.passages.map((p) => p.section)).size);
  });

  it("names the left-out sections' headings in page order, the opening text (no heading) not named", () => {
    const answer = rankPassages(MANUAL, 'MSI installer administrator');
    expect(answer.leftOutHeadings).toEqual(['Installation', 'Linux', 'Configuration', 'Café']);
    const many = Array.from({ length: 30 }, (_, i) => `## Heading ${i + 1}\n\nText ${i + 1}.`).join('\n\n');
    const capped = rankPassages(many, 'text');
    expect(capped.leftOutHeadings).toHaveLength(LEFT_OUT_HEADINGS);
    expect(capped.sectionsLeftOut).toBe(30 - capped.passages.length);
    expect(capped.leftOutHeadingCount).toBe(30 - capped.passages.length);
  });

  it('weighs the heading path: a word of a heading finds the passages under it', () => {
    expect(rankPassages(MANUAL, 'windows').passages[0]!.path).toEqual(['Installation', 'Windows']);
  });

  it('leaves out passages scoring below half the best', () => {
    const answer = rankPassages(MANUAL, 'MSI installer administrator');
    expect(answer.passages.map((p) => p.path.at(-1))).toEqual(['Windows']);
  });

  it('matches a word of five letters or more as a prefix, and Latin letters without their accents', () => {
    expect(rankPassages(MANUAL, 'install').passages[0]!.path).toContain('Installation');
    expect(rankPassages(MANUAL, 'cafe').passages[0]!.path).toEqual(['Café']);
    expect(rankPassages(MANUAL, 'CONFIG').passages[0]!.path).toEqual(['Configuration']);
  });

  it('cuts words in scripts written without spaces (Intl.Segmenter)', () => {
    const markdown = '## 天气\n\n今天的天气很好，阳光明媚。\n\n## 交通\n\n地铁和公共汽车都很方便。';
    expect(rankPassages(markdown, '地铁').passages[0]!.path).toEqual(['交通']);
  });

  it('with no passage sharing a word, shows the opening passage, score 0, and says none matched', () => {
    const answer = rankPassages(MANUAL, 'zebra giraffe');
    expect(answer.matched).toBe(0);
    expect(answer.passages).toEqual([expect.objectContaining({ path: [], score: 0, section: 0 })]);
  });

  it('a query of function words only matches nothing', () => {
    expect(rankPassages(MANUAL, 'how do I').matched).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { listHeadings } from './headings.js';
import { renderMarkdown } from './markdown.js';
import { parseHtml } from './parse.js';
import { readOutline } from './scrape.js';
import { cutSection, findSectionHeading, sectionNotFoundMessage } from './section.js';

const PAGE = `<body><h1>Guide</h1><p>Intro.</p>
<section><h2>Setup</h2><p>Install it.</p><div><h3>On Linux</h3><p>Use apt.</p></div></section>
<section><h2> Use   it </h2><p>Run it.</p></section><h2></h2><p>After an empty heading.</p></body>`;

function sectionOf(query: string): string | undefined {
  const doc = parseHtml(PAGE);
  const heading = findSectionHeading(listHeadings([doc]), query);
  if (!heading) return undefined;
  cutSection(doc, heading.element);
  return renderMarkdown(doc, { baseUrl: 'https://example.com/' });
}

describe('section', () => {
  it('numbers headings as web_scraper outline does (empty headings are not counted)', () => {
    const doc = parseHtml(PAGE);
    expect(listHeadings([doc]).map(({ level, text }) => ({ level, text }))).toEqual(readOutline(doc));
    expect(readOutline(doc).map((entry) => entry.text)).toEqual(['Guide', 'Setup', 'On Linux', 'Use it']);
  });

  it.each([
    ['#2', '## Setup\n\nInstall it.\n\n### On Linux\n\nUse apt.'],
    ['setup', '## Setup\n\nInstall it.\n\n### On Linux\n\nUse apt.'],
    ['#3', '### On Linux\n\nUse apt.'],
    ['USE IT', '## Use it\n\nRun it.\n\nAfter an empty heading.'],
    ['#1', undefined],
  ])('%s is cut across containers up to the next heading of its level or higher', (query, expected) => {
    const markdown = sectionOf(query);
    if (expected === undefined)
      expect(markdown).toContain('Run it.'); // h1: the whole page
    else expect(markdown).toBe(expected);
  });

  it('is undefined for a number past the end or a text no heading has', () => {
    expect(sectionOf('#5')).toBeUndefined();
    expect(sectionOf('#0')).toBeUndefined();
    expect(sectionOf('Setu')).toBeUndefined();
  });

  it('the not-found message lists headings as #n text and counts the rest', () => {
    const message = sectionNotFoundMessage('Fish', [{ text: 'A' }, { text: 'B' }], 30);
    expect(message).toContain('section "Fish" was not found');
    expect(message).toContain('#1 A\n#2 B\n… and 28 more');
    expect(sectionNotFoundMessage('x', [], 0)).toContain('the page has no headings');
  });
});

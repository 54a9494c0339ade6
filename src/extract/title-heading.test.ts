import { describe, expect, it } from 'vitest';
import { withTitleHeading } from './title-heading.js';

describe('withTitleHeading', () => {
  it('puts the title above content that has no opening heading', () => {
    expect(withTitleHeading('Some text.', 'A  Title\n')).toBe('# A Title\n\nSome text.');
  });
  it('leaves content that opens with a level-1 heading or with the title, or has no title, alone', () => {
    expect(withTitleHeading('# Name\n\nText', 'Title')).toBe('# Name\n\nText');
    expect(withTitleHeading('## The *Title*\n\nText', 'The title')).toBe('## The *Title*\n\nText');
    expect(withTitleHeading('Text', undefined)).toBe('Text');
    expect(withTitleHeading('Text', '   ')).toBe('Text');
  });
  it('names a page whose content opens with its first section (the <h1> that repeated the title was dropped)', () => {
    expect(withTitleHeading('## Intro\n\nText', 'The Big Guide')).toBe('# The Big Guide\n\n## Intro\n\nText');
  });
});

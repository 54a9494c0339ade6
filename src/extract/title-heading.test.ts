import { describe, expect, it } from 'vitest';
import { withTitleHeading } from './title-heading.js';

describe('withTitleHeading', () => {
  it('puts the title above content that has no opening heading', () => {
    expect(withTitleHeading('Some text.', 'A  Title\n')).toBe('# A Title\n\nSome text.');
  });
  it('leaves content that already opens with a heading, or has no title, alone', () => {
    expect(withTitleHeading('## Section\n\nText', 'Title')).toBe('## Section\n\nText');
    expect(withTitleHeading('Text', undefined)).toBe('Text');
    expect(withTitleHeading('Text', '   ')).toBe('Text');
  });
});

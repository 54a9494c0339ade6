import { describe, expect, it } from 'vitest';
import { diffMarkdown, MAX_EDITED_LINES } from './page-diff.js';

describe('diffMarkdown', () => {
  it('is empty for the same text', () => {
    expect(diffMarkdown('# A\n\nText.', '# A\n\nText.')).toEqual({ diff: '', added: 0, removed: 0, rewritten: false });
  });

  it('names the changed line with its context, counting lines added and removed', () => {
    const before = ['# Prices', '', 'Tea: 3 EUR', '', 'Coffee: 4 EUR', '', 'Water: 1 EUR'].join('\n');
    const after = ['# Prices', '', 'Tea: 3 EUR', '', 'Coffee: 5 EUR', '', 'Water: 1 EUR', '', 'Juice: 2 EUR'].join(
      '\n',
    );
    const result = diffMarkdown(before, after);
    expect(result).toMatchObject({ added: 3, removed: 1, rewritten: false });
    expect(result.diff.split('\n')).toContain('-Coffee: 4 EUR');
    expect(result.diff.split('\n')).toContain('+Coffee: 5 EUR');
    expect(result.diff.split('\n')).toContain('+Juice: 2 EUR');
    expect(result.diff).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/);
    expect(result.diff).not.toContain('No newline');
  });

  it('says a page rewritten past the bound was rewritten, rather than diffing it', () => {
    const lines = (prefix: string) => Array.from({ length: MAX_EDITED_LINES }, (_, i) => `${prefix} ${i}`).join('\n');
    expect(diffMarkdown(lines('old'), lines('new'))).toEqual({ diff: '', added: 0, removed: 0, rewritten: true });
  });
});

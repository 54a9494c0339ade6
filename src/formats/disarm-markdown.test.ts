import { describe, expect, it } from 'vitest';
import { disarmMarkdownLinks } from './disarm-markdown.js';

describe('disarmMarkdownLinks', () => {
  it.each([
    ['an inline script link', '[win](javascript:alert(1))', '[win]\\(javascript:alert(1))'],
    ['an image with a data source', '![x](data:image/png;base64,AAAA)', '![x]\\(data:image/png;base64,AAAA)'],
    ['a shouting scheme in angle brackets', '[a]( <JavaScript:x()>)', '[a]\\( \\<JavaScript:x()>)'],
    ['an autolink', 'see <vbscript:msgbox(1)> now', 'see \\<vbscript:msgbox(1)> now'],
    ['a reference definition', '[a]: file:///etc/passwd', '\\[a]: file:///etc/passwd'],
    ['http, https and mailto stay links', '[a](https://x.example/) <mailto:a@x.example> [b]: http://x.example/', null],
    ['relative links stay', '[a](/docs) [b](page.md#part)', null],
    [
      'fenced code is left alone',
      '```md\n[win](javascript:alert(1))\n```\n[win](javascript:alert(1))',
      '```md\n[win](javascript:alert(1))\n```\n[win]\\(javascript:alert(1))',
    ],
    ['indented code is left alone', '    [win](javascript:alert(1))', null],
  ])('%s', (_name, input, expected) => {
    expect(disarmMarkdownLinks(input)).toBe(expected ?? input);
  });
});

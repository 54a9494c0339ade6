import { describe, expect, it } from 'vitest';
import { findLlmsTxtTwin, markdownTwinPaths, parseLlmsTxt } from './llms-txt.js';

const FILE = 'https://docs.example/llms.txt';

describe('parseLlmsTxt', () => {
  it('reads the H1 and every list link, relative ones resolved, notes kept, other schemes and prose left out', () => {
    const text = `# Example docs

> Summary with a [link](/not-a-list-item).

## Docs

- [Intro](https://docs.example/intro.md): start here
* [Guide \\[beta\\]](/guide/ "title")
+ [Mail](mailto:team@docs.example)
- [API](<api/index.html.md>)
Some prose with [a link](/prose).
`;
    expect(parseLlmsTxt(text, FILE)).toEqual({
      url: FILE,
      title: 'Example docs',
      entries: [
        { url: 'https://docs.example/intro.md', title: 'Intro', notes: 'start here' },
        { url: 'https://docs.example/guide/', title: 'Guide [beta]' },
        { url: 'https://docs.example/api/index.html.md', title: 'API' },
      ],
    });
  });
});

describe('markdownTwinPaths', () => {
  it.each([
    ['/guide', ['/guide.md']],
    ['/guide.html', ['/guide.html.md', '/guide.md']],
    ['/docs/', ['/docs/index.html.md', '/docs.md']],
    ['/', ['/index.html.md']],
    ['/notes.md', []],
  ])('%s → %j', (path, expected) => {
    expect(markdownTwinPaths(path)).toEqual(expected);
  });
});

describe('findLlmsTxtTwin', () => {
  const llms = (...urls: string[]) => ({ url: FILE, entries: urls.map((url) => ({ url, title: '' })) });

  it.each([
    [
      'a listed path + .md',
      llms('https://docs.example/guide.md'),
      'https://docs.example/guide',
      'https://docs.example/guide.md',
      false,
    ],
    [
      'index.html.md for a directory',
      llms('https://docs.example/api/index.html.md'),
      'https://docs.example/api/',
      'https://docs.example/api/index.html.md',
      false,
    ],
    [
      'the page itself listed: the convention guessed',
      llms('https://docs.example/faq'),
      'https://docs.example/faq',
      'https://docs.example/faq.md',
      true,
    ],
  ])('%s', (_name, file, page, twin, guessed) => {
    expect(findLlmsTxtTwin(file, page)).toEqual({ url: twin, guessed });
  });

  it.each([
    ['another origin listed', llms('https://cdn.example/guide.md'), 'https://docs.example/guide'],
    ['a page with a query', llms('https://docs.example/guide.md'), 'https://docs.example/guide?v=2'],
    ['a page not listed', llms('https://docs.example/other.md'), 'https://docs.example/guide'],
    [
      "another origin's llms.txt",
      { url: 'https://cdn.example/llms.txt', entries: [{ url: 'https://docs.example/guide.md', title: '' }] },
      'https://docs.example/guide',
    ],
  ])('none for %s', (_name, file, page) => {
    expect(findLlmsTxtTwin(file, page)).toBeUndefined();
  });
});

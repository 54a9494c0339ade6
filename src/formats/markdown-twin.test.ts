import { describe, expect, it } from 'vitest';
import { findMarkdownTwin } from './markdown-twin.js';

const PAGE = 'https://docs.example/guide/intro.html';
const head = (links: string) =>
  `<!doctype html><html><head><title>T</title>${links}</head><body><p>x</p></body></html>`;

describe('findMarkdownTwin', () => {
  it.each([
    [
      'a relative href',
      head('<link rel="alternate" type="text/markdown" href="intro.md">'),
      'https://docs.example/guide/intro.md',
    ],
    [
      'attributes in any order and case',
      head("<LINK HREF='/md/intro' TYPE='text/markdown; charset=utf-8' REL='alternate'>"),
      'https://docs.example/md/intro',
    ],
    [
      'text/x-markdown and several rel values',
      head('<link rel="alternate nofollow" type="text/x-markdown" href="https://cdn.example/i.md">'),
      'https://cdn.example/i.md',
    ],
    [
      '<base href> first',
      head('<base href="https://docs.example/v2/"><link rel=alternate type=text/markdown href=intro.md>'),
      'https://docs.example/v2/intro.md',
    ],
    [
      'the first of two',
      head(
        '<link rel="alternate" type="application/rss+xml" href="/feed"><link rel="alternate" type="text/markdown" href="a.md"><link rel="alternate" type="text/markdown" href="b.md">',
      ),
      'https://docs.example/guide/a.md',
    ],
    [
      'an entity in the href',
      head('<link rel="alternate" type="text/markdown" href="/md?page=1&amp;lang=en">'),
      'https://docs.example/md?page=1&lang=en',
    ],
  ])('finds the twin: %s', (_name, html, twin) => {
    expect(findMarkdownTwin(html, PAGE)).toBe(twin);
  });

  it.each([
    ['no declaration', head('<link rel="stylesheet" href="a.css">')],
    ['another alternate type', head('<link rel="alternate" type="application/atom+xml" href="/atom">')],
    [
      'a link in the body, not the head',
      '<html><head></head><body><link rel="alternate" type="text/markdown" href="a.md"></body></html>',
    ],
    ['a javascript: href', head('<link rel="alternate" type="text/markdown" href="javascript:alert(1)">')],
    ['an href pointing at the page itself', head('<link rel="alternate" type="text/markdown" href="#top">')],
    ['no href', head('<link rel="alternate" type="text/markdown">')],
  ])('finds none: %s', (_name, html) => {
    expect(findMarkdownTwin(html, PAGE)).toBeUndefined();
  });
});

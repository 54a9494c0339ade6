import { describe, expect, it } from 'vitest';
import { describeBinaryType, sniffContent } from './sniff.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('sniffContent', () => {
  it.each([
    ['HTML by type', 'text/html', bytes('<p>hi</p>'), 'https://x.test/', 'html'],
    ['XHTML as HTML', 'application/xhtml+xml', bytes('<html/>'), 'https://x.test/', 'html'],
    ['HTML labelled text/plain', 'text/plain', bytes('<!DOCTYPE html><html><body>x'), 'https://x.test/a.txt', 'html'],
    ['PNG labelled text/html is an image', 'text/html', PNG, 'https://x.test/page.html', 'image'],
    [
      'JPEG labelled octet-stream',
      'application/octet-stream',
      new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
      'https://x.test/f',
      'image',
    ],
    ['GIF unlabelled', '', bytes('GIF89a\u0001\u0000\u0001\u0000'), 'https://x.test/f', 'image'],
    [
      'little-endian TIFF',
      'image/tiff',
      new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]),
      'https://x.test/f',
      'image',
    ],
    ['big-endian TIFF', 'image/tiff', new Uint8Array([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]), 'https://x.test/f', 'image'],
    ['WebP', 'image/webp', bytes('RIFF\u0024\u0000\u0000\u0000WEBPVP8 '), 'https://x.test/f', 'image'],
    [
      'WAV is RIFF but not an image',
      'audio/wav',
      bytes('RIFF\u0024\u0000\u0000\u0000WAVEfmt '),
      'https://x.test/f',
      'binary',
    ],
    ['image/png label without the magic', 'image/png', bytes('not a picture'), 'https://x.test/f.png', 'binary'],
    ['PDF labelled octet-stream', 'application/octet-stream', bytes('%PDF-1.7\n...'), 'https://x.test/f', 'pdf'],
    ['Markdown by type', 'text/markdown', bytes('# Title'), 'https://x.test/', 'markdown'],
    ['llms.txt as Markdown', 'text/plain', bytes('# Project\n> summary'), 'https://x.test/llms.txt', 'markdown'],
    ['plain text', 'text/plain', bytes('just words'), 'https://x.test/notes', 'text'],
    ['JSON by type', 'application/json', bytes('{"a":1}'), 'https://x.test/api', 'json'],
    ['JSON by suffix', 'application/ld+json', bytes('{"a":1}'), 'https://x.test/api', 'json'],
    ['RSS feed', 'application/xml', bytes('<?xml version="1.0"?><rss version="2.0">'), 'https://x.test/f', 'feed'],
    ['other XML', 'text/xml', bytes('<?xml version="1.0"?><root/>'), 'https://x.test/f', 'xml'],
    ['NUL bytes are binary', 'text/plain', new Uint8Array([65, 66, 0, 67]), 'https://x.test/f', 'binary'],
    ['NUL bytes unlabelled are binary', '', new Uint8Array([65, 66, 0, 67]), 'https://x.test/f', 'binary'],
    ['declared HTML with a NUL is HTML', 'text/html', bytes('<p>a\u0000b</p>'), 'https://x.test/', 'html'],
    ['declared XHTML with a NUL is HTML', 'application/xhtml+xml', bytes('<html>\u0000'), 'https://x.test/', 'html'],
    ['images by type', 'image/svg+xml', bytes('<svg/>'), 'https://x.test/i.svg', 'binary'],
    ['PDF labelled text/html', 'text/html', bytes('%PDF-1.4\n%\u00e2'), 'https://x.test/page.html', 'pdf'],
    ['PDF header after junk', 'application/pdf', bytes('\r\n\r\n%PDF-1.4\n'), 'https://x.test/f.pdf', 'pdf'],
    ['HTML error page labelled PDF', 'application/pdf', bytes('<html>oops'), 'https://x.test/f.pdf', 'html'],
    ['labelled PDF, no header', 'application/pdf', bytes('PK\u0001\u0002 zip-ish'), 'https://x.test/f.pdf', 'binary'],
    ['RSS by type', 'application/rss+xml', bytes('<rss version="2.0">'), 'https://x.test/f', 'feed'],
    [
      'Atom by type',
      'application/atom+xml',
      bytes('<feed xmlns="http://www.w3.org/2005/Atom">'),
      'https://x.test/f',
      'feed',
    ],
    [
      'RSS labelled text/html',
      'text/html',
      bytes('<?xml version="1.0"?>\n<rss version="2.0">'),
      'https://x.test/',
      'feed',
    ],
    [
      'Atom labelled text/plain',
      'text/plain',
      bytes('<feed xmlns="http://www.w3.org/2005/Atom">'),
      'https://x.test/',
      'feed',
    ],
    [
      'RSS with a stylesheet',
      'text/xml',
      bytes('<?xml version="1.0"?><?xml-stylesheet href="s.xsl"?><rss>'),
      'https://x.test/',
      'feed',
    ],
    [
      'XHTML labelled application/xml',
      'application/xml',
      bytes('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'),
      'https://x.test/',
      'html',
    ],
    ['XHTML with no type', '', bytes('<?xml version="1.0"?>\n<!DOCTYPE html>\n<html>'), 'https://x.test/', 'html'],
    [
      'octet-stream with NUL bytes',
      'application/octet-stream',
      new Uint8Array([1, 2, 0, 0, 3]),
      'https://x.test/f',
      'binary',
    ],
    ['octet-stream without NUL bytes', 'application/octet-stream', bytes('hello'), 'https://x.test/f', 'binary'],
    ['Markdown by extension', '', bytes('# Notes'), 'https://x.test/notes.md', 'markdown'],
    ['.md never overrides HTML bytes', 'text/plain', bytes('<!doctype html><p>x'), 'https://x.test/a.md', 'html'],
  ])('%s', (_name, type, body, url, kind) => {
    expect(sniffContent(type, body, url)).toBe(kind);
  });
});

describe('describeBinaryType', () => {
  it.each([
    ['the sniffed type when the label lies', 'text/html', PNG, 'image/png, served as text/html'],
    ['the sniffed type alone when the label agrees', 'image/png', PNG, 'image/png'],
    ['the sniffed type when there is no label', '', PNG, 'image/png'],
    [
      'the label when the bytes only say binary',
      'application/x-thing',
      new Uint8Array([1, 0, 2]),
      'application/x-thing',
    ],
    ['octet-stream when nothing says more', '', new Uint8Array([1, 0, 2]), 'application/octet-stream'],
  ])('names %s', (_name, type, body, described) => {
    expect(describeBinaryType(type, body)).toBe(described);
  });
});

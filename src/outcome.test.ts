import { expect, it } from 'vitest';
import { detectEmptyOutcome } from './outcome.js';

it.each([
  ['a React shell', '<html><body><div id="root"></div><script src="/app.js"></script></body></html>', 0, 'needs_js'],
  [
    'a noscript notice',
    '<body><noscript>You need to enable JavaScript to run this app.</noscript></body>',
    0,
    'needs_js',
  ],
  ['an empty body', '<html><body></body></html>', 0, 'empty'],
  ['a short real page', '<html><body><p>Hi there.</p></body></html>', 9, undefined],
  ['an article', '<html><body><div id="root"><p>' + 'text '.repeat(50) + '</p></div></body></html>', 250, undefined],
])('%s', (_name, html, chars, expected) => {
  expect(detectEmptyOutcome(html, chars)).toBe(expected);
});

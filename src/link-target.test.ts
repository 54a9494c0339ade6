import { describe, expect, it } from 'vitest';
import { isAllowedLinkTarget, resolveLinkTarget } from './link-target.js';

describe('link targets', () => {
  it.each([
    ['https://example.com/a', true],
    ['http://example.com/', true],
    ['mailto:desk@example.com', true],
    ['javascript:alert(1)', false],
    ['data:text/html,x', false],
    ['vbscript:x', false],
    ['file:///etc/passwd', false],
    ['ftp://example.com/', false],
    ['tel:+15551234', false],
    ['x-custom-app://open', false],
    ['not a url', false],
  ])('%s allowed: %s', (url, allowed) => {
    expect(isAllowedLinkTarget(url)).toBe(allowed);
  });

  it('judges the scheme after parsing, as a browser would', () => {
    const base = 'https://example.com/dir/';
    expect(resolveLinkTarget('  JAVASCRIPT:alert(1)', base)).toBeUndefined();
    expect(resolveLinkTarget('java\nscript:alert(1)', base)).toBeUndefined();
    expect(resolveLinkTarget('javascript&colon;alert(1)', base)).toBe(
      'https://example.com/dir/javascript&colon;alert(1)',
    );
    expect(resolveLinkTarget('page', base)).toBe('https://example.com/dir/page');
    expect(resolveLinkTarget('page', undefined)).toBeUndefined();
  });
});

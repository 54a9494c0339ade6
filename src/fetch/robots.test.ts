import { describe, expect, it } from 'vitest';
import { PRODUCT_USER_AGENT } from '../config.js';
import { ALLOW_ALL, disallowAll, parseRobots, productTokenOf, robotsUrlFor } from './robots.js';

const ROBOTS = `User-agent: *
Disallow: /private/
Allow: /private/open
Crawl-delay: 0.5
Sitemap: https://example.com/sitemap.xml

User-agent: OtherBot
Disallow: /
`;

describe('robots.txt', () => {
  it('finds robots.txt at the root of the origin', () => {
    expect(robotsUrlFor('https://example.com:8443/a/b?c')).toBe('https://example.com:8443/robots.txt');
  });

  it('applies the * group with longest-match Allow over Disallow', () => {
    const rules = parseRobots('https://example.com/robots.txt', ROBOTS);
    expect(rules.isAllowed('https://example.com/public')).toBe(true);
    expect(rules.isAllowed('https://example.com/private/x')).toBe(false);
    expect(rules.isAllowed('https://example.com/private/open')).toBe(true);
  });

  it('reads Crawl-delay and Sitemap lines', () => {
    const rules = parseRobots('https://example.com/robots.txt', ROBOTS);
    expect(rules.crawlDelaySeconds).toBe(0.5);
    expect(rules.sitemaps).toEqual(['https://example.com/sitemap.xml']);
  });

  it('uses the group naming our product token', () => {
    const rules = parseRobots(
      'https://example.com/robots.txt',
      'User-agent: web-reader\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    );
    expect(rules.isAllowed('https://example.com/a')).toBe(false);
  });

  it('obeys the group of the User-Agent sent: ours by default, the product token of one the user set', () => {
    const text = 'User-agent: web-reader\nDisallow: /ours\n\nUser-agent: MyBot\nDisallow: /mine\n';
    expect(productTokenOf(PRODUCT_USER_AGENT)).toBe('web-reader');
    const ours = parseRobots('https://example.com/robots.txt', text, productTokenOf(PRODUCT_USER_AGENT));
    expect([ours.isAllowed('https://example.com/ours'), ours.isAllowed('https://example.com/mine')]).toEqual([
      false,
      true,
    ]);
    const mine = parseRobots('https://example.com/robots.txt', text, productTokenOf('MyBot/2.0 (+https://me.test)'));
    expect([mine.isAllowed('https://example.com/ours'), mine.isAllowed('https://example.com/mine')]).toEqual([
      true,
      false,
    ]);
  });

  it('takes the product token from the start of a User-Agent', () => {
    expect(productTokenOf('Mozilla/5.0 (X11; Linux x86_64)')).toBe('Mozilla');
    expect(productTokenOf('Googlebot-Image/1.0')).toBe('Googlebot-Image');
    expect(productTokenOf('  my_bot')).toBe('my_bot');
    expect(productTokenOf('1.0 nameless')).toBe('web-reader');
  });

  it('has no delay when none is set', () => {
    expect(
      parseRobots('https://example.com/robots.txt', 'User-agent: *\nDisallow:\n').crawlDelaySeconds,
    ).toBeUndefined();
  });

  it('allows all without a file and disallows all when it failed', () => {
    expect(ALLOW_ALL.isAllowed('https://example.com/x')).toBe(true);
    const rules = disallowAll('robots.txt answered HTTP 503');
    expect(rules.isAllowed('https://example.com/x')).toBe(false);
    expect(rules.disallowAllReason).toBe('robots.txt answered HTTP 503');
  });
});

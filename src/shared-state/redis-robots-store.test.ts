import { expect, it } from 'vitest';
import { describeWithRedis, useRedisConnections } from '../../test/redis-server.js';
import { createRobotsGate } from '../fetch/robots-gate.js';
import { HttpStatusError } from '../errors.js';
import { createRedisRobotsStore } from './redis-robots-store.js';

describeWithRedis('robots.txt answers shared through Redis (RESPECT_ROBOTS=always)', (server) => {
  const connections = useRedisConnections(server);
  async function replica() {
    const link = await connections.link();
    return createRedisRobotsStore(link);
  }

  it('lets a second replica obey the robots.txt the first one read, without reading it again', async () => {
    const reads: string[] = [];
    const readText = async (robotsUrl: string) => {
      reads.push(robotsUrl);
      return 'User-agent: *\nDisallow: /private/\n';
    };
    const first = createRobotsGate(readText, 60_000, Date.now, undefined, await replica());
    const second = createRobotsGate(readText, 60_000, Date.now, undefined, await replica());
    await first.check('https://site.test/public');
    await expect(second.check('https://site.test/private/x')).rejects.toMatchObject({ code: 'ROBOTS_DENIED' });
    expect(reads).toEqual(['https://site.test/robots.txt']);
    const ttl = await connections.inspect().pttl('robots:https://site.test');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('shares "no robots.txt" (404) and "could not be read" (5xx) as well as a file', async () => {
    const store = await replica();
    const missing = async () => {
      throw new HttpStatusError('https://none.test/robots.txt', 404, 'HTTP 404');
    };
    await createRobotsGate(missing, 60_000, Date.now, undefined, store).check('https://none.test/a');
    expect(await store.get('https://none.test')).toEqual({ allowAll: true });
    const failing = async () => {
      throw new HttpStatusError('https://down.test/robots.txt', 503, 'HTTP 503');
    };
    await expect(
      createRobotsGate(failing, 60_000, Date.now, undefined, store).check('https://down.test/a'),
    ).rejects.toThrow();
    expect(await store.get('https://down.test')).toEqual({ disallowReason: 'robots.txt answered HTTP 503' });
  });
});

import { expect, it } from 'vitest';
import { describeWithRedis, useRedisConnections } from '../../test/redis-server.js';
import { createRedisHostTurns } from './redis-host-turns.js';

describeWithRedis('host turns shared through Redis (PER_DOMAIN_INTERVAL across replicas)', (server) => {
  const connections = useRedisConnections(server);
  async function replica() {
    const link = await connections.link();
    return createRedisHostTurns(link);
  }

  it('gives one turn per interval to sixty concurrent takers on three connections, and tells the others the wait', async () => {
    const replicas = await Promise.all([replica(), replica(), replica()]);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => replicas[i % 3]!.take('busy.test:443', 60_000)),
    );
    expect(answers.filter((wait) => wait === 0)).toHaveLength(1);
    for (const wait of answers.filter((wait) => wait !== 0)) {
      expect(wait).toBeGreaterThan(50_000);
      expect(wait).toBeLessThanOrEqual(60_000);
    }
  });

  it('measures each caller’s own interval from the last start: a longer Crawl-delay waits where the interval would not', async () => {
    const turns = await replica();
    expect(await turns.take('delay.test:443', 1)).toBe(0);
    await new Promise((r) => setTimeout(r, 5));
    expect(await turns.take('delay.test:443', 30_000)).toBeGreaterThan(29_000); // Crawl-delay 30 s: not yet
    expect(await turns.take('delay.test:443', 1)).toBe(0); // PER_DOMAIN_INTERVAL 1 ms: yes
  });

  it('keeps hosts apart, and remembers a start for at least a minute (the longest Crawl-delay, 30 s, fits)', async () => {
    const turns = await replica();
    expect(await turns.take('one.test:80', 5000)).toBe(0);
    expect(await turns.take('two.test:80', 5000)).toBe(0);
    expect(await turns.take('one.test:80', 5000)).toBeGreaterThan(0);
    expect(await connections.inspect().pttl('turn:one.test:80')).toBeGreaterThan(55_000);
  });

  it('answers 0 without asking Redis for an interval of 0', async () => {
    const turns = await replica();
    expect(await turns.take('zero.test:80', 0)).toBe(0);
    expect(await connections.inspect().exists('turn:zero.test:80')).toBe(0);
  });
});

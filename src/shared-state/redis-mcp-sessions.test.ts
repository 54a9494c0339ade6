import { expect, it } from 'vitest';
import { describeWithRedis, useRedisConnections } from '../../test/redis-server.js';
import { createRedisCancelBus, type SessionSignal } from './redis-cancel-bus.js';
import { createRedisMcpSessionStore, SESSION_STORE_UNREACHABLE } from './redis-mcp-sessions.js';

const FACTS = {
  initialize: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};

describeWithRedis('MCP sessions and their cancellations shared through Redis', (server) => {
  const connections = useRedisConnections(server);
  async function replica() {
    const link = await connections.link();
    return { sessions: createRedisMcpSessionStore(link), bus: createRedisCancelBus(link) };
  }

  it('finds a session another replica stored, and restarts its idle time with the same round trip', async () => {
    const [a, b] = [await replica(), await replica()];
    expect(await a.sessions.save('s1', FACTS, 1000)).toBe(true);
    expect(await b.sessions.touch('s1', 60_000)).toEqual(FACTS);
    expect(await connections.inspect().pttl('mcp-session:s1')).toBeGreaterThan(50_000);
    expect(await b.sessions.touch('nobody', 60_000)).toBeNull();
  });

  it('stores a new log level only for a session that still exists, and forgets a removed one everywhere', async () => {
    const [a, b] = [await replica(), await replica()];
    await a.sessions.save('s2', FACTS, 60_000);
    expect(await b.sessions.save('s2', { ...FACTS, logLevel: 'debug' }, 60_000, true)).toBe(true);
    expect(await a.sessions.touch('s2', 60_000)).toMatchObject({ logLevel: 'debug' });
    await a.sessions.remove('s2');
    expect(await b.sessions.save('s2', { ...FACTS, logLevel: 'info' }, 60_000, true)).toBe(false);
    expect(await b.sessions.touch('s2', 60_000)).toBeNull();
  });

  it('keeps alive the sessions running a call, and answers "unreachable" (not "no session") while Redis is down', async () => {
    const a = await replica();
    await a.sessions.save('s3', FACTS, 500);
    await a.sessions.keepAlive(['s3'], 60_000);
    expect(await connections.inspect().pttl('mcp-session:s3')).toBeGreaterThan(50_000);
    await server.stop();
    try {
      expect(await a.sessions.touch('s3', 60_000)).toBe(SESSION_STORE_UNREACHABLE);
    } finally {
      await server.start();
    }
  });

  it('carries a cancellation to every other replica, not back to the one that sent it', async () => {
    const [a, b, c] = [await replica(), await replica(), await replica()];
    const heard: Record<string, SessionSignal[]> = { a: [], b: [], c: [] };
    await a.bus.listen((signal) => heard.a!.push(signal));
    await b.bus.listen((signal) => heard.b!.push(signal));
    await c.bus.listen((signal) => heard.c!.push(signal));
    await a.bus.publish({ sessionId: 's4', requestId: 7, reason: 'changed my mind' });
    await a.bus.publish({ sessionId: 's4' });
    for (let i = 0; i < 200 && heard.c!.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    const expected = [{ sessionId: 's4', requestId: 7, reason: 'changed my mind' }, { sessionId: 's4' }];
    expect(heard.b).toEqual(expected);
    expect(heard.c).toEqual(expected);
    expect(heard.a).toEqual([]);
  });

  it('hears cancellations again once Redis is back after an outage, including when it listened during one', async () => {
    const [a, b] = [await replica(), await replica()];
    const heard: SessionSignal[] = [];
    await b.bus.listen((signal) => heard.push(signal));
    await server.stop();
    const c = await replica(); // starts while Redis is down
    const heardByC: SessionSignal[] = [];
    await c.bus.listen((signal) => heardByC.push(signal));
    await server.start();
    for (let i = 0; i < 500 && (heard.length === 0 || heardByC.length === 0); i++) {
      await a.bus.publish({ sessionId: 's5', requestId: i });
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(heard.length).toBeGreaterThan(0);
    expect(heardByC.length).toBeGreaterThan(0);
  });
});

// Kept-alive connections and a balancer in front (issue 23 item 9: 2 of 24,000 calls through three replicas ended
// in ECONNRESET). A balancer or an http.Agent holds its upstream connections idle for up to a minute (nginx's
// upstream keepalive_timeout, AWS ALB's idle timeout: 60 s); a replica that closes an idle connection sooner
// (Node's default: 5 s announced, closed after 6 s) races the next request written on it, which then ends in a
// reset. The replica keeps idle connections longer than that and says so in Keep-Alive.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { startTestHttpServer, type TestHttpServer } from './http-harness.js';

const servers: TestHttpServer[] = [];
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(): Promise<TestHttpServer> {
  const server = await startTestHttpServer({}, ALL_TOOLS);
  servers.push(server);
  return server;
}

/** GET `url` through `agent`: status, Keep-Alive header, and whether the request went out on a reused socket. */
function get(agent: Agent, url: string): Promise<{ status: number; keepAlive: string; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          keepAlive: String(res.headers['keep-alive'] ?? ''),
          reusedSocket: req.reusedSocket,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('kept-alive connections', () => {
  it('announces an idle timeout longer than the 60 s a balancer holds its upstream connections', async () => {
    const server = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const first = await get(agent, `${server.url}/healthz`);
    expect(first.status).toBe(200);
    const seconds = Number(/^timeout=(\d+)/.exec(first.keepAlive)?.[1]);
    expect(seconds).toBeGreaterThan(60);
  });

  it('keeps an idle connection open past the point where Node closes one by default (6 s)', async () => {
    const server = await start();
    // As a balancer holds it: keep-alive, no idle timeout of its own (Node's Agent then ignores the Keep-Alive hint).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    expect((await get(agent, `${server.url}/healthz`)).reusedSocket).toBe(false);
    await sleep(6_500);
    const second = await get(agent, `${server.url}/healthz`);
    expect(second.status).toBe(200);
    expect(second.reusedSocket).toBe(true); // the same connection: the server did not close it while idle
  }, 20_000);
});

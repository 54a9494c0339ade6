// The crawl as a 2026-07-28 task over stdio (the tasks extension, `io.modelcontextprotocol/tasks`): the built CLI,
// raw JSON-RPC lines on its stdin and stdout, as a host that speaks the extension sends them — the SDK's v2 client
// (2.4.0) does not. A task started on the connection is read and cancelled on it; the crawl's upstream requests end.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useFixtureServer } from '../use-fixture-server.js';
import { html } from './site-pages.js';
import { CLI_PATH } from './stdio-client.js';

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const page = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${`${title} is a page of this small site, with words enough to count as its main content. `.repeat(6)}</p>` +
  `${links}</main></body></html>`;

const held = { arrived: 0, dropped: 0, responses: [] as ServerResponse[] };
const fixtures = useFixtureServer((server) => {
  server.route('/docs/', html(page('Docs', '<a href="/docs/a">A</a>')));
  server.route('/docs/a', html(page('Docs A')));
  server.route('/held/', html(page('Held', '<a href="/held/1">1</a>')));
  server.route('/held/:n', (_req, res) => {
    held.arrived += 1;
    held.responses.push(res);
    res.on('close', () => {
      if (!res.writableEnded) held.dropped += 1;
    });
  });
});

let child: ChildProcessWithoutNullStreams;
const answers = new Map<number, (message: Record<string, unknown>) => void>();
let nextId = 1;

beforeAll(() => {
  child = spawn(process.execPath, [CLI_PATH], {
    env: { PATH: process.env.PATH ?? '', ALLOW_PRIVATE_HOSTS: fixtures.hostPort, PER_DOMAIN_INTERVAL: '0' },
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number } & Record<string, unknown>;
    if (typeof message.id === 'number') answers.get(message.id)?.(message);
  });
});

afterAll(() => {
  child.kill();
  for (const res of held.responses) res.destroy();
});

function request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const id = nextId++;
  const answered = new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'stdio-tasks-test', version: '0' },
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
  };
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } })}\n`);
  return answered;
}

async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

it('runs a crawl as a task on a stdio connection: read to its result, and cancelled', async () => {
  const discovered = (await request('server/discover', {})).result as { capabilities: { extensions?: unknown } };
  expect(discovered.capabilities.extensions).toEqual({ [TASKS]: {} });

  const created = (await request('tools/call', { name: 'crawl', arguments: { url: fixtures.url('/docs/') } }))
    .result as { resultType: string; taskId: string };
  expect(created.resultType).toBe('task');
  let task: Record<string, unknown> = {};
  await until('the task completes', async () => {
    task = (await request('tasks/get', { taskId: created.taskId })).result as Record<string, unknown>;
    return task.status !== 'working';
  });
  expect(task.status).toBe('completed');
  expect(JSON.stringify(task.result)).toContain('Docs A');

  const waiting = (await request('tools/call', { name: 'crawl', arguments: { url: fixtures.url('/held/') } }))
    .result as { taskId: string };
  await until('the crawl waits on a held page', () => held.arrived > 0);
  await request('tasks/cancel', { taskId: waiting.taskId });
  await until('the held request is dropped', () => held.dropped === held.arrived);
  const cancelled = (await request('tasks/get', { taskId: waiting.taskId })).result as { status: string };
  expect(cancelled.status).toBe('cancelled');
});

// `actions` for the library's callers, who skip the tools' schemas (issue 28 item 2): the engine checks them before
// anything is fetched, with the same sentence naming the action by its index, and refuses them with headers.
import { expect, it } from 'vitest';
import { bindCredentials, createWebReader, type PageAction } from '../src/index.js';
import { useFixtureServer } from './use-fixture-server.js';

const server = useFixtureServer();

it('engine.readPage checks actions before anything is fetched, naming the bad one by its index', async () => {
  const reader = createWebReader({ allowPrivateHosts: [server.hostPort] });
  try {
    const url = server.url('/html');
    const bad = [{ click: '#more' }, { click: 'xpath=//button' }] as PageAction[];
    await expect(reader.engine.readPage(url, { actions: bad })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'actions',
      message: expect.stringContaining('actions[1] (click) "xpath=//button" is not valid CSS'),
    });
    const credentials = bindCredentials(url, { authorization: 'Bearer secret' });
    await expect(reader.engine.readPage(url, { actions: [{ click: '#more' }], credentials })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('actions cannot be used with headers'),
    });
    expect(server.hits('/html')).toBe(0);
  } finally {
    await reader.close();
  }
});

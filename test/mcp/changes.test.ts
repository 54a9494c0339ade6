// fetch `since` (issue 28 item 4, "Done means": a page changed between two reads returns a diff naming the changed
// line) through a real MCP client over stdio, against a loopback page the test changes between reads.
import { describe, expect, it } from 'vitest';
import { useMcpSession } from './session.js';

const prices = { coffee: 4, extra: '' };
const PRICES = () => `<!doctype html><html lang="en"><head><title>Café prices</title></head><body>
<nav><a href="/">Home</a> <a href="/menu">Menu</a></nav>
<main><article><h1>Café prices</h1>
<p>Our prices are set each season and written here when they change, so that regulars know before they come in.</p>
<ul><li>Tea: 3 EUR</li><li>Coffee: ${prices.coffee} EUR</li><li>Water: 1 EUR</li>${prices.extra}</ul>
<p>Every drink can be taken away in a cup you bring, which saves you twenty cents and saves us washing a cup.</p>
${[1, 2, 3, 4].map((n) => `<p>Season note ${n}: the terrace opens when the mornings are warm enough to sit out.</p>`).join('')}
</article></main></body></html>`;
const OTHER = `<!doctype html><html><head><title>Other</title></head><body><main><article><h1>Other page</h1>
<p>${'A page that is not the price list, with words enough to be read as an article of its own. '.repeat(3)}</p>
</article></main></body></html>`;

const { server, session } = useMcpSession({
  tools: 'fetch',
  setup(server) {
    server.route('/prices', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PRICES());
    });
    server.route('/other', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(OTHER);
    });
  },
});

type Changes = { status: string; snapshot_id?: string; since_snapshot_id?: string; lines_added?: number };
const changesOf = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { changes?: Changes }).changes;

describe('fetch since', () => {
  it('first read: the page and its snapshot; unchanged: one line; changed: a diff naming the changed line', async () => {
    const url = server.url('/prices');
    const first = await session.call('fetch', { url, since: 'last' });
    expect(first.isError, first.text).toBeFalsy();
    const firstId = changesOf(first)?.snapshot_id;
    expect(changesOf(first)).toMatchObject({ status: 'first', snapshot_id: expect.stringMatching(/^snap_/) });
    expect(first.text).toContain('- Coffee: 4 EUR');
    expect(first.text).toContain(`this read is snapshot ${firstId}`);

    const same = await session.call('fetch', { url, since: 'last' });
    expect(changesOf(same)).toMatchObject({ status: 'unchanged', since_snapshot_id: firstId, snapshot_id: firstId });
    expect(same.text).toMatch(new RegExp(`^Unchanged since snapshot ${firstId} \\(taken \\d+ s ago\\)`));
    expect(same.text).not.toContain('Tea: 3 EUR');

    prices.coffee = 5;
    prices.extra = '<li>Juice: 2 EUR</li>';
    const changed = await session.call('fetch', { url, since: 'last' });
    expect(changesOf(changed)).toMatchObject({ status: 'changed', since_snapshot_id: firstId, lines_added: 2 });
    const lines = changed.text.split('\n');
    expect(lines).toContain('-- Coffee: 4 EUR');
    expect(lines).toContain('+- Coffee: 5 EUR');
    expect(lines).toContain('+- Juice: 2 EUR');
    expect(changed.text).toContain('```diff');
    expect(changed.text).not.toContain('Season note 4'); // only the hunk's context, not the whole page

    // An earlier snapshot by its id: compared with it, not with the last.
    const byId = await session.call('fetch', { url, since: firstId });
    expect(changesOf(byId)).toMatchObject({ status: 'changed', since_snapshot_id: firstId });
    const again = await session.call('fetch', { url, since: 'last' });
    expect(changesOf(again)?.status).toBe('unchanged');
  });

  it('a read with headers keeps no snapshot, and says so', async () => {
    const url = server.url('/prices');
    const result = await session.call('fetch', { url, since: 'last', headers: { Cookie: 'session=secret' } });
    expect(changesOf(result)).toEqual({ status: 'not_kept' });
    expect(result.text).toContain('since does not apply to a read made with headers');
    expect(result.text).toContain('Coffee:');
  });

  it('refuses a since that is no snapshot, one of another page, and since with raw or query', async () => {
    const url = server.url('/prices');
    const bogus = await session.call('fetch', { url, since: 'yesterday' });
    expect(bogus.isError).toBe(true);
    expect(bogus.text).toMatch(/since must be "last" or a snapshot_id an earlier fetch result named/);
    const other = await session.call('fetch', { url: server.url('/other'), since: 'last' });
    const otherId = changesOf(other)?.snapshot_id;
    const crossed = await session.call('fetch', { url, since: otherId });
    expect(crossed.isError).toBe(true);
    expect(crossed.text).toMatch(/which is of another page or of this page read another way/);
    const raw = await session.call('fetch', { url, since: 'last', raw: true });
    expect(raw.isError).toBe(true);
    expect(raw.text).toMatch(/since compares the Markdown of the whole page/);
    // The server reads on.
    const plain = await session.call('fetch', { url });
    expect(plain.isError).toBeFalsy();
  });
});

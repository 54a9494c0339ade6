// The reading flags of the CLI that became tool arguments with issue 28: --actions (read, scrape, screenshot),
// --structured-data and --tables (read, scrape, search), as a person or a script runs them.
import { describe, expect, it } from 'vitest';
import { describeWithBrowser, SLOW_MACHINE_RENDER_TIMEOUT } from './browser-available.js';
import { runCli } from './run-cli.js';
import { useFixtureServer } from './use-fixture-server.js';

const LEDGER =
  '<!doctype html><html><head><title>Ledger</title><script type="application/ld+json">' +
  '{"@context":"https://schema.org","@type":"Product","name":"Kettle"}</script></head><body><main><h1>Ledger</h1>' +
  '<ul id="list"><li>Boat one arrived at the harbour in the morning with a full catch of herring and mackerel.</li></ul>' +
  "<button id=\"more\" onclick=\"document.getElementById('list').insertAdjacentHTML('beforeend', " +
  "'<li>Boat two came back late in the evening after the storm had passed the headland.</li>')\">More</button>" +
  '<table><tr><th>Boat</th><th>Catch</th></tr><tr><td>One</td><td>40</td></tr><tr><td>Two</td><td>12</td></tr></table>' +
  '</main></body></html>';

const pages = useFixtureServer((server) => {
  server.route('/ledger', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(LEDGER);
  });
});
const env = () => ({ ALLOW_PRIVATE_HOSTS: pages.hostPort, PER_DOMAIN_INTERVAL: '0' });

describe('web-reader read --structured-data / --tables', () => {
  it('puts the page declared data in the JSON result, tables as CSV with --tables csv', async () => {
    const run = await runCli(['read', pages.url('/ledger'), '--tables', 'csv', '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { structured_data: Record<string, unknown> };
    expect(result.structured_data).toEqual({
      json_ld: [{ '@context': 'https://schema.org', '@type': 'Product', name: 'Kettle' }],
      tables: [{ csv: 'Boat,Catch\nOne,40\nTwo,12' }],
    });
    const plain = JSON.parse((await runCli(['read', pages.url('/ledger'), '--json'], env())).stdout) as object;
    expect(plain).not.toHaveProperty('structured_data');
  });
});

describe('web-reader read --actions, refused before anything runs', () => {
  it('names --actions when its value is not JSON', async () => {
    const asked = pages.hits('/ledger');
    const run = await runCli(['read', pages.url('/ledger'), '--actions', '[{click:1}]'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^web-reader: --actions takes a JSON list of actions, e\.g\. '\[\{"click":"#more"\}/);
    expect(pages.hits('/ledger')).toBe(asked);
  });

  it('reads one page: with several URLs it is refused', async () => {
    const run = await runCli(['read', pages.url('/ledger'), pages.url('/ledger'), '--actions', '[]'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--actions reads one page/);
  });
});

describeWithBrowser('web-reader read --actions, with Chromium', (browserPath) => {
  it('clicks before reading, and says so above the page', async () => {
    const renderEnv = { ...env(), CHROMIUM_PATH: browserPath, RENDER_TIMEOUT: SLOW_MACHINE_RENDER_TIMEOUT };
    const without = await runCli(['read', pages.url('/ledger')], renderEnv);
    expect(without.stdout).not.toContain('Boat two');
    const run = await runCli(['read', pages.url('/ledger'), '--actions', '[{"click":"#more"}]'], renderEnv);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Actions before reading:\n1\. click #more: done\n/);
    expect(run.stdout).toContain('Boat two came back late in the evening');
  });
});

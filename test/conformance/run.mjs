// npm run test:conformance: the official MCP conformance suite (@modelcontextprotocol/conformance, its 0.2 line,
// `server` mode) against the built CLI's `serve --http`, once per protocol era: the active suite at spec version
// 2025-11-25 (every scenario of the 0.1 line, plus server-session-lifecycle) with expected-failures.yml as the
// baseline, and with `--requirements 2026-07-28` the scenarios MCP 2026-07-28 requires, frozen at its release, with
// expected-failures-2026.yml.
// Exits with the suite's status: 1 on a regression or a stale baseline entry. Needs `npm run build` first.
//
// On Node 20 the suite's bundle imports fs.globSync (Node >= 22) at load; register-fs-glob-shim.mjs supplies a
// stub (see fs-glob-shim.mjs). Then the server is stopped with SIGTERM and must exit 0 (graceful shutdown).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
const requirements = process.argv.includes('--requirements')
  ? process.argv[process.argv.indexOf('--requirements') + 1]
  : undefined;
const suite = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const shim = join(root, 'test/conformance/register-fs-glob-shim.mjs');
const baseline = join(
  root,
  `test/conformance/expected-failures${requirements ? `-${requirements.slice(0, 4)}` : ''}.yml`,
);
// Scenarios that pass only because the server answers the suite's own test tools with "Unknown tool" in the right
// shape: named apart, never counted as evidence (expected-failures-2026.yml).
const NOT_COUNTED = ['tools-call-simple-text', 'tools-call-error'];

if (!existsSync(cli)) {
  process.stderr.write('test:conformance: dist/cli/main.js is missing; run `npm run build` first.\n');
  process.exit(2);
}

const server = spawn(process.execPath, [cli, 'serve', '--http', '--port', '0', '--tools', 'all'], {
  env: { PATH: process.env.PATH ?? '' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const serverExited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));

const mcpUrl = await new Promise((resolve, reject) => {
  let stderr = '';
  const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 15000);
  server.stderr.on('data', (chunk) => {
    stderr += chunk;
    const match = /MCP at (http:\/\/\S+\/mcp)/.exec(stderr);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  server.once('exit', () => reject(new Error(`server exited before listening:\n${stderr}`)));
});

const outputDir = mkdtempSync(join(tmpdir(), 'web-reader-conformance-'));
const args = ['--import', shim, suite, 'server', '--url', mcpUrl, '--expected-failures', baseline, '-o', outputDir];
args.push(...(requirements ? ['--requirements', requirements] : ['--spec-version', '2025-11-25']));
const suiteCode = await new Promise((resolve) => {
  const run = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  // Per-scenario progress lines are noise in `npm test`; the summary is what matters.
  let output = '';
  run.stdout.on('data', (chunk) => (output += chunk));
  run.once('exit', (code) => {
    const summary = output.indexOf('=== SUMMARY ===');
    process.stdout.write(summary >= 0 ? output.slice(summary) : output);
    if (requirements) {
      const passed = output.match(/^✓ [\w-]+/gmu)?.map((line) => line.slice(2)) ?? [];
      const counted = passed.filter((name) => !NOT_COUNTED.includes(name));
      process.stdout.write(
        `\n${requirements}: ${counted.length} scenario(s) pass (${counted.join(', ')}); not counted, passing only on ` +
          `"Unknown tool": ${passed.filter((name) => NOT_COUNTED.includes(name)).join(', ') || 'none'}.\n`,
      );
    }
    resolve(code ?? 1);
  });
});
rmSync(outputDir, { recursive: true, force: true });

server.kill('SIGTERM');
const { code: serverCode, signal } = await serverExited;
if (serverCode !== 0) {
  process.stderr.write(`test:conformance: the server did not shut down cleanly (code ${serverCode}, ${signal}).\n`);
  process.exit(1);
}
process.exit(suiteCode);

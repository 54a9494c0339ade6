// Starts a build's `web-reader serve --http` on a free port for a benchmark and waits for its start-up line.
// Shared by bench:http and bench:load.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';

/** The server process and its base URL (MCP at `${baseUrl}/mcp`); `stop()` sends SIGTERM and waits (SIGKILL after 15 s). */
export async function serveHttp(cliPath, env) {
  const child = spawn(process.execPath, [cliPath, 'serve', '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const baseUrl = await new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 20000);
    const onData = (chunk) => {
      stderr += chunk;
      const match = /MCP at (http:\/\/\S+)\/mcp/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        child.stderr.off('data', onData);
        child.stderr.resume(); // one log line per request: drained, not kept
        resolve(match[1]);
      }
    };
    child.stderr.on('data', onData);
  });
  const stop = () =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { child, baseUrl, stop };
}

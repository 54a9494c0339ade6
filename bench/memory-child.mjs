// One measurement of bench/memory.mjs, in a process of its own: a library reader of one build reads one case's
// page(s) through a tool, and the process's peak resident memory during that call is reported as one JSON line.
//
//   node bench/memory-child.mjs <dist dir> <tool> <url> [<url> …]   (the URLs are read at once, one call each)
//
// The peak is the kernel's high-water mark of the whole process (VmHWM, worker threads included: they share its
// address space), reset just before the call (writing 5 to /proc/self/clear_refs), after a warm-up read of a small
// page that starts a worker, and the tokenizer loaded, so that it measures the page and not the start-up.
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { pathToFileURL, URL } from 'node:url';

const [dist, tool, ...urls] = process.argv.slice(2);
const { createWebReader } = await import(pathToFileURL(`${dist}/index.js`).href);

/** A field of /proc/self/status in MB (VmRSS, VmHWM). */
function statusMb(field) {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** CPU time (user + system) of the whole process so far, in ms. */
const cpuMs = () => {
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  return (userCPUTime + systemCPUTime) / 1000;
};

const env = { ALLOW_PRIVATE_HOSTS: new URL(urls[0]).host, PER_DOMAIN_INTERVAL: '0', RENDER_JS: 'never' };
// A loaded machine must not fail a read by its time limits: memory is measured here, not time.
Object.assign(env, { EXTRACT_TIMEOUT: '120000', FETCH_TIMEOUT: '120000', QUEUE_TIMEOUT: '120000' });
const reader = createWebReader({ env });
const warm = new URL('/small', urls[0]).href;
await reader.call(tool, { url: warm });
// The tokenizer's ranks load once a process counts its first long text (tokens.ts), a one-time cost of some 50 MB that
// a small page's read no longer pays (issue 23 item 7): loaded here, in every build alike, so that the figure is the
// page's and not the tokenizer's.
await (await import(pathToFileURL(`${dist}/tokens.js`).href)).loadTokenizer();
globalThis.gc?.();
const before = statusMb('VmRSS');
writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS (Linux ≥ 4.0)
const started = performance.now();
const cpuStarted = cpuMs();
const outputs = await Promise.all(urls.map((url) => reader.call(tool, { url })));
const wallMs = performance.now() - started;
const cpu = cpuMs() - cpuStarted;
const peak = statusMb('VmHWM');
const textLength = outputs.reduce((sum, output) => sum + output.text.length, 0);
const failed = outputs.find((output) => output.isError);
await reader.close();
process.stdout.write(
  `${JSON.stringify({ before, peak, added: peak - before, wallMs, cpuMs: cpu, textLength, error: failed?.text })}\n`,
);
process.exit(0);

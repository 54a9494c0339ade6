// PDF benchmark: pages per second and peak RSS reading a generated 200-page text PDF, the way the engine does
// (dist/ code: readPdfText + renderPdf), both in-process and through the extraction worker pool.
//
//   npm run bench:pdf                     200 pages, 3 runs each mode
//   npm run bench:pdf -- --pages 500 --runs 5
//
// Each mode runs in its own child process so its peak RSS (getrusage maxrss) is its own. The PDF is built once
// outside the timed region; the timer covers bytes → Markdown.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makePdf } from '../test/fixtures/content/make-pdf.mjs';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    child: { type: 'string' },
  },
});
const PAGES = Number(args.pages);
const RUNS = Number(args.runs);

const WORDS = 'river delta silt tributary flood season channel survey measure flow basin estuary'.split(' ');

/** About 45 lines of 70–90 characters per page: a dense page of prose, like a report or a paper. */
function pageText(page) {
  const lines = [];
  for (let line = 0; line < 45; line++) {
    let text = `${page}.${line}`;
    for (let word = 0; text.length < 70 + ((page * 7 + line) % 20); word++) {
      text += ' ' + WORDS[(page * 31 + line * 7 + word) % WORDS.length];
    }
    lines.push(text);
  }
  return lines.join('\n');
}

async function child(mode) {
  const bytes = makePdf({
    title: 'Benchmark',
    pages: Array.from({ length: PAGES }, (_, i) => pageText(i + 1)),
    compress: true,
  });
  const { readPdfText, renderPdf } = await import('../dist/formats/pdf.js');
  let read;
  let close = async () => {};
  if (mode === 'pool') {
    const { resolveConfig } = await import('../dist/config.js');
    const { createExtractor } = await import('../dist/workers/extractor.js');
    const extractor = createExtractor(resolveConfig({ EXTRACT_TIMEOUT: '60000' }), 1);
    read = (data) => extractor.readPdf(data);
    close = () => extractor.close();
  } else {
    read = (data) => readPdfText(data);
  }
  const times = [];
  let chars = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    // A fresh copy each run: PDF.js may detach the buffer it is given.
    const pdf = await read(bytes.slice());
    const rendered = renderPdf(pdf, bytes.byteLength);
    times.push(performance.now() - started);
    if (pdf.pageCount !== PAGES || rendered.outcome !== 'ok') throw new Error(`read ${pdf.pageCount} pages`);
    chars = rendered.content.length;
  }
  await close();
  const usage = process.resourceUsage();
  process.stdout.write(JSON.stringify({ mode, bytes: bytes.byteLength, chars, times, maxRssKb: usage.maxRSS }) + '\n');
}

if (args.child) {
  await child(args.child);
} else {
  const self = fileURLToPath(import.meta.url);
  console.log(`PDF benchmark: ${PAGES} pages, ${RUNS} runs per mode, Node ${process.version}, ${cpus()[0]?.model}`);
  console.log('mode     | PDF size | Markdown chars | first run | best run | pages/s (best) | peak RSS');
  console.log('---------|----------|----------------|-----------|----------|----------------|---------');
  for (const mode of ['direct', 'pool']) {
    const result = spawnSync(
      process.execPath,
      [self, '--child', mode, '--pages', String(PAGES), '--runs', String(RUNS)],
      {
        encoding: 'utf8',
      },
    );
    if (result.status !== 0) throw new Error(`${mode} failed: ${result.stderr}`);
    const r = JSON.parse(result.stdout.trim().split('\n').pop());
    const best = Math.min(...r.times);
    const row = [
      mode.padEnd(8),
      `${(r.bytes / 1024).toFixed(0)} KB`.padStart(8),
      String(r.chars).padStart(14),
      `${r.times[0].toFixed(0)} ms`.padStart(9),
      `${best.toFixed(0)} ms`.padStart(8),
      ((PAGES * 1000) / best).toFixed(0).padStart(14),
      `${(r.maxRssKb / 1024).toFixed(0)} MB`,
    ];
    console.log(row.join(' | '));
  }
}

// OCR benchmark (issue 27 item 2): character error rate and seconds per page on the OCR test set
// (test/fixtures/ocr/: text pages rendered by Chromium, their ground truth, and an image-only PDF of them), read the
// way the engine reads them (dist/ code): a PNG, a JPEG, and a scanned PDF page (its image taken from the file by
// PDF.js, then OCR'd). Formats are interleaved within each run; medians over the runs. CPU time counts tesseract's
// (this process's reaped children, /proc/self/stat cutime + cstime) and this process's own.
//
//   npm run bench:ocr                 3 runs
//   npm run bench:ocr -- --runs 5
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { characterErrorRate, fixture, groundTruth, PAGE_NAMES } from '../test/fixtures/ocr/ocr-set.mjs';
import { median } from './median.mjs';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(args.runs);

const { resolveConfig } = await import('../dist/config.js');
const { createOcr } = await import('../dist/ocr/ocr.js');
const { readPdfPageImage } = await import('../dist/formats/pdf-page-image.js');

const config = resolveConfig(process.env);
const ocr = createOcr({ ...config, ocrConcurrency: 1 });
if (!ocr.isAvailable()) {
  console.error('No tesseract: install it with `apt-get install tesseract-ocr` (or set TESSERACT_PATH).');
  process.exit(1);
}
const never = new globalThis.AbortController().signal;
const scanned = fixture('scanned', 'pdf');

/** CPU ms of this process and its reaped children. */
function cpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = (index) => Number(fields[index - 3]); // field 3 (state) is the first after the name
  const children = ((ticks(16) + ticks(17)) * 1000) / 100; // cutime, cstime in USER_HZ (100)
  const own = process.cpuUsage();
  return children + (own.user + own.system) / 1000;
}

const FORMATS = {
  png: (name) => ocr.recognize(fixture(name, 'png'), { signal: never }),
  jpeg: (name) => ocr.recognize(fixture(name, 'jpg'), { signal: never }),
  'scanned PDF page': async (name) => {
    const page = await readPdfPageImage(scanned, PAGE_NAMES.indexOf(name) + 1, config.ocrMaxPixels);
    return ocr.recognize(page.image, { signal: never });
  },
};

const samples = Object.fromEntries(Object.keys(FORMATS).map((format) => [format, { wall: [], cpu: [], cer: [] }]));
const load = [loadavg()[0]];
for (let run = 0; run < RUNS; run++) {
  for (const name of PAGE_NAMES) {
    for (const [format, read] of Object.entries(FORMATS)) {
      const cpu0 = cpuMs();
      const t0 = performance.now();
      const text = await read(name);
      samples[format].wall.push((performance.now() - t0) / 1000);
      samples[format].cpu.push((cpuMs() - cpu0) / 1000);
      samples[format].cer.push(characterErrorRate(groundTruth(name), text));
    }
  }
  load.push(loadavg()[0]);
}

const characters = PAGE_NAMES.reduce((sum, name) => sum + groundTruth(name).length, 0);
console.log(
  `OCR test set: ${PAGE_NAMES.length} pages, ${characters} characters of ground truth; ${RUNS} runs, tesseract ${config.ocrLanguages}`,
);
console.log(`load average (1 min) during the runs: ${load.map((value) => value.toFixed(1)).join(' → ')}`);
console.log('| input | CER (mean over pages, worst page) | s/page wall (median) | s/page CPU (median) |');
console.log('| --- | --- | --- | --- |');
for (const [format, { wall, cpu, cer }] of Object.entries(samples)) {
  const mean = cer.reduce((sum, value) => sum + value, 0) / cer.length;
  const worst = Math.max(...cer);
  const percent = (value) => `${(value * 100).toFixed(2)} %`;
  console.log(
    `| ${format} | ${percent(mean)}, ${percent(worst)} | ${median(wall).toFixed(2)} | ${median(cpu).toFixed(2)} |`,
  );
}

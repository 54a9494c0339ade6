// Office and e-book benchmark (issue 27): documents per second and fidelity reading the test set
// (test/fixtures/documents/report.*, each with its golden Markdown) the way the engine does (dist/ code:
// readDocument + renderDocument, in-process), and — when the candidate libraries are installed in a folder named by
// DOC_CANDIDATES (a node_modules folder; they are not this project's dependencies) — the same files through mammoth
// (docx → HTML → our Markdown serializer), officeparser (every format → its AST → Markdown) and exceljs (xlsx → rows → our GFM
// table), for the choice recorded in docs/benchmarks.md.
//
//   npm run bench:documents                                   ours, 200 reads a format
//   DOC_CANDIDATES=/tmp/docbench/node_modules npm run bench:documents -- --runs 100
//
// Fidelity: the share of the golden file's structural lines (headings, list items, links, table rows, slide and sheet
// headings) found verbatim in a reader's output, and the share of the golden's words found in it (text kept).
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';
import { parseArgs } from 'node:util';
import { readDocument, renderDocument } from '../dist/formats/document.js';
import { markdownOfHtml, gfmTable } from '../dist/formats/document-xml.js';
import { makeLongDocx } from '../test/fixtures/documents/make-documents.mjs';
import { median } from './median.mjs';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '200' }, pages: { type: 'string', default: '100' } },
});
const RUNS = Number(args.runs);
const FORMATS = ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'rtf'];
const dir = new URL('../test/fixtures/documents/', import.meta.url);
const BASE = 'https://docs.example/files/report';

const structural = (markdown) =>
  markdown.split('\n').filter((line) => /^(#{1,6} |[-*] |\d+\. |\|)|\]\(/.test(line) && !/^\| ---/.test(line));
const words = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function fidelity(output, golden) {
  const lines = structural(golden);
  const kept = lines.filter((line) => output.includes(line)).length;
  const have = new Set(words(output));
  const goldenWords = words(golden);
  return {
    structure: kept / lines.length,
    text: goldenWords.filter((word) => have.has(word)).length / goldenWords.length,
  };
}

const readers = {
  ours: {
    formats: FORMATS,
    read: async (bytes) => renderDocument(readDocument(bytes, BASE), bytes.byteLength).content,
  },
};

const candidates = process.env.DOC_CANDIDATES;
if (candidates) {
  const require = createRequire(new URL(`file://${candidates.replace(/\/?$/, '/')}`));
  const mammoth = require('mammoth');
  readers.mammoth = {
    formats: ['docx'],
    read: async (bytes) => markdownOfHtml((await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value, BASE),
  };
  const officeparser = require('officeparser');
  readers.officeparser = {
    formats: FORMATS,
    read: async (bytes) => (await (await officeparser.parseOffice(Buffer.from(bytes))).to('md')).value,
  };
  const ExcelJS = require('exceljs');
  readers.exceljs = {
    formats: ['xlsx'],
    read: async (bytes) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(bytes));
      return workbook.worksheets
        .map((sheet) => {
          const rows = [];
          sheet.eachRow((row) => rows.push(row.values.slice(1).map((value) => String(value ?? ''))));
          return `## ${sheet.name}\n\n${gfmTable(rows)}`;
        })
        .join('\n\n');
    },
  };
}

// Interleaved: each run reads every (reader, format) pair once, so machine load falls on all of them alike.
const cases = [];
for (const [name, reader] of Object.entries(readers)) {
  for (const format of reader.formats) {
    const bytes = new Uint8Array(readFileSync(new URL(`report.${format}`, dir)));
    const golden = readFileSync(new URL(`report.${format}.md`, dir), 'utf8');
    try {
      const output = await reader.read(bytes);
      for (let warm = 0; warm < 10; warm++) await reader.read(bytes);
      cases.push({ name, format, bytes, read: reader.read, score: fidelity(output, golden), wall: [], cpu: [] });
    } catch (error) {
      console.log(`${name} ${format} failed: ${error.message}`);
    }
  }
}
for (let run = 0; run < RUNS; run++) {
  for (const entry of cases) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    await entry.read(entry.bytes);
    entry.wall.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    entry.cpu.push((used.user + used.system) / 1000);
  }
}
console.log(`${RUNS} interleaved reads of each, medians; node ${process.version}`);
console.log('reader        format  wall ms  cpu ms   docs/s  structure  text');
for (const entry of cases) {
  const wall = median(entry.wall);
  console.log(
    `${entry.name.padEnd(13)} ${entry.format.padEnd(7)} ${wall.toFixed(2).padStart(7)} ${median(entry.cpu).toFixed(2).padStart(7)}` +
      ` ${(1000 / wall).toFixed(0).padStart(8)}  ${(entry.score.structure * 100).toFixed(0).padStart(8)}%  ${(entry.score.text * 100).toFixed(0).padStart(3)}%`,
  );
}

// Throughput on a long document: a generated .docx of `--pages` dense pages, read whole, ours only.
const long = makeLongDocx(Number(args.pages));
const longRuns = Math.max(3, Math.min(RUNS, 11));
const wall = [];
const cpu = [];
let length = 0;
for (let run = 0; run < longRuns; run++) {
  const used = process.cpuUsage();
  const start = performance.now();
  length = (await readers.ours.read(long)).length;
  wall.push(performance.now() - start);
  const spent = process.cpuUsage(used);
  cpu.push((spent.user + spent.system) / 1000);
}
const longWall = median(wall);
console.log(
  `ours, a ${args.pages}-page .docx (${(long.byteLength / 1024).toFixed(0)} KB, ${length} characters of Markdown), ` +
    `median of ${longRuns}: ${longWall.toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU, ` +
    `${((Number(args.pages) * 1000) / longWall).toFixed(0)} pages/s`,
);

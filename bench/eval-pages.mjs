// The evaluation sets in ../shared/eval (see its README), read the same way by every benchmark: one page at a time,
// gunzipped and decoded as a browser would, so loading stays outside whatever a benchmark times.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { TextDecoder } from 'node:util';
import { gunzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const EVAL = process.env.WEB_READER_EVAL ?? resolve(ROOT, '../shared/eval');
export const NEWS = join(EVAL, 'article-extraction-benchmark');
export const MULTI = join(EVAL, 'trafilatura-eval');
export const MODERN = join(EVAL, 'modern');

/** Whether the modern set (2025–26 pages, mostly not articles) is present; the benchmark covers it when it is. */
export function hasModern() {
  return existsSync(join(MODERN, 'ground-truth.json'));
}

// The fixed split of every set into two halves, "A" and "B": a page's half is a bit of the FNV-1a hash of SPLIT_SEED
// and its id. Seeded and computed from the id alone, so the split is the same on every machine and for pages added
// later, and it is a random draw, not the sets' order (ids are hashes or URLs sorted by site).
export const SPLIT_SEED = 'web-reader-eval-split-2026';

export function halfOf(id) {
  let hash = 0x811c9dc5;
  const key = `${SPLIT_SEED}:${id}`;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash >>> 7) & 1 ? 'B' : 'A';
}

/** A set's ground truth, its keys sorted, the first `limit` of them turned into pages by `toPage(key, entry)`. */
function readSet(dir, truthFile, limit, toPage) {
  const truth = JSON.parse(readFileSync(join(dir, truthFile), 'utf8'));
  return Object.keys(truth)
    .sort()
    .slice(0, limit)
    .map((key) => toPage(key, truth[key]));
}

/** The news set, sorted by id: `{ id, url, expected, load() }`. */
export function newsPages(limit = Infinity) {
  return readSet(NEWS, 'ground-truth.json', limit, (id, entry) => ({
    id,
    url: entry.url,
    expected: entry.articleBody,
    ...source({ file: join(NEWS, 'html', `${id}.html.gz`), utf8: true }),
  }));
}

/** The multilingual set, sorted by URL: `{ id, url, with, without, load() }`. */
export function multiPages(limit = Infinity) {
  return readSet(MULTI, 'evaldata.json', limit, (url, entry) => ({
    id: entry.file,
    url,
    with: entry.with,
    without: entry.without,
    ...source({ file: join(MULTI, 'html', `${entry.file}.gz`), utf8: false }),
  }));
}

/** The modern set, sorted by id: `{ id, url, type, title, expected, with, without, load() }`. */
export function modernPages(limit = Infinity) {
  if (!hasModern()) return [];
  return readSet(MODERN, 'ground-truth.json', limit, (id, entry) => ({
    id,
    url: entry.url,
    type: entry.type,
    title: entry.title,
    expected: entry.main_content ?? '',
    with: entry.with ?? [],
    without: entry.without ?? [],
    ...source({ file: join(MODERN, 'html', `${id}.html.gz`), utf8: false }),
  }));
}

/**
 * A page's `source` (where its HTML is and how it is decoded: plain data, so it can be posted to a worker thread that
 * holds nothing else of the set) and `load()`, which reads it.
 */
function source(where) {
  return { source: where, load: () => loadSource(where) };
}

/** A page's HTML from its `source`: gunzipped, then decoded as UTF-8 (news) or as a browser would (the others). */
export function loadSource({ file, utf8 }) {
  const bytes = gunzipSync(readFileSync(file));
  return utf8 ? new TextDecoder('utf-8').decode(bytes) : decodeAsBrowser(bytes);
}

/** Bytes → text as a browser would without HTTP headers: BOM, else <meta charset> in the first bytes, else UTF-8. */
function decodeAsBrowser(bytes) {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const match =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(head);
  let label = match?.[1] ?? 'utf-8';
  // The Encoding Standard's prescan: a UTF-16 label in <meta> means UTF-8 (the page could not have been read otherwise).
  if (/^utf-?16/i.test(label)) label = 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

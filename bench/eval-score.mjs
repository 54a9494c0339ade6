// Scoring of the evaluation sets (their README's rules), one home for every benchmark that scores pages:
// bench/extract.mjs and bench/render-auto.mjs.

/**
 * Markdown → plain text before scoring, the same for both pipelines: fence lines and table rule rows go; links
 * keep their text (targets dropped); heading `#`, quote `>` and list markers at line
 * start go; `|` becomes a space; emphasis delimiters (`*`, `_`, `~~`) at word edges and code backticks go; backslash
 * escapes become the bare character. Images go entirely (alt text included): they are not the article's text, and
 * Turndown's and our output treat them the same way.
 */
export function markdownToText(markdown) {
  return markdown
    .replace(/^ {0,3}(?:```|~~~).*$/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '')
    .replace(/!\[(?:\\.|[^\]\\])*\]\((?:\\.|[^)\\])*\)/g, '')
    .replace(/\[((?:\\.|[^\]\\])*)\]\((?:\\.|[^)\\])*\)/g, '$1')
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/(^|[^\\])\|/gm, '$1 ')
    .replace(/~~|`+/g, '')
    .replace(/(^|[\s(["'])(?:\*{1,3}|_{1,3})(?=\S)/gm, '$1')
    .replace(/(\S)(?:\*{1,3}|_{1,3})(?=[\s).,;:!?"']|$)/gm, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~=])/g, '$1');
}

export function shingles(text) {
  const tokens = text.toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) ?? [];
  const counts = new Map();
  for (let i = 0; i + 4 <= tokens.length; i++) {
    const key = tokens.slice(i, i + 4).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Per-page counts of the article-extraction-benchmark, normalised to sum to 1. */
export function scoreNews(expected, extracted) {
  const want = shingles(expected);
  const got = shingles(extracted);
  let tp = 0;
  let gotTotal = 0;
  let wantTotal = 0;
  for (const n of want.values()) wantTotal += n;
  for (const [key, n] of got) {
    gotTotal += n;
    tp += Math.min(n, want.get(key) ?? 0);
  }
  const fp = gotTotal - tp;
  const fn = wantTotal - tp;
  const sum = tp + fp + fn;
  return sum === 0 ? { tp: 1, fp: 0, fn: 0 } : { tp: tp / sum, fp: fp / sum, fn: fn / sum };
}

// As the benchmark's evaluate.py: a page with nothing expected and nothing extracted is perfect.
export function pagePrecision({ tp, fp, fn }) {
  if (fp === 0 && fn === 0) return 1;
  return tp + fp === 0 ? 0 : tp / (tp + fp);
}
export function pageRecall({ tp, fp, fn }) {
  if (fp === 0 && fn === 0) return 1;
  return tp + fn === 0 ? 0 : tp / (tp + fn);
}

export function normalizeSpace(text) {
  return text.replace(/\s+/g, ' ').trim();
}

export function scoreMulti(page, extracted) {
  const text = normalizeSpace(extracted);
  const counts = { tp: 0, fn: 0, fp: 0, tn: 0 };
  for (const snippet of page.with) counts[text.includes(normalizeSpace(snippet)) ? 'tp' : 'fn']++;
  for (const snippet of page.without) counts[text.includes(normalizeSpace(snippet)) ? 'fp' : 'tn']++;
  return counts;
}

export function f1(p, r) {
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

// Token counting with a real BPE tokenizer (o200k_base, the encoding of current OpenAI models; Claude's own
// tokenizer is not public, and o200k is a close, slightly generous stand-in for budgets). Used by the output cap,
// link lists, the crawl budget, read_url and web_scraper, so all count the same way.
//
// Linear time, and never long on the event loop (issue 10, scope 1). The tokenizer first splits text into
// pre-tokens (words, groups of up to 3 digits, punctuation runs, whitespace runs) and then merges byte pairs inside
// each one, which costs about the square of its length: one 100,000-character word took 8.5 s. So no piece longer
// than LONG_PRE_TOKEN characters reaches the merging: text is cut into pieces at pre-token boundaries, a longer
// pre-token (a word with no spaces, a CJK sentence with no punctuation, a run of `=`) into chunks of
// LONG_PRE_TOKEN characters, and each piece is counted on its own. Counting and prefix cutting walk the same pieces,
// so a budget held under this counter holds exactly (truncate.ts, link-list.ts, crawl/budget.ts).
//
// How this compares with plain o200k (measured on the 91 articles of /work/shared/eval/article-extraction-benchmark
// and the 467 pages of trafilatura-eval, as text and as raw HTML, 1,025 documents): text with no pre-token longer
// than LONG_PRE_TOKEN gets exactly the plain count — every article and page text did — because pieces end only
// where the pre-tokens of the whole text end and the split regex matches the same there (it has no look-behind;
// its one look-ahead, `\s+(?!\S)`, is why a piece never ends between whitespace and a non-space, see cutsCleanly).
// A long pre-token is counted as the sum of its chunks plus CHUNK_SLACK per chunk. Chunking alone can under-count:
// per seam the two halves measured 0 to 4 tokens above the whole, but 1 below in ~3 % of seams, 2 below in ~0.2 %
// and 3 below once in 12,000 (random 257–511-letter English and Cyrillic runs). With the slack no measured run
// was below plain o200k (4,200 runs: English, German and Cyrillic words without spaces, Chinese and Japanese runs,
// base64, punctuation and whitespace runs; see tokens.test.ts), at 1–4 % more tokens on word, CJK and punctuation
// runs (long whitespace runs, a few tokens each, count up to twice as many). It is a measured bound, not a
// proof: BPE is not sub-additive in general. The 27 raw-HTML documents that differ (long indentation runs, inline
// base64) all count higher, by at most 11 %.
//
// Async callers (every page-sized count) get the same walk in slices of about SLICE_MS, with the event loop free
// between them: 10 MB of prose is ~1.5 s of counting, and the longest pause of the loop measured 22 ms (16 ms for
// 10 MB of one CJK run). Counting in a worker thread was measured too: a worker that loads the tokenizer costs
// ~68 MB of memory, and copying a 10 MB string to it ~25 ms of the main thread; slices keep the loop free at no
// memory cost, and the extraction pool already uses the other cores. The cap-fitting sites (output cap, link
// lists, crawl budget, web_scraper) stop counting at their limit, so their work is bounded by the cap, not the page.
//
// Speed is linear but depends on the text: o200k's merging is cheap on ordinary words (cached, or one token) and
// slow on text it has not seen, ~4 µs per character of random CJK (1 MB of one random Han run: ~4 s, in slices).
//
// The encoding (its 200,000 ranks) is loaded on the first count, not at start-up: importing it costs ~0.2 s, and an
// MCP server must answer `initialize` long before it counts anything (issue 15; npm run bench:start). Every count a
// tool makes is async and loads it first; the one synchronous count needs loadTokenizer() awaited once before.
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base');
let o200k: O200k | undefined;
let loading: Promise<O200k> | undefined;

/** Loads the encoding once; every async count awaits it. */
export async function loadTokenizer(): Promise<void> {
  o200k ??= await (loading ??= import('gpt-tokenizer/encoding/o200k_base'));
}

function encoding(): O200k {
  if (!o200k) throw new Error('The tokenizer is not loaded yet: await loadTokenizer() first.');
  return o200k;
}

// Web pages quote special tokens (`<|endoftext|>` on any page about language models). The tokenizer's default
// refuses such text with an exception; for counting and cutting a page they are ordinary characters.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Longest pre-token handed to the tokenizer whole; a longer one is counted in chunks of this many characters. */
export const LONG_PRE_TOKEN = 256;
/** Tokens added for each chunk of a long pre-token, so that chunking never counts fewer tokens than o200k. */
const CHUNK_SLACK = 2;
/** Bytes of o200k's longest token (128 spaces); a UTF-16 unit is at least one byte (tokens.test.ts checks it). */
export const LONGEST_TOKEN_BYTES = 128;

/**
 * True when a text of `length` UTF-16 units surely holds more than `limit` tokens, without reading it: every token
 * covers at most LONGEST_TOKEN_BYTES units. Lets a caller skip building a huge text only to count it.
 */
export function surelyOverTokens(length: number, limit: number): boolean {
  return length > limit * LONGEST_TOKEN_BYTES;
}

/**
 * At least the tokens this counter gives `text`, without the tokenizer: o200k's every token is at least one UTF-8
 * byte, and a long pre-token's chunks (fewer than 2 per LONG_PRE_TOKEN - 1 units of it) add CHUNK_SLACK each. Lets a
 * text that surely fits a limit skip loading the encoding (~0.2 s, issue 23 item 7): a small page never loads it.
 */
export function tokenBound(text: string): number {
  return Buffer.byteLength(text, 'utf8') + CHUNK_SLACK * Math.ceil((2 * text.length) / (LONG_PRE_TOKEN - 1));
}

// Pieces of ordinary text end at the first safe boundary after this many characters: small enough for a prefix
// cut to re-encode one piece cheaply and for async slices to be short, large enough that the per-call cost of the
// tokenizer is nothing.
const STRETCH = 32768;
// A stretch with no safe boundary (text without ASCII spaces) longer than this is walked pre-token by pre-token.
const MAX_PLAIN = 4 * STRETCH;
// The split regex runs over at most this many characters at once.
const WINDOW = 65536;
// An async walk lets the event loop run after this much work.
const SLICE_MS = 8;

// A pre-token longer than LONG_PRE_TOKEN is either whitespace or, after its first character, free of ASCII spaces
// (every other pattern of the split regex excludes them). A stretch without such a run needs no pre-token walk.
// Without the `u` flag it runs twice as fast and counts UTF-16 units, as LONG_PRE_TOKEN does; `\s` is the same set.
const MAY_HOLD_LONG_PRE_TOKEN = new RegExp(`[^ ]{${LONG_PRE_TOKEN}}|\\s{${LONG_PRE_TOKEN}}`);
const WHITESPACE = /\s/u;

interface Piece {
  readonly start: number;
  readonly end: number;
  /** A chunk of a long pre-token, counted with CHUNK_SLACK. */
  readonly chunk: boolean;
}

// Where the stretch that begins at `start` ends: before a space that is followed by a non-space character. That
// position always begins a pre-token (the space either starts the next word's pre-token or stands alone, and no
// pattern of the split regex runs across it), so counting the two sides apart changes nothing.
function stretchEnd(text: string, start: number): number {
  let space = text.indexOf(' ', start + STRETCH);
  while (space >= 0 && space + 1 < text.length && WHITESPACE.test(text[space + 1]!)) {
    space = text.indexOf(' ', space + 2);
  }
  return space < 0 || space + 1 >= text.length ? text.length : space;
}

// A piece may end at a pre-token boundary unless a whitespace character ends it and a non-space follows: there
// the whole text splits a whitespace run as `\s+(?!\S)` plus one lone `\s+` (two tabs before `<` are two
// pre-tokens), and the piece alone would take the run as one.
function cutsCleanly(text: string, at: number): boolean {
  return !WHITESPACE.test(text[at - 1] ?? '') || WHITESPACE.test(text[at] ?? '');
}

// The pieces of `text[start, end)`, pre-token by pre-token: runs of ordinary pre-tokens up to STRETCH characters,
// and each long pre-token in chunks. `start` and `end` are clean cuts. The split regex sees at most WINDOW
// characters at a time (a greedy match over millions of characters overflows the regex engine's stack); a window
// ends before its last pre-token, which may run on, unless one pre-token fills it, which is then chunked as it is.
function* preTokenPieces(text: string, start: number, end: number): Generator<Piece> {
  const split = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu');
  let plainStart = start;
  let previousStart = start;
  for (let windowStart = start; windowStart < end;) {
    const windowEnd = Math.min(end, windowStart + WINDOW);
    const part = text.slice(windowStart, windowEnd);
    split.lastIndex = 0;
    let next = windowEnd;
    for (let match = split.exec(part); match !== null; match = split.exec(part)) {
      const from = windowStart + match.index;
      const to = from + match[0].length;
      if (to === windowEnd && windowEnd < end && from > windowStart) {
        next = from;
        break;
      }
      if (to - from > LONG_PRE_TOKEN) {
        if (from > plainStart) {
          // Not a clean cut: the pre-token before is one lone whitespace character, counted on its own.
          const plainEnd = cutsCleanly(text, from) ? from : previousStart;
          if (plainEnd > plainStart) yield { start: plainStart, end: plainEnd, chunk: false };
          if (plainEnd < from) yield { start: plainEnd, end: from, chunk: false };
        }
        yield* chunks(text, from, to);
        plainStart = to;
      } else if (to - plainStart >= STRETCH && cutsCleanly(text, to)) {
        yield { start: plainStart, end: to, chunk: false };
        plainStart = to;
      }
      previousStart = from;
    }
    windowStart = next;
  }
  if (plainStart < end) yield { start: plainStart, end, chunk: false };
}

function* chunks(text: string, start: number, end: number): Generator<Piece> {
  for (let chunkStart = start; chunkStart < end;) {
    let chunkEnd = Math.min(chunkStart + LONG_PRE_TOKEN, end);
    const last = text.charCodeAt(chunkEnd - 1);
    if (chunkEnd < end && last >= 0xd800 && last <= 0xdbff) chunkEnd--; // keep a surrogate pair together
    yield { start: chunkStart, end: chunkEnd, chunk: true };
    chunkStart = chunkEnd;
  }
}

function* pieces(text: string): Generator<Piece> {
  for (let start = 0; start < text.length;) {
    const end = stretchEnd(text, start);
    if (end - start <= MAX_PLAIN && !MAY_HOLD_LONG_PRE_TOKEN.test(text.slice(start, end))) {
      yield { start, end, chunk: false };
    } else {
      yield* preTokenPieces(text, start, end);
    }
    start = end;
  }
}

function countPiece(text: string, piece: Piece): number {
  const tokens = encoding().countTokens(text.slice(piece.start, piece.end), AS_PLAIN_TEXT);
  return piece.chunk ? tokens + CHUNK_SLACK : tokens;
}

interface Walked {
  /** Tokens of the pieces before `end`. */
  readonly tokens: number;
  /** Where the walk stopped: the end of the text, or the start of the first piece over the limit. */
  readonly end: number;
  /** The first piece that did not fit in `limit`, when there is one. */
  readonly over: Piece | undefined;
}

// The one walk behind every count and cut. It yields between pieces so an async caller can pause there.
function* walk(text: string, limit: number): Generator<void, Walked> {
  let tokens = 0;
  for (const piece of pieces(text)) {
    const count = countPiece(text, piece);
    if (tokens + count > limit) return { tokens, end: piece.start, over: piece };
    tokens += count;
    yield;
  }
  return { tokens, end: text.length, over: undefined };
}

function runNow<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function runSliced<T>(steps: Generator<void, T>): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
}

/**
 * Tokens in `text`, on the calling thread: for short texts (a heading, a notice, a test). Linear. Needs
 * loadTokenizer() awaited once before.
 */
export function countTokens(text: string): number {
  return runNow(walk(text, Infinity)).tokens;
}

/** Tokens in `text`, counted in slices with the event loop free between them: for page-sized texts. */
export async function countTokensAsync(text: string): Promise<number> {
  await loadTokenizer();
  return (await runSliced(walk(text, Infinity))).tokens;
}

/**
 * Tokens in `text` when they are at most `limit`, else undefined. Stops as soon as the limit is passed, so the
 * work is bounded by the limit, not by the text.
 */
export async function tokensWithin(text: string, limit: number): Promise<number | undefined> {
  if (surelyOverTokens(text.length, limit)) return undefined;
  await loadTokenizer();
  const walked = await runSliced(walk(text, limit));
  return walked.over === undefined ? walked.tokens : undefined;
}

// Characters of `piece` whose tokens fit in `room`: the decoded prefix of its first `room` tokens. A token can end
// inside a multi-byte character, which decodes to U+FFFD; that partial character is dropped.
function pieceCut(text: string, piece: Piece, room: number): number {
  const tokenRoom = piece.chunk ? room - CHUNK_SLACK : room;
  if (tokenRoom <= 0) return 0;
  const { decode, encode } = encoding();
  const prefix = decode(encode(text.slice(piece.start, piece.end), AS_PLAIN_TEXT).slice(0, tokenRoom));
  let length = prefix.length;
  while (length > 0 && prefix.charCodeAt(length - 1) === 0xfffd) length--;
  return Math.min(length, piece.end - piece.start);
}

/**
 * Length in characters of the longest prefix of `text` whose count is within `maxTokens` (cut inside the first
 * piece that does not fit); `text.length` when it all fits. Work is bounded by the budget, not by the text.
 */
export async function prefixLengthWithinTokens(text: string, maxTokens: number): Promise<number> {
  if (tokenBound(text) <= maxTokens) return text.length;
  await loadTokenizer();
  let budget = maxTokens;
  // A cut inside a piece is re-counted as a text of its own, which can come out a token or two above the tokens
  // kept (a cut word re-encodes differently): check, and cut tighter by the excess.
  for (let attempt = 0; attempt < 8 && budget > 0; attempt++) {
    const walked = await runSliced(walk(text, budget));
    if (walked.over === undefined) return text.length;
    const end = walked.end + pieceCut(text, walked.over, budget - walked.tokens);
    const counted = await countTokensAsync(text.slice(0, end));
    if (counted <= maxTokens) return end;
    budget -= counted - maxTokens;
  }
  return 0;
}

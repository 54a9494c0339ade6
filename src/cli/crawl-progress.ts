// The crawl's progress line on a terminal (stderr): one line, repainted in place, that fits the terminal's width and
// shows activity from the start — elapsed seconds and the page being read are repainted every second, so a slow
// first page (robots.txt, a Crawl-delay, a slow server) never looks like a hang.
//
// Fitting, not wrapping: a line longer than the terminal wraps, and `\r` then returns to the start of its last row
// only, so every repaint would leave a row behind. The parts that do not fit are dropped, least useful first, and
// the URL being read is shortened to the room left. Widths are counted in characters: every part is ASCII but the
// separator `·`, one column wide.
import type { CrawlProgress } from '../crawl/crawl-site.js';

/** What the line shows. */
export interface ProgressState {
  readonly elapsedMs: number;
  /** The last progress the crawl reported; none before its first URL was finished. */
  readonly progress?: CrawlProgress;
  /** The URL whose visit began last. */
  readonly reading?: string;
}

/** Columns assumed when the stream does not say (not a terminal, or a terminal that reports 0). */
export const DEFAULT_COLUMNS = 80;
const SEPARATOR = ' · ';
const MAX_BAR_WIDTH = 24;
/** The URL being read is left out rather than shortened below this many characters. */
const MIN_URL_WIDTH = 10;

interface Part {
  readonly text: string;
  /** Lower is kept first when the line is too long. */
  readonly rank: number;
  /** Shortened to the room left instead of being dropped (the URL being read), after this fixed label. */
  readonly shrinks?: { readonly label: string };
  readonly isBar?: boolean;
}

/** `host/path` of a URL: what a person recognises, percent-encoded so it is ASCII. */
function shownUrl(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname === '/' ? '/' : pathname}`;
}

/** A part's text; one that shrinks has at most `room` characters after its label, cut in the middle (host … path). */
function shown(part: Part, room = Infinity): string {
  if (!part.shrinks) return part.text;
  const { text } = part;
  if (text.length <= room) return part.shrinks.label + text;
  const head = Math.ceil((room - 1) / 2);
  return `${part.shrinks.label}${text.slice(0, head)}…${text.slice(text.length - (room - 1 - head))}`;
}

/** 45210 → 45.2k: the summary gives the exact count; the line has little room. */
function count(tokens: number): string {
  if (tokens < 10_000) return String(tokens);
  return `${(tokens / 1000).toFixed(tokens < 100_000 ? 1 : 0)}k`;
}

function bar(progress: CrawlProgress, width: number): string {
  // The bar fills with whichever limit is nearer: pages or tokens.
  const share = Math.min(1, Math.max(progress.pagesRead / progress.maxPages, progress.tokensUsed / progress.maxTokens));
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

function partsOf(state: ProgressState, barWidth: number): Part[] {
  const seconds = `${Math.floor(state.elapsedMs / 1000)}s`;
  const reading: Part[] = state.reading
    ? [{ text: shownUrl(state.reading), rank: 2, shrinks: { label: 'reading ' } }]
    : [];
  const { progress } = state;
  if (!progress)
    return [{ text: seconds, rank: 0 }, ...(reading.length > 0 ? reading : [{ text: 'starting', rank: 1 }])];
  return [
    { text: bar(progress, barWidth), rank: 4, isBar: true },
    { text: `${progress.pagesRead}/${progress.maxPages} pages`, rank: 0 },
    { text: `${count(progress.tokensUsed)}/${count(progress.maxTokens)} tokens`, rank: 3 },
    { text: `${progress.frontierSize} queued`, rank: 5 },
    { text: seconds, rank: 1 },
    ...reading,
  ];
}

/**
 * The progress line for a terminal `columns` wide, without control characters: at most `columns - 1` characters
 * (a character in the last column leaves some terminals waiting to wrap), the parts that do not fit dropped.
 */
export function renderProgressLine(state: ProgressState, columns: number): string {
  const width = Math.max(1, (columns > 0 ? columns : DEFAULT_COLUMNS) - 1);
  // The bar takes a fifth of the line.
  const parts = partsOf(state, Math.max(5, Math.min(MAX_BAR_WIDTH, Math.floor(width / 5))));
  const line = (kept: ReadonlySet<Part>, shrunk: (part: Part) => string): string => {
    const shown = parts.filter((part) => kept.has(part));
    // The bar is followed by a space, the other parts by a separator.
    return shown
      .map((part, index) => (index === 0 ? '' : shown[index - 1]!.isBar ? ' ' : SEPARATOR) + shrunk(part))
      .join('');
  };
  const atLeast = (part: Part) => shown(part, MIN_URL_WIDTH);
  const kept = new Set<Part>();
  for (const part of [...parts].sort((a, b) => a.rank - b.rank)) {
    kept.add(part);
    if (line(kept, atLeast).length > width) kept.delete(part);
  }
  if (kept.size === 0) return shown(parts.find((part) => part.rank === 0)!).slice(0, width);
  // What is left of the line goes to the part that shrinks, up to its whole length.
  const room = width - line(kept, atLeast).length;
  return line(kept, (part) => shown(part, MIN_URL_WIDTH + room));
}

/** Where the line is painted: a terminal's stderr (its `columns` follow resizes). */
export interface ProgressStream {
  write(text: string): unknown;
  readonly columns?: number | undefined;
}

export interface ProgressDisplay {
  /** The crawl finished a URL. */
  update(progress: CrawlProgress): void;
  /** The crawl began visiting a URL. */
  visiting(url: string): void;
  /** Stops the timer and ends the line; safe to call more than once. */
  stop(): void;
}

export interface ProgressDisplayOptions {
  readonly now?: () => number;
  readonly intervalMs?: number;
}

/** Paints at once and every `intervalMs` (1 s) until stop(), which every exit of the crawl must reach. */
export function startProgressDisplay(stream: ProgressStream, options: ProgressDisplayOptions = {}): ProgressDisplay {
  const now = options.now ?? Date.now;
  const started = now();
  let progress: CrawlProgress | undefined;
  let reading: string | undefined;
  let stopped = false;
  const paint = () => {
    const state = { elapsedMs: now() - started, ...(progress && { progress }), ...(reading && { reading }) };
    stream.write(`\r\x1b[2K${renderProgressLine(state, stream.columns ?? DEFAULT_COLUMNS)}`);
  };
  paint();
  // Not unref'd: the crawl keeps the process alive anyway, and a timer left running by a missed stop() shows.
  const timer = setInterval(paint, options.intervalMs ?? 1000);
  return {
    update(next) {
      progress = next;
      if (!stopped) paint();
    },
    visiting(url) {
      reading = url;
      if (!stopped) paint();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      reading = undefined;
      paint(); // the final counts, nothing being read any more
      stream.write('\n');
    },
  };
}

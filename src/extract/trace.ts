// The extraction trace behind `--explain` (STYLE.md §10, "every discard can be traced", as Readability's
// `this.log("Removing unlikely candidate - " + …)` and trafilatura's `_log_event("discarding element", …)`): each
// step that drops a block, picks the content or changes pass says what it did and why. Extraction runs in a worker
// thread and its result is structured-cloned back, so a trace is a plain list of plain objects.
// Costs nothing when off: every step takes `trace?: ExtractTrace` and records only under `if (trace)`, so no string
// is built and nothing is allocated per node when nobody asked.
import { cleanText } from '../clean-text.js';
import { escapeLogText } from '../log.js';
import { collapseWhitespace, isElement, textOf, type HtmlNode } from './parse.js';

/** The extraction step that made a decision, in the order they run. */
export type ExplainPhase =
  | 'hidden'
  | 'boilerplate'
  | 'candidates'
  | 'cleaning'
  | 'trailing'
  | 'retry'
  | 'fallback'
  // The chosen content's shape before rendering: forum posts, card lists (content-shape.ts).
  | 'shape';

/** What the step did: took a block out, picked the content, ranked a candidate below it, or said something. */
export type ExplainAction = 'removed' | 'chosen' | 'runner-up' | 'note';

/** The measurements a decision was made on (those that exist at that step). */
export interface ExplainNumbers {
  /** The candidate's content score, after its link-density scaling (Readability's scheme). */
  readonly score?: number;
  /** Characters of text in the block, whitespace collapsed. */
  readonly chars?: number;
  /** Share of the block's text inside links, 0–1. */
  readonly linkDensity?: number;
}

/** One decision of the extractor. */
export interface ExplainEntry {
  readonly phase: ExplainPhase;
  readonly action: ExplainAction;
  /** The block, briefly: `div.article-body#main "First words of its text…"`. Absent on a note about a whole pass. */
  readonly element?: string;
  /** Which rule fired and on what: `display:none`, `unlikely class or id: "related"`, `link density 0.8 > 0.33`. */
  readonly reason: string;
  readonly numbers?: ExplainNumbers;
}

/** Where the steps record their decisions; passed down only when the caller asked for an explanation. */
export type ExtractTrace = ExplainEntry[];

const PREVIEW_MAX_CHARS = 60;
const NAME_MAX_CHARS = 40;
const CLASSES_SHOWN = 3;

/** An element as a selector-like name with the start of its text: `div.article-body#main "First words…"`. */
export function describeNode(node: HtmlNode): string {
  const preview = truncate(collapseWhitespace(cleanText(previewText(node))), PREVIEW_MAX_CHARS);
  const quoted = preview === '' ? '' : ` "${preview}"`;
  if (!isElement(node)) return `text${quoted}`;
  let name = node.name;
  const classes = (node.attribs.class ?? '').split(/\s+/).filter((value) => value !== '');
  for (const value of classes.slice(0, CLASSES_SHOWN)) name += `.${truncate(value, NAME_MAX_CHARS)}`;
  if (classes.length > CLASSES_SHOWN) name += '…';
  const id = node.attribs.id?.trim();
  if (id) name += `#${truncate(id, NAME_MAX_CHARS)}`;
  return `${collapseWhitespace(cleanText(name))}${quoted}`;
}

/** Characters of text in a block, whitespace collapsed (for steps that run before the content is measured). */
export function textChars(node: HtmlNode): number {
  return collapseWhitespace(textOf(node)).length;
}

/** Records a removal; `numbers` default to the block's text length. */
export function traceRemoved(
  trace: ExtractTrace,
  phase: ExplainPhase,
  node: HtmlNode,
  reason: string,
  numbers: ExplainNumbers = { chars: textChars(node) },
): void {
  trace.push({ phase, action: 'removed', element: describeNode(node), reason, numbers });
}

/** Records a note about a whole pass: why it ran, what it kept. */
export function traceNote(trace: ExtractTrace, phase: ExplainPhase, reason: string, numbers?: ExplainNumbers): void {
  trace.push(numbers ? { phase, action: 'note', reason, numbers } : { phase, action: 'note', reason });
}

/**
 * The trace as lines for a terminal: `phase  action  element — reason (numbers)`, one decision a line. Removals of
 * elements with no text (icons, spacers, empty wrappers) lose nothing a reader sees: each phase's are one line, at
 * the place of its first, with their reasons counted (a forum page's forty share icons were forty lines).
 */
export function formatExplain(entries: readonly ExplainEntry[]): string[] {
  const lines: string[] = [];
  const empty = new Map<ExplainPhase, { at: number; count: number; reasons: Map<string, number> }>();
  for (const entry of entries) {
    if (entry.action !== 'removed' || entry.numbers?.chars !== 0) {
      lines.push(formatEntry(entry));
      continue;
    }
    const group = empty.get(entry.phase) ?? { at: lines.length, count: 0, reasons: new Map<string, number>() };
    if (group.count === 0) {
      empty.set(entry.phase, group);
      lines.push(formatEntry(entry)); // alone, it stays as it is
    }
    group.count++;
    group.reasons.set(entry.reason, (group.reasons.get(entry.reason) ?? 0) + 1);
  }
  for (const [phase, { at, count, reasons }] of empty) {
    if (count === 1) continue;
    const why = [...reasons].map(([reason, n]) => (n > 1 ? `${reason} ×${n}` : reason)).join('; ');
    const line = `${phase.padEnd(11)} ${'removed'.padEnd(9)} ${count} elements with no text — ${why}`;
    lines[at] = escapeLogText(truncate(line, GROUP_LINE_MAX_CHARS));
  }
  return lines;
}

const GROUP_LINE_MAX_CHARS = 200;

function formatEntry(entry: ExplainEntry): string {
  const what = entry.element === undefined ? entry.reason : `${entry.element} — ${entry.reason}`;
  const numbers = formatNumbers(entry.numbers);
  const line = `${entry.phase.padEnd(11)} ${entry.action.padEnd(9)} ${what}${numbers ? ` (${numbers})` : ''}`;
  // One decision, one line: nothing the page wrote can break it or forge another.
  return escapeLogText(line);
}

function formatNumbers(numbers: ExplainNumbers | undefined): string {
  if (!numbers) return '';
  const parts: string[] = [];
  if (numbers.score !== undefined) parts.push(`score ${round(numbers.score, 1)}`);
  if (numbers.chars !== undefined) parts.push(`${numbers.chars} chars`);
  if (numbers.linkDensity !== undefined) parts.push(`link density ${round(numbers.linkDensity, 2)}`);
  return parts.join(', ');
}

function round(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

// Blocks whose text a reader sees apart from the text around it (list items, cells, paragraphs): the preview puts a
// space between them, as `BudgetCouncilVote` reads as one word.
const SEPARATE =
  /^(?:p|div|li|ul|ol|dl|dd|dt|td|th|tr|h[1-6]|br|section|article|header|footer|aside|nav|main|figure|figcaption|blockquote|pre)$/;

/** The first words of a subtree's text, without concatenating all of a large block. */
function previewText(node: HtmlNode): string {
  let text = '';
  const visit = (current: HtmlNode): void => {
    if (text.length > PREVIEW_MAX_CHARS * 4) return;
    if (current.type === 'text') text += current.data;
    else if (current.type === 'tag') {
      if (SEPARATE.test(current.name)) text += ' ';
      for (const child of current.children) visit(child);
    }
  };
  visit(node);
  return text;
}

// What changed in a page's Markdown between two reads (issue 28 item 4, fetch `since`): a unified diff by lines, from
// jsdiff (the `diff` package), bounded so that a page rewritten from top to bottom costs a bounded amount of work and
// is said to be rewritten rather than diffed. Pure; run in the extraction worker (src/workers/tasks.ts).
import { structuredPatch } from 'diff';

/** Lines of context around each change, as `diff -u` gives. */
const CONTEXT_LINES = 2;
/** Past this many edited lines the diff is not worth reading (nor computing): the page was rewritten. */
export const MAX_EDITED_LINES = 4000;

export interface PageDiff {
  /** The unified diff's hunks, `@@ … @@` headers and all, without the file header; '' when nothing changed. */
  readonly diff: string;
  readonly added: number;
  readonly removed: number;
  /** Too many lines changed to diff within MAX_EDITED_LINES: `diff` is '' and the counts are 0. */
  readonly rewritten: boolean;
}

export function diffMarkdown(before: string, after: string): PageDiff {
  if (before === after) return { diff: '', added: 0, removed: 0, rewritten: false };
  const patch = structuredPatch('before', 'after', withEnd(before), withEnd(after), undefined, undefined, {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDITED_LINES,
  });
  if (!patch) return { diff: '', added: 0, removed: 0, rewritten: true };
  let added = 0;
  let removed = 0;
  const lines: string[] = [];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
      if (!line.startsWith('\\')) lines.push(line); // "\ No newline at end of file": never, see withEnd
    }
  }
  return { diff: lines.join('\n'), added, removed, rewritten: false };
}

/** Both texts end in a newline, so that a last line changed reads as that line changed, not as a missing newline. */
function withEnd(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

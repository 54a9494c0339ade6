// Markdown a page wrote itself (a text/markdown body, an llms.txt, a page's Markdown twin) is returned as written,
// except for links whose target is not http, https or mailto (src/link-target.ts): those are disarmed so that no
// client rendering the result shows them as links. The words stay; a backslash makes the construct literal text
// (CommonMark §2.4 "Backslash escapes"), so the reader still sees what the author wrote.
//   [text](javascript:…)   →  [text]\(javascript:…)      inline links and images (CommonMark §6.3, §6.4)
//   <javascript:…>         →  \<javascript:…>            autolinks (§6.5)
//   [id]: javascript:…     →  \[id]: javascript:…        link reference definitions (§4.7)
// Fenced and indented code is left alone: a tutorial's example of a bad link is code, not a link.
// Not handled: raw HTML inside the Markdown (`<a href="javascript:…">`), which GFM renderers filter themselves.
import { ALLOWED_LINK_PROTOCOLS } from '../link-target.js';

// A scheme (RFC 3986 §3.1) at the start of a link destination, after optional `<` and spaces.
const INLINE_DESTINATION = /\]\(([ \t]*<?)([A-Za-z][A-Za-z0-9+.-]*):/g;
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}):/g;
const DEFINITION = /^( {0,3})\[([^\]\n]+)\]:([ \t]*<?)([A-Za-z][A-Za-z0-9+.-]*):/gm;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function isAllowed(scheme: string): boolean {
  return ALLOWED_LINK_PROTOCOLS.has(`${scheme.toLowerCase()}:`);
}

function disarmLine(line: string): string {
  return line
    .replace(INLINE_DESTINATION, (match, space: string, scheme: string) =>
      isAllowed(scheme) ? match : `]\\(${space}${scheme}:`,
    )
    .replace(AUTOLINK, (match, scheme: string, offset: number, whole: string) =>
      isAllowed(scheme) || whole[offset - 1] === '\\' ? match : `\\<${scheme}:`,
    )
    .replace(DEFINITION, (match, indent: string, label: string, space: string, scheme: string) =>
      isAllowed(scheme) ? match : `${indent}\\[${label}]:${space}${scheme}:`,
    );
}

/** Markdown with every link to a scheme other than http, https and mailto made literal text; code untouched. */
export function disarmMarkdownLinks(markdown: string): string {
  if (!/[\]<]/.test(markdown) || !markdown.includes(':')) return markdown;
  const lines = markdown.split('\n');
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      // A fence closes with at least as many of the same characters (CommonMark §4.5).
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    if (/^(?: {4}|\t)/.test(line)) continue; // indented code (§4.4); a list's continuation lines are rare enough
    lines[index] = disarmLine(line);
  }
  return lines.join('\n');
}

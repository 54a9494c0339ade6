// Tesseract's text → Markdown paragraphs. Tesseract ends each recognised line with a newline and separates its
// paragraphs (blocks) with a blank line; a reader wants one paragraph per line, so lines are joined with a space and a
// word hyphenated across a line end is joined again. Markdown's block markers at a line's start (#, >, a list marker,
// a fence) are made literal: OCR text never means them.
// Not handled: columns (tesseract's own order stands), tables, headings (OCR does not know a heading from a line).

// A hyphen at a line's end before a lower-case continuation: "recog-\nnised" is one word.
const HYPHENATED = /(\p{L})-\n(\p{Ll})/gu;
const BLOCK_MARKER = /^(#{1,6}\s|>|[-*+]\s|```|~~~|={3,}|-{3,})/;
const ORDERED_MARKER = /^(\d+)([.)]\s)/;

export function ocrMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n') // tesseract ends its output with a form feed (page separator)
    .split(/\n[ \t]*\n+/)
    .map((block) =>
      block
        .replace(HYPHENATED, '$1$2')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join(' ')
        .replace(/\s+/g, ' '),
    )
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => (BLOCK_MARKER.test(paragraph) ? '\\' + paragraph : paragraph.replace(ORDERED_MARKER, '$1\\$2')))
    .join('\n\n');
}

// The page's title above its extracted Markdown (one home: the engine and the extraction worker both use it).

/**
 * The page's title as a level-1 heading above the main content (as the seed's example output shows), unless the
 * content already opens with a level-1 heading or with a heading that says the title: extractors drop an <h1> that
 * repeats the <title>, and without it a model reads a body with no name — also when the content then opens with the
 * page's first `##` section.
 */
export function withTitleHeading(markdown: string, title: string | undefined): string {
  const name = title?.replace(/\s+/g, ' ').trim();
  if (!name) return markdown;
  const opening = /^(#{1,6}) (.*)/.exec(markdown.trimStart());
  if (opening && (opening[1] === '#' || sameWords(opening[2]!, name))) return markdown;
  return `# ${name}\n\n${markdown}`;
}

const sameWords = (a: string, b: string) => words(a) === words(b);
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

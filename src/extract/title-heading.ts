// The page's title above its extracted Markdown (one home: the engine and the extraction worker both use it).

/**
 * The page's title as a level-1 heading above the main content (as the seed's example output shows), unless the
 * content already opens with a heading: extractors drop an <h1> that repeats the <title>, and without it a model
 * reads a body with no name.
 */
export function withTitleHeading(markdown: string, title: string | undefined): string {
  const name = title?.replace(/\s+/g, ' ').trim();
  if (!name || /^#{1,6} /.test(markdown.trimStart())) return markdown;
  return `# ${name}\n\n${markdown}`;
}

// The pure parts of web_scraper's JSON that work on the finished text (seeds/web-scraper-plan.md milestone 2):
// quality metrics and word chunks with the references each chunk mentions.

export interface Quality {
  readonly text_length: number;
  readonly word_count: number;
  readonly link_count: number;
  readonly likely_article: boolean;
}

export interface Chunk {
  readonly id: string;
  readonly text: string;
  readonly references: number[];
  readonly start_word: number;
  readonly end_word: number;
}

/** Seed `_is_likely_article`: "articles typically have >500 chars". */
export const LIKELY_ARTICLE_MIN_CHARS = 500;

/** Python's `str.split()`: runs of whitespace separate words, and there are no empty words. */
export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '');
}

// Words of a page-sized text, counted as splitWords counts them but in slices cut at whitespace, with the event
// loop free between them: splitting 10 MB at once held it for ~450 ms (issue 10, scope 1).
const WORD_SLICE = 262_144;

/** splitWords(text).length, without holding the event loop on a page-sized text. */
export async function countWords(text: string): Promise<number> {
  const space = /\s/g;
  let words = 0;
  for (let start = 0; start < text.length;) {
    space.lastIndex = Math.min(text.length, start + WORD_SLICE);
    const end = space.exec(text)?.index ?? text.length;
    words += splitWords(text.slice(start, end)).length;
    start = end;
    if (start < text.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return words;
}

export async function qualityOf(text: string, linkCount: number): Promise<Quality> {
  return {
    text_length: text.length,
    word_count: await countWords(text),
    link_count: linkCount,
    likely_article: text.length > LIKELY_ARTICLE_MIN_CHARS,
  };
}

/**
 * Seed `chunk_text`: consecutive runs of `chunkSize` words joined by single spaces; each chunk lists the ids whose
 * `[id]` marker it contains. A marker is one word (the scraper writes it after a space), so it never straddles two
 * chunks.
 */
export function chunkText(text: string, referenceIds: readonly number[], chunkSize: number): Chunk[] {
  const words = splitWords(text);
  const chunks: Chunk[] = [];
  for (let start = 0; start < words.length; start += chunkSize) {
    const chunk = words.slice(start, start + chunkSize).join(' ');
    chunks.push({
      id: `chunk-${chunks.length}`,
      text: chunk,
      references: referenceIds.filter((id) => chunk.includes(`[${id}]`)),
      start_word: start,
      end_word: Math.min(start + chunkSize, words.length),
    });
  }
  return chunks;
}

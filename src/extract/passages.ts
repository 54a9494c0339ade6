// `query` (issue 26 item 3): the extracted Markdown cut into passages, each under its heading path, for the ranking in
// rank-passages.ts. A section is a heading and what follows it up to the next heading; a long section, or a page
// with no headings at all (a news article), is cut further into passages of about PASSAGE_TARGET_CHARS at block
// boundaries, and a block longer than PASSAGE_MAX_CHARS at sentence boundaries, so that a whole-page article still
// narrows. Code fences are never cut inside a line, and a `#` inside one is no heading. Pure.
//
// Not handled: setext headings (`Title` over `===`): our serializer writes ATX headings, and a page's own Markdown
// twin that uses setext ones is ranked as one section per run of text between ATX headings.

/** About this many characters per passage (~100–150 words): a paragraph or three, small enough to narrow a page. */
export const PASSAGE_TARGET_CHARS = 900;
/** A single block longer than this is cut at sentence boundaries (tables and code at line boundaries). */
export const PASSAGE_MAX_CHARS = 1600;

export interface Passage {
  /** The headings above the passage, outermost first (the page's title heading left out); [] before any. */
  readonly path: readonly string[];
  /** The passage's Markdown, its heading line left out (the path stands for it). */
  readonly text: string;
  /** Which section it is in, counting from 0 in document order (the text before the first heading is one too). */
  readonly section: number;
  /** Its place within its section (from 1) and how many passages the section has. */
  readonly part: number;
  readonly parts: number;
}

export interface Passages {
  /** The page's title heading: a level-1 heading on the first line, which every passage is under. */
  readonly title?: string;
  readonly passages: readonly Passage[];
  /** The number of sections (those with no text of their own, a heading followed at once by a deeper one, too). */
  readonly sectionCount: number;
  /** Each section's heading, by section number; undefined for the text before the first heading. */
  readonly sectionHeadings: readonly (string | undefined)[];
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A heading's text as a reader sees it: links, emphasis, code marks and backslash escapes taken off. */
export function headingText(markdown: string): string {
  return (
    markdown
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      // An escaped character is that character; an unescaped emphasis or code mark goes (one pass, so `\_` stays `_`).
      .replace(/\\([\\`*_{}[\]()#+\-.!|~<>])|[*_`]+/g, (_mark, escaped: string | undefined) => escaped ?? '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

interface Section {
  readonly path: string[];
  readonly blocks: string[];
}

/** The Markdown's sections in document order, each with its blocks (runs of lines between blank lines). */
function sectionsOf(markdown: string): { title?: string; sections: Section[] } {
  const lines = markdown.split('\n');
  const stack: { level: number; text: string }[] = [];
  const sections: Section[] = [{ path: [], blocks: [] }];
  let title: string | undefined;
  let block: string[] = [];
  let fence: string | undefined;
  const endBlock = () => {
    if (block.length > 0) sections[sections.length - 1]!.blocks.push(block.join('\n'));
    block = [];
  };
  lines.forEach((line, index) => {
    const fenced = FENCE.exec(line);
    if (fence !== undefined) {
      block.push(line);
      if (fenced && fenced[1]![0] === fence[0] && fenced[1]!.length >= fence.length && line.trim() === fenced[1])
        fence = undefined;
      return;
    }
    if (fenced) {
      fence = fenced[1];
      block.push(line);
      return;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      endBlock();
      const level = heading[1]!.length;
      const text = headingText(heading[2]!);
      const isTitle = title === undefined && level === 1 && lines.slice(0, index).every((l) => l.trim() === '');
      if (isTitle) {
        title = text;
        return;
      }
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text });
      sections.push({ path: stack.map((entry) => entry.text), blocks: [] });
      return;
    }
    if (line.trim() === '') endBlock();
    else block.push(line);
  });
  endBlock();
  return { ...(title !== undefined && { title }), sections };
}

/** Cuts a block longer than PASSAGE_MAX_CHARS: at line breaks for code, tables and lists, else between sentences. */
function cutBlock(block: string): string[] {
  if (block.length <= PASSAGE_MAX_CHARS) return [block];
  const isLines = FENCE.test(block) || /^\s*[|*+-]|^\s*\d+\./.test(block) || block.includes('\n');
  const pieces = isLines
    ? block.split('\n').map((line) => `${line}\n`)
    : [...new Intl.Segmenter(undefined, { granularity: 'sentence' }).segment(block)].map((s) => s.segment);
  const cut: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current !== '' && current.length + piece.length > PASSAGE_TARGET_CHARS) {
      cut.push(current.trimEnd());
      current = '';
    }
    // A sentence or a line longer than the cap on its own is cut at the cap: no passage grows past it.
    for (let at = 0; at < piece.length; at += PASSAGE_MAX_CHARS) current += piece.slice(at, at + PASSAGE_MAX_CHARS);
  }
  if (current.trim() !== '') cut.push(current.trimEnd());
  return cut;
}

/** A section's blocks gathered into passages of about PASSAGE_TARGET_CHARS, never splitting a block that fits. */
function passagesOf(blocks: readonly string[]): string[] {
  const passages: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const block of blocks.flatMap(cutBlock)) {
    if (current.length > 0 && length + block.length > PASSAGE_TARGET_CHARS) {
      passages.push(current.join('\n\n'));
      current = [];
      length = 0;
    }
    current.push(block);
    length += block.length + 2;
  }
  if (current.length > 0) passages.push(current.join('\n\n'));
  return passages;
}

/** The Markdown's passages in document order, each under its heading path. */
export function splitPassages(markdown: string): Passages {
  const { title, sections } = sectionsOf(markdown.replace(/\r\n?/g, '\n'));
  const passages: Passage[] = [];
  // The text before the first heading is a section only when there is some.
  const counted = sections[0]!.blocks.length === 0 ? sections.slice(1) : sections;
  counted.forEach((section, index) => {
    const texts = passagesOf(section.blocks);
    texts.forEach((text, part) =>
      passages.push({ path: section.path, text, section: index, part: part + 1, parts: texts.length }),
    );
  });
  const sectionHeadings = counted.map((section) => section.path.at(-1));
  return { ...(title !== undefined && { title }), passages, sectionCount: counted.length, sectionHeadings };
}

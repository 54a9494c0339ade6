// The parts of a single-page result every text tool shares: the outcome status line, the page text with the seeds'
// heading and notices, and the structured summary.
import type { PageContent } from '../engine/page-content.js';
import {
  capLimit,
  checkStartIndex,
  frameTokens,
  sliceContent,
  truncationNotice,
  widestTruncationNotice,
} from './truncate.js';
import {
  contentsHeading,
  EXTRACTION_FAILED_NOTICE,
  OUTCOME_HELP,
  OUTCOME_HELP_FALLBACK,
  selectorMatchedNothing,
  withRenderNote,
} from './notices.js';
import { isNothingToRead, OUTCOMES, type Outcome } from '../outcome.js';
import { formatBytes } from '../formats/render-non-html.js';
import { z } from 'zod';
import { answerNote, answerPassages } from './answer-text.js';
import { CHANGES_RESULT_SHAPE, changesParts, structuredChanges } from './changes-text.js';
import { ACTIONS_RESULT_SHAPE, actionLines, structuredActions } from './actions-text.js';
import { STRUCTURED_DATA_SHAPE, structuredDataLine, structuredDataResult } from './structured-data.js';

/** One short line where a text tool would otherwise return empty or misleading text. */
export function statusLine(page: PageContent): string {
  const help = page.statusDetail ?? OUTCOME_HELP[page.outcome] ?? OUTCOME_HELP_FALLBACK;
  const type = page.mediaType || 'no content type';
  const line = `Status: ${page.outcome} — ${page.url} ${help} (HTTP ${page.httpStatus}, ${type}, ${formatBytes(page.byteLength)}).`;
  return withRenderNote(line, page.renderSkipped);
}

/** How old a snapshot is, in whole seconds (`age_seconds`, beside `from_cache`). */
export function ageSeconds(fetchedAt: Date, now = Date.now()): number {
  return Math.max(0, Math.floor((now - fetchedAt.getTime()) / 1000));
}

/**
 * A cut page's continuation notice, which ends the tool's text, with where the rest starts: a front door with its own
 * way to continue (the CLI's --start-index) words it itself; the model reads the notice as it is.
 */
export interface Continuation {
  readonly notice: string;
  readonly nextIndex: number;
  /** MAX_OUTPUT_TOKENS cut it, not max_length. */
  readonly byTokens: boolean;
}

export interface RenderedPage {
  readonly text: string;
  readonly truncated: boolean;
  readonly nextIndex: number | undefined;
  readonly totalLength: number;
  /** The continuation notice that ends `text`, when the content was cut (ToolOutput `continuation`). */
  readonly continuation?: Continuation;
}

/**
 * structuredPage's fields as a schema: the outputSchema of the tools that return one page (fetch, read_url, web).
 * Kept beside the function that fills them, so the two change together; every client validates a result against it
 * (test/mcp/both-eras.test.ts), so a field added to one and not the other fails there.
 */
export const PAGE_RESULT_SHAPE = {
  status: z.enum(OUTCOMES).describe('ok, or what kept the page from being read (empty, needs_js, …)'),
  url: z.string().describe('The URL asked for'),
  final_url: z.string().describe('Where it led, after redirects'),
  http_status: z.number().int(),
  content_type: z.string().describe('The media type the server sent (or the bytes showed)'),
  content_kind: z
    .string()
    .describe('html, markdown, text, json, xml, feed, pdf, document (Office, e-book), image or binary'),
  title: z.string().nullable(),
  truncated: z.boolean().describe('The text was cut; next_start_index continues it'),
  next_start_index: z.number().int().nullable(),
  total_length: z.number().int().describe('Characters of the whole text'),
  from_cache: z.boolean(),
  age_seconds: z.number().int().describe('How old the snapshot is'),
  rendered: z.boolean().describe('Read through a browser (RENDER_JS)'),
  extraction_failed: z.boolean().optional(),
  hidden_blocks_dropped: z.number().int().optional(),
  fetched_at: z.string().describe('ISO 8601'),
  page_count: z.number().int().optional().describe("A PDF's pages"),
  reader: z
    .string()
    .optional()
    .describe('Who read the text: ocr (an image, a scanned PDF), or the document reader (ooxml-word, odf-sheets, …)'),
  ocr_languages: z.string().optional().describe('Read by OCR in these languages (eng, eng+deu)'),
  ocr_pages: z.number().int().optional().describe("A PDF's pages read by OCR"),
  pages_not_read: z.number().int().optional().describe("A PDF's pages OCR did not reach within its time limit"),
  document: z
    .object({
      format: z.string().optional().describe('docx, xlsx, pptx, odt, ods, odp, epub or rtf'),
      media_type: z.string().optional().describe("The format's media type, whatever the server sent"),
      author: z.string().optional(),
      created: z.string().optional(),
      modified: z.string().optional(),
      slides: z.number().int().optional(),
      sheets: z.number().int().optional(),
      chapters: z.number().int().optional(),
      cut_sheets: z
        .array(z.object({ sheet: z.string(), shown_rows: z.number().int(), total_rows: z.number().int().optional() }))
        .optional()
        .describe('Sheets cut by rows'),
    })
    .optional()
    .describe('An Office or e-book file: its format and what it declares (its reader: reader)'),
  markdown_twin: z.string().optional().describe("The page's Markdown version, read in its place"),
  selector_matched: z.number().int().optional().describe('Elements the selector matched'),
  section: z.object({ number: z.number().int(), text: z.string() }).optional(),
  markdown_source: z.enum(['link-alternate', 'llms.txt']).optional(),
  query: z
    .object({
      query: z.string(),
      passages: z
        .array(
          z.object({
            path: z.array(z.string()).describe('The heading path of the passage'),
            part: z.number().int(),
            parts: z.number().int(),
            score: z.number(),
          }),
        )
        .describe('The passages shown, best first'),
      passages_matched: z.number().int(),
      passages_total: z.number().int(),
      sections_total: z.number().int(),
      sections_left_out: z.number().int(),
      left_out_headings: z.array(z.string()),
    })
    .optional()
    .describe('With query: the passages that answer it, and what was left out'),
  changes: CHANGES_RESULT_SHAPE,
  actions: ACTIONS_RESULT_SHAPE,
  structured_data: STRUCTURED_DATA_SHAPE,
};

export function structuredPage(
  page: PageContent,
  rendered: RenderedPage,
): { status: Outcome } & Record<string, unknown> {
  return {
    status: page.outcome,
    url: page.url,
    final_url: page.finalUrl,
    http_status: page.httpStatus,
    content_type: page.mediaType,
    content_kind: page.kind,
    title: page.title ?? null,
    truncated: rendered.truncated,
    next_start_index: rendered.nextIndex ?? null,
    total_length: rendered.totalLength,
    from_cache: page.fromCache,
    age_seconds: ageSeconds(page.fetchedAt),
    rendered: page.rendered,
    extraction_failed: page.extractionFailed,
    hidden_blocks_dropped: page.hiddenBlocksDropped,
    fetched_at: page.fetchedAt.toISOString(),
    ...(page.pageCount !== undefined && { page_count: page.pageCount }),
    ...(page.reader !== undefined && { reader: page.reader }),
    ...(page.ocrLanguages !== undefined && { ocr_languages: page.ocrLanguages }),
    ...(page.ocrPages !== undefined && { ocr_pages: page.ocrPages }),
    ...(page.pagesNotRead !== undefined && { pages_not_read: page.pagesNotRead }),
    ...(page.document && { document: structuredDocument(page.document) }),
    ...(page.markdownTwinUrl !== undefined && { markdown_twin: page.markdownTwinUrl }),
    ...(page.selectorMatched !== undefined && { selector_matched: page.selectorMatched }),
    ...(page.section?.found && { section: { number: page.section.number, text: page.section.text } }),
    ...(page.markdownSource !== undefined && { markdown_source: page.markdownSource }),
    ...(page.answer && { query: structuredAnswer(page.answer) }),
    ...(page.changes && { changes: structuredChanges(page) }),
    ...(page.actions && { actions: structuredActions(page) }),
    ...(page.structuredData && { structured_data: structuredDataResult(page.structuredData) }),
  };
}

/** An Office or e-book file's facts in the structured result, in its snake_case. */
export function structuredDocument(document: NonNullable<PageContent['document']>): Record<string, unknown> {
  const { mediaType, cutSheets, ...rest } = document;
  return {
    ...rest,
    ...(mediaType !== undefined && { media_type: mediaType }),
    ...(cutSheets && {
      cut_sheets: cutSheets.map((cut) => ({
        sheet: cut.sheet,
        shown_rows: cut.shownRows,
        ...(cut.totalRows !== undefined && { total_rows: cut.totalRows }),
      })),
    }),
  };
}

/** A query's answer in the structured result: what was asked, each passage's path and score, what was left out. */
export function structuredAnswer(answer: NonNullable<PageContent['answer']>): Record<string, unknown> {
  return {
    query: answer.query,
    passages: answer.passages.map((passage) => ({
      path: passage.path,
      part: passage.part,
      parts: passage.parts,
      score: Math.round(passage.score * 1000) / 1000,
    })),
    passages_matched: answer.matched,
    passages_total: answer.passageCount,
    sections_total: answer.sectionCount,
    sections_left_out: answer.sectionsLeftOut,
    left_out_headings: answer.leftOutHeadings,
  };
}

/** The text for one page: the seed's heading, the content slice, and the notices placed as the seeds say. */
export async function renderPageText(
  toolName: string,
  page: PageContent,
  /** `maxOutputTokens`: MAX_OUTPUT_TOKENS, the cap on the whole text (0: none). */
  options: { raw: boolean; maxLength: number; startIndex: number; maxOutputTokens: number; selector?: string },
): Promise<RenderedPage> {
  // What was done to the page before it was read leads the text, whatever the read found.
  const acted = actionLines(page);
  if (!options.raw && isNothingToRead(page.outcome)) {
    const text = [acted, statusLine(page)].filter((part) => part !== '').join('\n\n');
    return { text, truncated: false, nextIndex: undefined, totalLength: 0 };
  }
  if (!options.raw && page.selectorMatched === 0) {
    return {
      text: [acted, selectorMatchedNothing(page.url, options.selector)].filter((part) => part !== '').join('\n\n'),
      truncated: false,
      nextIndex: undefined,
      totalLength: 0,
    };
  }
  // With since, what changed: one line when nothing did, else the diff stands for the content (or, with nothing to
  // compare, the page under a line saying so).
  const changes = options.raw ? undefined : changesParts(page);
  if (changes?.only) {
    const text = [acted, changes.lead].filter((part) => part !== '').join('\n\n');
    return { text, truncated: false, nextIndex: undefined, totalLength: 0 };
  }
  // With a query, the passages that answer it stand for the content: max_length and start_index apply to them.
  const answered = !options.raw && page.answer ? answerPassages(page.answer) : undefined;
  const body = options.raw ? page.raw || page.content : (changes?.body ?? answered ?? page.content);
  checkStartIndex(options.startIndex, body.length);
  const failed = !options.raw && page.extractionFailed ? EXTRACTION_FAILED_NOTICE : '';
  // Asked for, the structured data is in the structured result; the text says only that it is there, and what.
  const data = options.raw ? '' : structuredDataLine(page.structuredData);
  const heading = contentsHeading(page.url);
  const note = answered === undefined ? '' : answerNote(page);
  // The heading and the notices count inside MAX_OUTPUT_TOKENS (capLimit): the whole text stays within it.
  const cap = options.maxOutputTokens;
  const lead = changes?.lead ?? '';
  const frame = await frameTokens(
    cap,
    [acted, failed, lead, data, heading, note, widestTruncationNotice(body.length, toolName)],
    body,
  );
  const slice = await sliceContent(body, { ...options, maxTokens: capLimit(Infinity, cap, frame) });
  const notice = truncationNotice(slice, toolName);
  const parts = [acted, failed, lead, data, heading, slice.text, note, notice];
  const continuation =
    notice && slice.nextIndex !== undefined
      ? { notice, nextIndex: slice.nextIndex, byTokens: slice.limitedBy === 'max_output_tokens' }
      : undefined;
  return {
    text: parts.filter((part) => part !== '').join('\n\n'),
    truncated: slice.nextIndex !== undefined,
    nextIndex: slice.nextIndex,
    totalLength: slice.totalLength,
    ...(continuation && { continuation }),
  };
}

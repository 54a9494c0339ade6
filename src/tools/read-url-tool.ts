// The `read_url` tool of seeds/url-reader-architecture.md: one URL → its main content as Markdown under a metadata
// header (title, final URL, word and token count, status), cut at `max_length` (DEFAULT_MAX_LENGTH), optionally
// followed by the page's links. start_index continues a cut result from the same cached snapshot.
import { z } from 'zod';
import type { PageContent } from '../engine/page-content.js';
import { isWebUrl, uniqueLinks } from '../extract/link-set.js';
import { markdownLink } from '../output/link-list.js';
import {
  capLimit,
  checkStartIndex,
  frameTokens,
  sliceContent,
  truncationNotice,
  widestTruncationNotice,
} from '../output/truncate.js';
import { EXTRACTION_FAILED_NOTICE, sectionLine, selectorMatchedNothing } from '../output/notices.js';
import { countTokensAsync } from '../tokens.js';
import { isNothingToRead } from '../outcome.js';
import { booleanArgument, integerAtLeast, startIndexArgument, urlArgument } from './arguments.js';
import { actionOptions, actionsShape } from './action-arguments.js';
import { renderOptions, renderShape } from './render-arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { queryShape, sectionArgument, selectOptions, selectShape } from './select-arguments.js';
import { PAGE_RESULT_SHAPE, statusLine, structuredPage } from '../output/page-text.js';
import { structuredDataLine } from '../output/structured-data.js';
import { answerNote, answerPassages } from '../output/answer-text.js';
import { countWords } from '../output/scraper-json.js';
import { actionLines } from '../output/actions-text.js';
import { structuredDataOptions, structuredDataShape } from './data-arguments.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';

const inputShape = {
  url: urlArgument('URL of the page to read (http or https)'),
  // No static default: DEFAULT_MAX_LENGTH is configuration, resolved when the tool runs.
  max_length: integerAtLeast('max_length', 0)
    .optional()
    .describe('Maximum characters of content to return (default DEFAULT_MAX_LENGTH, 50000; 0 is unlimited)'),
  include_links: booleanArgument('include_links', false, 'Append the list of links found on the page'),
  start_index: startIndexArgument,
  ...renderShape,
  ...actionsShape,
  ...requestShape,
  ...selectShape,
  section: sectionArgument,
  ...queryShape,
  ...structuredDataShape,
};

/** Markdown link text and destination, escaped so a bracket or parenthesis cannot break the list. */
/** The header's status: what the read found, then whether this answer is cut or from the cache. */
function readUrlStatus(page: PageContent, truncated: boolean): string {
  const flags = [truncated && 'truncated', page.fromCache && 'from cache'].filter(Boolean);
  return flags.length > 0 ? `${page.outcome} (${flags.join(', ')})` : page.outcome;
}

function linksSection(page: PageContent): string {
  if ((page.kind !== 'html' && page.kind !== 'document') || !page.linkList) return '';
  const unique = uniqueLinks(page.linkList.links.filter((link) => isWebUrl(link.url)));
  if (unique.length === 0) return '';
  return `## Links\n\n${unique.map((link) => `- ${markdownLink(link.text, link.url)}`).join('\n')}`;
}

export const readUrlTool: ToolDefinition<typeof inputShape> = {
  name: 'read_url',
  title: 'Read a URL as Markdown',
  description:
    'Fetch a single URL and return its main content as clean Markdown (navigation, ads and boilerplate removed), ' +
    'under a header with the title, final URL, word and token count and status. Long pages are cut at max_length; ' +
    'the notice names the start_index that continues.',
  tags: ['web', 'read', 'markdown'],
  inputShape,
  outputShape: {
    ...PAGE_RESULT_SHAPE,
    // Absent when there is no content to count (an empty page, one that needs JavaScript).
    word_count: z.number().int().optional(),
    token_count: z.number().int().optional(),
  },
  annotations: { ...READ_ONLY_WEB, title: 'Read a URL as Markdown' },
  async run(args, context) {
    const { engine, signal } = context;
    const reading = {
      ...renderOptions(args),
      ...actionOptions(args),
      ...requestOptions(args),
      ...selectOptions(args),
      ...structuredDataOptions(args),
    };
    const page = await engine.readPage(args.url, {
      signal,
      withLinkList: args.include_links,
      withoutRaw: true,
      ...reading,
    });
    const maxLength = args.max_length ?? engine.config.defaultMaxLength;
    const acted = actionLines(page);
    if (isNothingToRead(page.outcome)) {
      const text = [acted, statusLine(page)].filter((part) => part !== '').join('\n\n');
      const rendered = { text, truncated: false, nextIndex: undefined, totalLength: 0 };
      return { text: rendered.text, structured: structuredPage(page, rendered) };
    }
    const links = args.include_links ? linksSection(page) : '';
    // With a query, the passages that answer it stand for the content (the header still counts the whole page's).
    const content = page.answer ? answerPassages(page.answer) : page.content;
    const body = [content, links].filter((part) => part !== '').join('\n\n');
    const note = answerNote(page);
    checkStartIndex(args.start_index, body.length);
    const words = await countWords(page.content);
    const tokens = await countTokensAsync(page.content);
    const header = (truncated: boolean) =>
      [
        `Title: ${page.title ?? '(none)'}`,
        `URL: ${page.finalUrl}`,
        `Words: ${words} | Tokens: ${tokens} | Status: ${readUrlStatus(page, truncated)}`,
        ...(page.section?.found ? [sectionLine(page.section.number, page.section.text)] : []),
        ...(page.structuredData ? [structuredDataLine(page.structuredData)] : []),
      ].join('\n');
    const failed = page.extractionFailed ? EXTRACTION_FAILED_NOTICE : '';
    const unmatched = page.selectorMatched === 0 ? selectorMatchedNothing(page.url, args.selector) : '';
    // The header and the notices count inside MAX_OUTPUT_TOKENS (capLimit): the whole text stays within it.
    const cap = engine.config.maxOutputTokens;
    const widest = widestTruncationNotice(body.length, 'read_url');
    const frame = await frameTokens(cap, [header(true), '---', acted, failed, unmatched, note, widest]);
    const slice = await sliceContent(body, {
      maxLength,
      startIndex: args.start_index,
      maxTokens: capLimit(Infinity, cap, frame),
    });
    const truncated = slice.nextIndex !== undefined;
    const notice = truncationNotice(slice, 'read_url');
    const parts = [header(truncated), '---', acted, failed, unmatched, slice.text, note, notice];
    const rendered = { text: '', truncated, nextIndex: slice.nextIndex, totalLength: slice.totalLength };
    return {
      text: parts.filter((part) => part !== '').join('\n\n'),
      structured: { ...structuredPage(page, rendered), word_count: words, token_count: tokens },
    };
  },
};

// The `fetch` tool of seeds/fetch-tool.md: URL → main content as Markdown (or the raw body), with max_length,
// plus SPEC "Beyond the seeds": start_index continuation, the token cap and an outcome status.
import { z } from 'zod';
import type { PageContent } from '../engine.js';
import { InvalidArgumentError } from '../errors.js';
import { sliceContent, truncationNotice } from '../render/truncate.js';
import { booleanArgument, nonNegativeInteger, startIndexArgument, urlArgument } from './arguments.js';
import { statusLine, structuredPage, type RenderedPage } from './page-output.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';

export const EXTRACTION_FAILED_NOTICE = '<error>Extraction to markdown failed; returning raw content</error>';

const inputShape = {
  url: urlArgument('URL to fetch'),
  max_length: nonNegativeInteger('max_length', 0, 'Max characters to return (0 is unlimited)'),
  raw: booleanArgument('raw', false, 'Get raw content instead of cleaning/extracting to markdown'),
  start_index: startIndexArgument,
};

/** The text for one page: the seed's heading, the content slice, and the notices placed as the seeds say. */
export async function renderPageText(
  toolName: string,
  page: PageContent,
  options: { raw: boolean; maxLength: number; startIndex: number; maxOutputTokens: number },
): Promise<RenderedPage> {
  if (!options.raw && (page.outcome === 'empty' || page.outcome === 'needs_js')) {
    return { text: statusLine(page), truncated: false, nextIndex: undefined, totalLength: 0 };
  }
  const body = options.raw ? page.raw || page.content : page.content;
  if (options.startIndex > 0 && options.startIndex >= body.length) {
    throw new InvalidArgumentError(
      'start_index',
      `start_index ${options.startIndex} is past the end of the content (${body.length} characters); nothing is left to read.`,
    );
  }
  const slice = await sliceContent(body, options);
  const notice = truncationNotice(slice, toolName);
  const failed = !options.raw && page.extractionFailed;
  const parts = [failed ? EXTRACTION_FAILED_NOTICE : '', `Contents of ${page.url}:`, slice.text, notice];
  return {
    text: parts.filter((part) => part !== '').join('\n\n'),
    truncated: slice.nextIndex !== undefined,
    nextIndex: slice.nextIndex,
    totalLength: slice.totalLength,
  };
}

export const fetchTool: ToolDefinition<typeof inputShape> = {
  name: 'fetch',
  title: 'Fetch a web page',
  description:
    'Read content from a real internet URL. By default, this tool attempts to clean pages and format in markdown ' +
    'for efficiency, removing non-content like navigation or ads to make your job easier. If asked to find ' +
    'something on a website, you can combine with the `links` tool to explore a website to find the content you need.',
  tags: ['web', 'fetch', 'markdown'],
  inputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Fetch a web page' },
  async run(args, { engine, signal, explain }) {
    const page = await engine.readPage(args.url, { signal, explain });
    const rendered = await renderPageText('fetch', page, {
      raw: args.raw,
      maxLength: args.max_length,
      startIndex: args.start_index,
      maxOutputTokens: engine.config.maxOutputTokens,
    });
    const explained = page.explain ? { explain: page.explain } : {};
    return { text: rendered.text, structured: structuredPage(page, rendered), ...explained };
  },
};

export type FetchToolArguments = z.input<z.ZodObject<typeof inputShape>>;

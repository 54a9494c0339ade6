// The `web` tool of seeds/web-tool.md: one tool, three modes. "markdown" and "raw" read like `fetch` (same heading,
// truncation and extraction-failure notices); "links" lists the same-site links with a whole-line `max_length`.
import { z } from 'zod';
import {
  LINK_PAGE_SHAPE,
  limitLines,
  lineTruncationNotice,
  linkLine,
  linkPageSummary,
  siteLinks,
} from '../output/link-list.js';
import { allLinksFound, noLinksFound, noLinksReason, withRenderNote } from '../output/notices.js';
import { capLimit, checkStartIndex, frameTokens, widestTruncationNotice } from '../output/truncate.js';
import { nonNegativeInteger, startIndexArgument, urlArgument } from './arguments.js';
import { renderOptions, renderShape } from './render-arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { selectOptions, selectShape } from './select-arguments.js';
import { PAGE_RESULT_SHAPE, renderPageText, structuredPage } from '../output/page-text.js';
import { READ_ONLY_WEB, type ToolContext, type ToolDefinition, type ToolOutput } from './types.js';

const MODES = ['markdown', 'raw', 'links'] as const;

const inputShape = {
  url: urlArgument(
    'URL to process. This can be any public web address, API endpoint, or location of a file on GitHub, etc.',
  ),
  mode: z
    .enum(MODES, { error: 'mode must be one of "markdown", "raw" or "links"' })
    .default('markdown')
    .describe(
      'Processing mode. Allowed values: "markdown" (fetch & extract content into markdown), "raw" (retrieve raw ' +
        'content), and "links" (extract internal hyperlinks with anchor text).',
    ),
  max_length: nonNegativeInteger(
    'max_length',
    0,
    'Maximum number of characters to return (0 is unlimited). In links mode, complete lines are added until the ' +
      'limit is met.',
  ),
  start_index: startIndexArgument,
  ...renderShape,
  ...requestShape,
  ...selectShape,
};

type WebArguments = z.infer<z.ZodObject<typeof inputShape>>;

/**
 * Characters left for link lines under `max_length`, which the seed calls the "maximum number of characters to
 * return": the heading and the blank line after it count too. 0 (no limit) stays 0; a heading that leaves no room
 * leaves 1, which no link line fits. The truncation notice is appended after, as the seed says.
 */
function linesBudget(maxLength: number, heading: string): number {
  if (maxLength === 0) return 0;
  return Math.max(1, maxLength - heading.length - 2);
}

async function linksMode(args: WebArguments, { engine, signal }: ToolContext): Promise<ToolOutput> {
  const reading = { ...renderOptions(args), ...requestOptions(args) };
  const page = await engine.readPage(args.url, { signal, want: 'links', withoutRaw: true, ...reading });
  const common = linkPageSummary(args.url, page);
  const links = siteLinks(page);
  if (links.length === 0) {
    return {
      text: withRenderNote(noLinksFound(args.url, noLinksReason(page, true)), page.renderSkipped),
      structured: { status: page.outcome, ...common, mode: 'links', truncated: false, total_links: 0 },
    };
  }
  const lines = links.map((link) => linkLine(link, true));
  const heading = allLinksFound(links.length, args.url);
  // The heading and the notice count inside MAX_OUTPUT_TOKENS (capLimit).
  const cap = engine.config.maxOutputTokens;
  const total = lines.reduce((sum, line) => sum + line.length + 1, 0);
  const frame = await frameTokens(cap, [heading, widestTruncationNotice(total, 'web')]);
  const limited = await limitLines(lines, {
    maxLength: linesBudget(args.max_length, heading),
    startIndex: args.start_index,
    maxTokens: capLimit(Infinity, cap, frame),
  });
  checkStartIndex(args.start_index, limited.totalLength, 'the link list');
  const notice = lineTruncationNotice(limited, 'web', args.max_length);
  const parts = [heading, limited.lines.join('\n'), notice].filter((part) => part !== '');
  const truncated = limited.nextIndex !== undefined;
  return {
    text: parts.join('\n\n'),
    structured: {
      status: page.outcome,
      ...common,
      mode: 'links',
      total_links: links.length,
      truncated,
      next_start_index: limited.nextIndex ?? null,
      total_length: limited.totalLength,
    },
  };
}

// A page's fields in markdown and raw mode, the page-and-links fields in links mode: what both have is required.
const outputShape = {
  ...z.object(PAGE_RESULT_SHAPE).partial().shape,
  ...LINK_PAGE_SHAPE,
  status: PAGE_RESULT_SHAPE.status,
  truncated: PAGE_RESULT_SHAPE.truncated,
  mode: z.enum(MODES),
  total_links: z.number().int().optional().describe('links mode: same-site links on the page'),
};

export const webTool: ToolDefinition<typeof inputShape> = {
  name: 'web',
  title: 'Read the web',
  description:
    'Use to access the internet when up-to-date information may help. You can navigate documentation, or fetch ' +
    'code and data from the web, so use it whenever fresh information from the internet could potentially improve ' +
    'the accuracy of your answer to the user.',
  tags: ['web', 'fetch', 'markdown', 'links'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Read the web' },
  async run(args, context) {
    if (args.mode === 'links') return linksMode(args, context);
    const reading = { ...renderOptions(args), ...requestOptions(args), ...selectOptions(args) };
    const raw = args.mode === 'raw';
    const options = { signal: context.signal, raw, withoutRaw: !raw, ...reading };
    const page = await context.engine.readPage(args.url, options);
    const rendered = await renderPageText('web', page, {
      raw: args.mode === 'raw',
      maxLength: args.max_length,
      startIndex: args.start_index,
      maxOutputTokens: context.engine.config.maxOutputTokens,
      selector: args.selector,
    });
    return { text: rendered.text, structured: { ...structuredPage(page, rendered), mode: args.mode } };
  },
};

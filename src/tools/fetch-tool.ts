// The `fetch` tool of seeds/fetch-tool.md: URL → main content as Markdown (or the raw body), with max_length,
// plus SPEC "Beyond the seeds": start_index continuation, the token cap and an outcome status.
import { z } from 'zod';
import { booleanArgument, nonNegativeInteger, startIndexArgument, urlArgument } from './arguments.js';
import { actionOptions, actionsShape } from './action-arguments.js';
import { renderOptions, renderShape } from './render-arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { queryShape, sectionArgument, selectOptions, selectShape, sinceArgument } from './select-arguments.js';
import { structuredDataOptions, structuredDataShape } from './data-arguments.js';
import { PAGE_RESULT_SHAPE, renderPageText, structuredPage } from '../output/page-text.js';
import { SCREENSHOT_RESULT_SHAPE } from '../output/screenshot-text.js';
import { DEFAULT_SCREENSHOT, presentScreenshot, withBrowserNeeded } from './screenshot-arguments.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';

const inputShape = {
  url: urlArgument('URL to fetch'),
  max_length: nonNegativeInteger('max_length', 0, 'Max characters to return (0 is unlimited)'),
  raw: booleanArgument('raw', false, 'Get raw content instead of cleaning/extracting to markdown'),
  start_index: startIndexArgument,
  ...renderShape,
  ...actionsShape,
  ...requestShape,
  ...selectShape,
  section: sectionArgument,
  ...queryShape,
  since: sinceArgument,
  screenshot: booleanArgument(
    'screenshot',
    false,
    'Also a PNG of the page as a browser shows it (the viewport, 1280 px wide): the page is rendered (needs Chromium); the `screenshot` tool has more choices',
  ),
  ...structuredDataShape,
};

export const fetchTool: ToolDefinition<typeof inputShape> = {
  name: 'fetch',
  title: 'Fetch a web page',
  description:
    'Read content from a real internet URL. By default, this tool attempts to clean pages and format in markdown ' +
    'for efficiency, removing non-content like navigation or ads to make your job easier. If asked to find ' +
    'something on a website, you can combine with the `links` tool to explore a website to find the content you need.',
  tags: ['web', 'fetch', 'markdown'],
  inputShape,
  outputShape: { ...PAGE_RESULT_SHAPE, screenshot: SCREENSHOT_RESULT_SHAPE.optional() },
  annotations: { ...READ_ONLY_WEB, title: 'Fetch a web page' },
  async run(args, { engine, signal, explain, keepImage }) {
    const reading = {
      ...renderOptions(args),
      ...actionOptions(args),
      ...requestOptions(args),
      ...selectOptions(args),
      ...sinceOptions(args),
      ...structuredDataOptions(args),
    };
    const shot = args.screenshot ? { screenshot: DEFAULT_SCREENSHOT } : {};
    const read = () =>
      engine.readPage(args.url, { signal, explain, raw: args.raw, withoutRaw: !args.raw, ...reading, ...shot });
    // Only a screenshot asked for is named when there is no browser (actions say their own need).
    const page = await (args.screenshot ? withBrowserNeeded(args.url, read) : read());
    const rendered = await renderPageText('fetch', page, {
      raw: args.raw,
      maxLength: args.max_length,
      startIndex: args.start_index,
      maxOutputTokens: engine.config.maxOutputTokens,
      selector: args.selector,
    });
    const explained = page.explain ? { explain: page.explain } : {};
    const continuation = rendered.continuation && { continuation: rendered.continuation };
    const structured = structuredPage(page, rendered);
    if (!args.screenshot) return { text: rendered.text, structured, ...continuation, ...explained };
    // The page's text as without it, then the image with its line (or the line saying why there is none).
    const shown = presentScreenshot(page, keepImage);
    const image = shown.image && { images: [{ ...shown.image, caption: shown.line }] };
    // Without one, the line goes first: the text may end with its continuation notice.
    const text = shown.image ? rendered.text : `${shown.line}\n\n${rendered.text}`;
    const result = { ...structured, ...(shown.result && { screenshot: shown.result }) };
    return { text, structured: result, ...image, ...continuation, ...explained };
  },
};

/** `since`: compared with an earlier read, of the page as it is now (a cached copy only when max_age says so). */
function sinceOptions(args: { since?: string; max_age?: number }) {
  if (args.since === undefined) return {};
  return { since: args.since, ...(args.max_age === undefined && { maxAgeSeconds: 0 }) };
}

export type FetchToolArguments = z.input<z.ZodObject<typeof inputShape>>;

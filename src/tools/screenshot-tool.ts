// The `screenshot` tool (issue 28 item 1): what a page looks like, for charts, diagrams and layouts that have no
// text. The page is read on the one reading path (engine.readPage: the URL check, robots, the static read) and
// rendered in the guarded browser (src/browser/), whose last step takes the picture; the result is MCP image
// content, a line with its size, and where the HTTP server serves it, a link.
import { z } from 'zod';
import { InvalidArgumentError } from '../errors.js';
import { ACTIONS_RESULT_SHAPE, actionLines, structuredActions } from '../output/actions-text.js';
import { SCREENSHOT_RESULT_SHAPE } from '../output/screenshot-text.js';
import { OUTCOMES } from '../outcome.js';
import { actionOptions, actionsShape } from './action-arguments.js';
import { urlArgument } from './arguments.js';
import { waitForArgument } from './render-arguments.js';
import { presentScreenshot, screenshotRequest, screenshotShape, withBrowserNeeded } from './screenshot-arguments.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';

const inputShape = {
  url: urlArgument('URL of the page to take a screenshot of (http or https)'),
  ...screenshotShape,
  wait_for: waitForArgument,
  ...actionsShape,
};

const outputShape = {
  status: z.enum(OUTCOMES),
  url: z.string(),
  final_url: z.string().describe('Where the page ended, after redirects and script navigation'),
  title: z.string().nullable(),
  screenshot: SCREENSHOT_RESULT_SHAPE,
  actions: ACTIONS_RESULT_SHAPE,
};

export const screenshotTool: ToolDefinition<typeof inputShape> = {
  name: 'screenshot',
  title: 'Take a screenshot of a web page',
  description:
    'See what a web page looks like: renders it in a headless browser and returns a PNG or JPEG of the viewport ' +
    'or the full page, at a chosen width. For charts, diagrams and layouts that text does not carry. Needs ' +
    'Chromium on the server.',
  tags: ['web', 'screenshot', 'image', 'browser'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Take a screenshot of a web page' },
  async run(args, { engine, signal, keepImage }) {
    const screenshot = screenshotRequest(args);
    const page = await withBrowserNeeded(args.url, () =>
      engine.readPage(args.url, {
        signal,
        withoutRaw: true,
        screenshot,
        ...(args.wait_for !== undefined && { waitFor: args.wait_for }),
        ...actionOptions(args),
      }),
    );
    const shown = presentScreenshot(page, keepImage);
    if (!shown.image || !shown.result) throw new InvalidArgumentError('url', shown.line);
    const acted = actionLines(page);
    return {
      text: acted ? `${acted}\n\n${shown.line}` : shown.line,
      structured: {
        status: page.outcome,
        url: page.url,
        final_url: page.finalUrl,
        title: page.title ?? null,
        screenshot: shown.result,
        ...(page.actions && { actions: structuredActions(page) }),
      },
      images: [shown.image],
    };
  },
};

export type ScreenshotToolArguments = z.input<z.ZodObject<typeof inputShape>>;

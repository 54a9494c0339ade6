// The arguments of the tools that read a page's content (fetch, read_url, web, web_scraper, crawl) about rendering
// it in a browser first (issue 13; the rule itself is src/engine/render-step.ts).
import { z } from 'zod';
import { RENDER_POLICIES, type RenderPolicy } from '../outcome.js';
import { boundedString } from './arguments.js';

export const renderArgument = z
  .enum(RENDER_POLICIES, { error: 'render must be one of "auto", "always", "never"' })
  .optional()
  .describe(
    'Run the page in a headless browser before reading it: "auto" (default, RENDER_JS) when its HTML has no ' +
      'readable content but scripts, "always", or "never". Needs Chromium on the server.',
  );

// Checked in Node by the same parser as `selector` (src/extract/select.ts), before anything is fetched: the page
// never judges its own wait_for (a page could patch querySelector), and another engine's query (xpath=, text=)
// never reaches the browser.
export const waitForArgument = boundedString('wait_for', 'a CSS selector', 500)
  .superRefine(async (value, context) => {
    const { selectorProblem } = await import('../extract/select.js');
    const problem = selectorProblem('wait_for', value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .optional()
  .describe(
    'When the page is rendered: wait until this CSS selector matches before reading it (within the time limit)',
  );

/** `render` and `wait_for`, spread into the input schema of each tool that reads a page's content. */
export const renderShape = { render: renderArgument, wait_for: waitForArgument };

/** The render arguments as the engine's options. */
export function renderOptions(args: { render?: RenderPolicy; wait_for?: string }): {
  render?: RenderPolicy;
  waitFor?: string;
} {
  return { ...(args.render && { render: args.render }), ...(args.wait_for && { waitFor: args.wait_for }) };
}

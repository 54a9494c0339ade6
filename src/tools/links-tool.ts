// The `links` tool of seeds/links-tool.md: the same-site links of a page, most frequent first, ties in order of
// first appearance, with the anchor text of the first occurrence; `max_links` applied after counting.
import { z } from 'zod';
import { LINK_PAGE_SHAPE, limitLines, linkLine, linkPageSummary, siteLinks } from '../output/link-list.js';
import { OUTCOMES } from '../outcome.js';
import { linksCappedNotice, linksHeading, noLinksRead, noLinksReason } from '../output/notices.js';
import { booleanArgument, integerAtLeast, urlArgument } from './arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { capLimit, frameTokens } from '../output/truncate.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';

const inputShape = {
  url: urlArgument('URL to scrape for links'),
  max_links: integerAtLeast('max_links', 1).default(100).describe('Maximum number of URLs to return'),
  titles: booleanArgument('titles', true, 'Include the anchor text for each link'),
  ...requestShape,
};

const outputShape = {
  status: z.enum(OUTCOMES),
  ...LINK_PAGE_SHAPE,
  truncated: z.boolean().describe('The list was cut to stay within MAX_OUTPUT_TOKENS'),
  total_links: z.number().int().describe('Same-site links on the page, before max_links'),
  links: z.array(z.object({ url: z.string(), text: z.string(), count: z.number().int() })),
};

export const linksTool: ToolDefinition<typeof inputShape> = {
  name: 'links',
  title: 'List the links of a web page',
  description:
    'Fetch a list of links from a webpage. Useful to discover related pages and understand the structure when ' +
    'exploring a website. By default, includes the text from the link, which may provide helpful context. You could ' +
    "then `fetch` URLs to see the content, as you're not limited in how many tools you can use.",
  tags: ['web', 'links'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: 'List the links of a web page' },
  async run(args, { engine, signal }) {
    const reading = { want: 'links', withoutRaw: true, ...requestOptions(args) } as const;
    const page = await engine.readPage(args.url, { signal, ...reading });
    const common = linkPageSummary(args.url, page);
    const links = siteLinks(page);
    if (links.length === 0) {
      return {
        text: noLinksRead(args.url, noLinksReason(page, true)),
        structured: { status: page.outcome, ...common, truncated: false, total_links: 0, links: [] },
      };
    }
    const chosen = links.slice(0, args.max_links);
    // max_links bounds the list; the token cap (MAX_OUTPUT_TOKENS, heading and notice inside it) still holds for a
    // very large max_links.
    const cap = engine.config.maxOutputTokens;
    const frame = await frameTokens(cap, [
      linksHeading(chosen.length, links.length, args.url),
      linksCappedNotice(chosen.length),
    ]);
    const limited = await limitLines(
      chosen.map((link) => linkLine(link, args.titles)),
      { maxLength: 0, startIndex: 0, maxTokens: capLimit(Infinity, cap, frame) },
    );
    const shown = chosen.slice(0, limited.lines.length);
    const capped = limited.limitedBy === 'max_output_tokens';
    const notice = capped ? `\n\n${linksCappedNotice(shown.length)}` : '';
    return {
      text: `${linksHeading(shown.length, links.length, args.url)}\n\n${limited.lines.join('\n')}${notice}`,
      structured: {
        status: page.outcome,
        ...common,
        truncated: capped,
        total_links: links.length,
        links: shown.map(({ url, text, count }) => ({ url, text, count })),
      },
    };
  },
};

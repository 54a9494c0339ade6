// The `extract_links` tool of seeds/url-reader-architecture.md: every link of a page, resolved to absolute,
// categorised internal (same site) / external, filtered, as a Markdown list grouped by category with anchor text.
import { z } from 'zod';
import { isSameSite, isWebUrl, uniqueLinks, type PageLink } from '../extract/link-set.js';
import { limitLines, markdownLink } from '../output/link-list.js';
import { filteredLinksHeading, LINK_LIST_CAPPED_NOTICE, noFilteredLinks, noLinksReason } from '../output/notices.js';
import { ageSeconds } from '../output/page-text.js';
import { OUTCOMES } from '../outcome.js';
import { capLimit, frameTokens } from '../output/truncate.js';
import { urlArgument } from './arguments.js';
import { requestOptions, requestShape } from './request-arguments.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';

const FILTERS = ['all', 'internal', 'external'] as const;

const inputShape = {
  url: urlArgument('URL of the page whose links to list (http or https)'),
  filter: z
    .enum(FILTERS, { error: 'filter must be one of "all", "internal" or "external"' })
    .default('all')
    .describe('Which links to return: "all", "internal" (same site, sub-domains included) or "external"'),
  ...requestShape,
};

const link = z.object({ url: z.string(), text: z.string() });
const outputShape = {
  status: z.enum(OUTCOMES),
  url: z.string(),
  final_url: z.string(),
  http_status: z.number().int(),
  filter: z.enum(FILTERS),
  from_cache: z.boolean(),
  age_seconds: z.number().int(),
  hidden_blocks_dropped: z.number().int().optional(),
  fetched_at: z.string(),
  truncated: z.boolean().describe('The list was cut to stay within MAX_OUTPUT_TOKENS'),
  internal: z.array(link),
  external: z.array(link),
};

function section(title: string, links: readonly PageLink[]): string[] {
  if (links.length === 0) return [];
  return [`## ${title} (${links.length})`, '', ...links.map((link) => `- ${markdownLink(link.text, link.url)}`), ''];
}

export const extractLinksTool: ToolDefinition<typeof inputShape> = {
  name: 'extract_links',
  title: 'Extract the links of a web page',
  description:
    'List the links of a web page as a Markdown list grouped into internal (same site) and external links, each ' +
    'with its anchor text and absolute URL. Use filter to keep only internal or external links.',
  tags: ['web', 'links'],
  inputShape,
  outputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Extract the links of a web page' },
  async run(args, { engine, signal }) {
    const reading = { want: 'links', withoutRaw: true, ...requestOptions(args) } as const;
    const page = await engine.readPage(args.url, { signal, ...reading });
    // mailto:, tel: and other schemes are not pages an agent can read next.
    const all = uniqueLinks((page.linkList?.links ?? []).filter((link) => isWebUrl(link.url)));
    const internal = all.filter((link) => isSameSite(link.url, page.finalUrl));
    const external = all.filter((link) => !isSameSite(link.url, page.finalUrl));
    const wanted = {
      internal: args.filter === 'external' ? [] : internal,
      external: args.filter === 'internal' ? [] : external,
    };
    const common = {
      url: args.url,
      final_url: page.finalUrl,
      http_status: page.httpStatus,
      filter: args.filter,
      from_cache: page.fromCache,
      age_seconds: ageSeconds(page.fetchedAt),
      hidden_blocks_dropped: page.hiddenBlocksDropped,
      fetched_at: page.fetchedAt.toISOString(),
    };
    const count = wanted.internal.length + wanted.external.length;
    if (count === 0) {
      const which = args.filter === 'all' ? '' : `${args.filter} `;
      // A page whose links all fall outside the filter needs no reason; one with none at all gets its kind's.
      const reason = all.length === 0 ? noLinksReason(page) : undefined;
      return {
        text: noFilteredLinks(which, args.url, reason),
        structured: { status: page.outcome, ...common, truncated: false, internal: [], external: [] },
      };
    }
    const counts = [
      args.filter !== 'external' ? `${internal.length} internal` : '',
      args.filter !== 'internal' ? `${external.length} external` : '',
    ].filter((part) => part !== '');
    const heading = filteredLinksHeading(args.url, args.filter, counts);
    const lines = [...section('Internal links', wanted.internal), ...section('External links', wanted.external)];
    // The heading and the notice count inside MAX_OUTPUT_TOKENS (capLimit).
    const cap = engine.config.maxOutputTokens;
    const frame = await frameTokens(cap, [heading, LINK_LIST_CAPPED_NOTICE]);
    const limited = await limitLines(lines, { maxLength: 0, startIndex: 0, maxTokens: capLimit(Infinity, cap, frame) });
    const capped = limited.limitedBy === 'max_output_tokens';
    const notice = capped ? `\n\n${LINK_LIST_CAPPED_NOTICE}` : '';
    return {
      text: `${heading}\n\n${limited.lines.join('\n').trimEnd()}${notice}`,
      structured: {
        status: page.outcome,
        ...common,
        truncated: capped,
        internal: wanted.internal,
        external: wanted.external,
      },
    };
  },
};

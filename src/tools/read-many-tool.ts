// `read_many` (issue 26 item 2): up to 20 URLs in one call, each read through the one reading path, concurrently
// across hosts and in turn within one (src/runs/read-many.ts), each with its own outcome, in the order given, the
// whole within one token budget shared fairly, before one deadline.
import { z } from 'zod';
import { parseUrlArgument } from '../fetch/url-argument.js';
import { MANY_SENTENCES } from '../output/notices.js';
import { readMany } from '../runs/read-many.js';
import { urlArgument } from './arguments.js';
import {
  manyDeadlineMs,
  manyReadOptions,
  manyReadShape,
  manyResultShape,
  MAX_MANY_URLS,
  structuredMany,
} from './many-arguments.js';
import { queryShape } from './select-arguments.js';
import { READ_ONLY_WEB, type ToolDefinition } from './types.js';
import { OUTCOMES } from '../outcome.js';

/** A URL the engine would refuse as a URL (not absolute, not http or https) is the caller's mistake, named here. */
function isAbsoluteWebUrl(url: string): boolean {
  try {
    parseUrlArgument(url);
    return true;
  } catch {
    return false;
  }
}

const urlsArgument = z
  .array(urlArgument('URL of a page to read (http or https)'), { error: 'urls must be a list of URLs (strings)' })
  .min(1, { error: 'urls must name at least one URL' })
  .superRefine((urls, context) => {
    if (urls.length > MAX_MANY_URLS) {
      context.addIssue({ code: 'custom', message: MANY_SENTENCES.tooManyUrls(MAX_MANY_URLS, urls.length) });
      return;
    }
    const bad = urls.findIndex((url) => !isAbsoluteWebUrl(url));
    if (bad >= 0) context.addIssue({ code: 'custom', message: MANY_SENTENCES.invalidUrl(bad, urls[bad]!) });
  })
  .describe(`The pages to read, at most ${MAX_MANY_URLS}: returned in this order`);

const inputShape = { urls: urlsArgument, ...manyReadShape, ...queryShape };

export const readManyTool: ToolDefinition<typeof inputShape> = {
  name: 'read_many',
  title: 'Read several URLs at once',
  description:
    `Read up to ${MAX_MANY_URLS} URLs in one call and return each page's main content as Markdown, in the order ` +
    'given, with its own status (ok, blocked, needs_js, or an error code and message). Pages on different sites ' +
    'are read at the same time. With query, each page is narrowed to the passages that best answer it. The whole ' +
    'answer stays within max_tokens, shared fairly between the pages; a cut page says how to read the rest with ' +
    'fetch. Pages not read by the timeout are named.',
  tags: ['web', 'read', 'markdown', 'batch'],
  inputShape,
  outputShape: {
    status: z.enum(OUTCOMES).describe('"ok" when at least one page was read, else "error"'),
    requested: z.number().int(),
    ...manyResultShape,
  },
  annotations: { ...READ_ONLY_WEB, title: 'Read several URLs at once' },
  async run(args, { engine, signal, onProgress }) {
    const options = manyReadOptions(args);
    const result = await readMany(engine, {
      entries: args.urls.map((url) => ({ url, options })),
      maxTokens: args.max_tokens,
      deadlineMs: manyDeadlineMs(args),
      signal,
      onPage: (done, total, page) =>
        onProgress?.({
          progress: done,
          total,
          message: MANY_SENTENCES.progress(done, total, page.url, page.status),
        }),
    });
    const anyRead = result.pages.some((page) => page.status === 'ok');
    return {
      text: result.text,
      structured: { status: anyRead ? 'ok' : 'error', requested: args.urls.length, ...structuredMany(result) },
      // Every page failed (refused, unreachable, unfinished): the call failed, as fetch of one such page does.
      ...(result.pages.every((page) => page.error !== undefined) ? { isError: true } : {}),
    };
  },
};

export type ReadManyToolArguments = z.input<z.ZodObject<typeof inputShape>>;

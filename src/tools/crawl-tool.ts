// The `crawl` tool of seeds/url-reader-architecture.md: breadth-first from a URL, within an exact token budget
// (SPEC "Crawl budgets that hold exactly"), polite (robots.txt with Crawl-delay, the shared queue), observable
// (notifications/progress after every page), cancellable, and done in time: it stops at max_seconds with what it
// has read and a continue_from id that resumes it. src/crawl/crawl-site.ts is the crawler and src/runs/crawl-run.ts
// binds it to the engine; the arguments and the structured result are in crawl-schema.ts (the CLI's crawl shares
// them); this file is the tool: its description, its call, its text and its progress.
import type { CrawlProgress } from '../crawl/crawl-site.js';
import { renderCrawl } from '../output/crawl-report.js';
import { crawlContinueLine, crawlProgressSentence, crawlStartedSentence } from '../output/notices.js';
import { crawlIdNote } from '../runs/crawl-resume.js';
import { runCrawl } from '../runs/crawl-run.js';
import { crawlInputShape, crawlOutputShape, crawlRequest, crawlToolResult } from './crawl-schema.js';
import { READ_ONLY_WEB, type ToolDefinition, type ToolOutput, type ToolProgress } from './types.js';

/**
 * The MCP progress of a crawl. `progress` is the URLs finished (it must rise with every notification, MCP
 * "Progress"); `total` adds the URLs the crawl still expects, capped by what max_pages allows. max_pages alone is
 * no total a bar can use: most crawls end sooner (the site or the token budget runs out) and failed URLs count
 * as finished but not as pages. The bar can move back when a page adds many links, and reaches the end when the
 * crawl does (a crawl stopped at its time limit ends short of it: the rest is for its continuation).
 */
export function toolProgress(progress: CrawlProgress, crawlId?: string): ToolProgress {
  return {
    progress: progress.processed,
    total: progress.processed + progress.remaining,
    message: progressMessage(progress) + (crawlId === undefined ? '' : crawlIdNote(crawlId)),
  };
}

export function progressMessage(progress: CrawlProgress): string {
  return crawlProgressSentence(progress);
}

export const crawlTool: ToolDefinition<typeof crawlInputShape> = {
  name: 'crawl',
  title: 'Crawl a site section within a token budget',
  description:
    'Read a website breadth-first from a URL and return each page as Markdown (title, URL, content) within a token ' +
    'budget that is never exceeded, followed by a summary: pages read, tokens used, and the URLs skipped for ' +
    'robots.txt, scope, budget or errors. Stays on the start URL host (or the host it redirects to) unless ' +
    'allowed_domains says otherwise; ' +
    'patterns and exclude_patterns narrow it by path. Returns within max_seconds (default 45) with what it has ' +
    'read; if pages are left, the result gives a continue_from id: call crawl again with just continue_from to read ' +
    'the rest (no page twice, the same budgets).',
  tags: ['web', 'crawl', 'markdown'],
  inputShape: crawlInputShape,
  outputShape: crawlOutputShape,
  annotations: { ...READ_ONLY_WEB, title: 'Crawl a site section within a token budget' },
  async run(args, { engine, signal, stopSignal, onProgress, onContinueFrom, resumeStore }): Promise<ToolOutput> {
    let crawlId: string | undefined;
    const run = await runCrawl(engine, crawlRequest(args), {
      signal,
      stopSignal,
      resumeStore,
      onProgress: onProgress ? (progress) => onProgress(toolProgress(progress, crawlId)) : undefined,
      // Told at once, before the first page: a replica may die before it reads one.
      onRunning: (id) => {
        crawlId = id;
        onProgress?.({ progress: 0, message: crawlStartedSentence(crawlIdNote(id)) });
        onContinueFrom?.(id);
      },
    });
    return {
      text: await renderCrawl(
        run.result,
        run.notes,
        run.continueFrom && crawlContinueLine(run.continueFrom),
        engine.config.maxOutputTokens,
      ),
      structured: crawlToolResult(run),
      // Nothing read yet but a continuation ready (a slow start page at the time limit) is not a failure.
      ...(run.result.pages.length === 0 && !run.continueFrom ? { isError: true } : {}),
    };
  },
};

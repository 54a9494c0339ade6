// `web-reader crawl <url>`: the crawl tool's crawler for people. Pages go to stdout as Markdown, or with --out to
// one .md file per page plus index.md; a progress bar on stderr when stderr is a terminal; Ctrl-C stops the crawl
// cleanly and what was read so far is still printed or saved.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CrawlProgress, CrawlResult } from '../crawl/bfs.js';
import type { Engine } from '../engine.js';
import { renderCrawl, renderCrawlSummary } from '../render/crawl-report.js';
import { crawlTool, crawlToolResult, runCrawl, type CrawlArguments } from '../tools/crawl-tool.js';
import { parseArguments } from '../tools/run-tool.js';

export interface CrawlCommandOptions {
  readonly url: string;
  readonly maxTokens?: number;
  readonly maxPages?: number;
  readonly out?: string;
  readonly json: boolean;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
}

export interface CrawlCommandResult {
  readonly pagesRead: number;
  readonly cancelled: boolean;
}

const BAR_WIDTH = 24;

function progressBar(progress: CrawlProgress): string {
  // The bar fills with whichever limit is nearer: pages or tokens.
  const share = Math.min(1, Math.max(progress.pagesRead / progress.maxPages, progress.tokensUsed / progress.maxTokens));
  const filled = Math.round(share * BAR_WIDTH);
  return (
    `\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${progress.pagesRead}/${progress.maxPages} pages` +
    ` · ${progress.tokensUsed}/${progress.maxTokens} tokens · ${progress.frontierSize} queued`
  );
}

/** A file name for the n-th page: its number, then its path as a slug ("003-docs-getting-started.md"). */
export function pageFileName(index: number, url: string): string {
  const { hostname, pathname } = new URL(url);
  const slug =
    decodeURIComponent(pathname)
      .replace(/\.[a-z0-9]+$/i, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || hostname.replace(/[^\p{L}\p{N}]+/gu, '-');
  return `${String(index).padStart(3, '0')}-${slug}.md`;
}

async function writePages(dir: string, result: CrawlResult, notes: readonly string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const lines: string[] = [];
  for (const [position, page] of result.pages.entries()) {
    const name = pageFileName(position + 1, page.finalUrl);
    await writeFile(join(dir, name), page.section.replace(/^## \[\d+\] /, '# '));
    lines.push(`${position + 1}. [${page.title.replace(/[[\]\\]/g, '\\$&')}](${name}) — ${page.finalUrl}`);
  }
  const index = `# Crawl of ${result.startUrl}\n\n${lines.join('\n')}\n\n${renderCrawlSummary(result, notes)}\n`;
  await writeFile(join(dir, 'index.md'), index);
}

export async function runCrawlCommand(engine: Engine, options: CrawlCommandOptions): Promise<CrawlCommandResult> {
  const args = parseArguments(crawlTool, {
    url: options.url,
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    ...(options.maxPages !== undefined ? { max_pages: options.maxPages } : {}),
  }) as CrawlArguments;
  const showBar = options.stderr.isTTY === true;
  const run = await runCrawl(engine, args, {
    signal: options.signal,
    onProgress: showBar ? (progress) => options.stderr.write(progressBar(progress)) : undefined,
  });
  if (showBar) options.stderr.write('\n');
  const { result, notes } = run;
  if (options.out !== undefined) {
    await writePages(options.out, result, notes);
    const summary = renderCrawlSummary(result, notes);
    options.stdout.write(`${summary}\n\nWrote ${result.pages.length} pages and index.md to ${options.out}\n`);
  } else if (options.json) {
    options.stdout.write(`${JSON.stringify(crawlToolResult(run), null, 2)}\n`);
  } else {
    options.stdout.write(`${renderCrawl(result, notes)}\n`);
  }
  return { pagesRead: result.pages.length, cancelled: result.stopReason === 'cancelled' };
}

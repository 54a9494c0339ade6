// `web-reader crawl <url>`: the crawl run (src/runs/crawl-run.ts) for people. Pages go to stdout as Markdown, or with --out to
// one .md file per page plus index.md; a progress bar on stderr when stderr is a terminal; Ctrl-C stops the crawl
// cleanly and what was read so far is still printed or saved. A crawl stopped at --max-seconds prints the command
// that continues it (`--continue ID`); its state waits in a file, since each CLI run is its own process.
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrawlResult } from '../crawl/commit.js';
import { createFileResumeStore } from '../crawl/resume-store.js';
import type { Engine } from '../engine/engine.js';
import { renderCrawl, renderCrawlSummary } from '../output/crawl-report.js';
import { CLI_SENTENCES } from '../output/cli-notices.js';
import { cliCrawlContinueLine } from '../output/notices.js';
import { runCrawl, type CrawlRun } from '../runs/crawl-run.js';
import { crawlRequest, crawlToolResult, type CrawlArguments } from '../tools/crawl-schema.js';
import { findTool } from '../tools/registry.js';
import { parseArguments } from '../tools/run-tool.js';
import { startProgressDisplay } from './crawl-progress.js';

export interface CrawlCommandOptions {
  /** Where to start; absent with `continueFrom`. */
  readonly url?: string;
  /** --continue: the id a crawl stopped in time printed. */
  readonly continueFrom?: string;
  readonly maxTokens?: number;
  readonly maxPages?: number;
  readonly maxSeconds?: number;
  /** --max-depth, --allowed-domains, --include and --exclude: the crawl tool's scope arguments. */
  readonly maxDepth?: number;
  readonly allowedDomains?: readonly string[];
  readonly patterns?: readonly string[];
  readonly excludePatterns?: readonly string[];
  /** --render and --wait-for: the render arguments of the crawl tool. */
  readonly render?: string;
  readonly waitFor?: string;
  /** --header and --max-age: the crawl tool's `headers` and `max_age`. */
  readonly request?: { readonly headers?: Record<string, string>; readonly max_age?: number };
  /** --selector and --exclude-selector: the crawl tool's selector and exclude_selectors. */
  readonly selector?: string;
  readonly excludeSelectors?: readonly string[];
  /** --query: the crawl tool's query (each page's passages that best answer it). */
  readonly query?: string;
  /** Where stopped crawls are kept between runs (default: a per-user directory under the system temp dir). */
  readonly resumeDir?: string;
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
  readonly continueFrom?: string;
}

/** Stopped crawls between CLI runs: one JSON file each, private to the user (see resume-store.ts). */
export function defaultResumeDir(): string {
  return join(tmpdir(), `web-reader-crawls-${process.getuid?.() ?? 'user'}`);
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

/** Writes the pages and an index; returns the index's file name. */
async function writePages(dir: string, result: CrawlResult, notes: readonly string[], hint?: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const lines: string[] = [];
  for (const [position, page] of result.pages.entries()) {
    const name = pageFileName(result.earlier.pages + position + 1, page.finalUrl);
    await writeFile(join(dir, name), page.section.replace(/^## \[\d+\] /, '# '));
    lines.push(`${position + 1}. [${page.title.replace(/[[\]\\]/g, '\\$&')}](${name}) — ${page.finalUrl}`);
  }
  // A continuation adds to the same directory: its pages are numbered after the earlier ones, and its index is
  // its own (index-from-13.md when it starts at page 13) so the first call's stays.
  const first = result.earlier.pages === 0 && result.earlier.tokens === 0;
  const indexName = first ? 'index.md' : `index-from-${result.earlier.pages + 1}.md`;
  const index = `# Crawl of ${result.startUrl}\n\n${lines.join('\n')}\n\n${renderCrawlSummary(result, notes, hint)}\n`;
  await writeFile(join(dir, indexName), index);
  return indexName;
}

export async function runCrawlCommand(engine: Engine, options: CrawlCommandOptions): Promise<CrawlCommandResult> {
  // Checked and completed by the crawl's own argument schema, as every command's flags are by their tool's.
  const args = (await parseArguments(findTool('crawl')!, {
    ...(options.url !== undefined ? { url: options.url } : {}),
    ...(options.continueFrom !== undefined ? { continue_from: options.continueFrom } : {}),
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    ...(options.maxPages !== undefined ? { max_pages: options.maxPages } : {}),
    ...(options.maxSeconds !== undefined ? { max_seconds: options.maxSeconds } : {}),
    ...(options.maxDepth !== undefined ? { max_depth: options.maxDepth } : {}),
    ...(options.allowedDomains !== undefined ? { allowed_domains: options.allowedDomains } : {}),
    ...(options.patterns !== undefined ? { patterns: options.patterns } : {}),
    ...(options.excludePatterns !== undefined ? { exclude_patterns: options.excludePatterns } : {}),
    ...(options.render !== undefined ? { render: options.render } : {}),
    ...(options.waitFor !== undefined ? { wait_for: options.waitFor } : {}),
    ...options.request,
    ...(options.selector !== undefined ? { selector: options.selector } : {}),
    ...(options.excludeSelectors !== undefined ? { exclude_selectors: options.excludeSelectors } : {}),
    ...(options.query !== undefined ? { query: options.query } : {}),
  })) as CrawlArguments;
  // A progress line only on a terminal (crawl-progress.ts); its timer ends however the crawl does.
  const display = options.stderr.isTTY === true ? startProgressDisplay(options.stderr) : undefined;
  let run: CrawlRun;
  try {
    run = await runCrawl(engine, crawlRequest(args), {
      signal: options.signal,
      resumeStore: createFileResumeStore(options.resumeDir ?? defaultResumeDir(), {
        ttlSeconds: engine.config.crawlResumeTtlSeconds,
      }),
      ...(display && { onProgress: display.update, onVisit: display.visiting }),
    });
  } finally {
    display?.stop();
  }
  const { result, notes, continueFrom } = run;
  const hint = continueFrom && cliCrawlContinueLine(continueFrom);
  if (options.out !== undefined) {
    const indexName = await writePages(options.out, result, notes, hint);
    const wrote = CLI_SENTENCES.wrotePages(result.pages.length, indexName, options.out);
    // With --json, stdout is the JSON alone (a script parses it); the files written are said on stderr.
    if (options.json) {
      options.stdout.write(`${JSON.stringify(crawlToolResult(run), null, 2)}\n`);
      options.stderr.write(`${wrote}\n`);
    } else options.stdout.write(`${renderCrawlSummary(result, notes, hint)}\n\n${wrote}\n`);
  } else if (options.json) {
    options.stdout.write(`${JSON.stringify(crawlToolResult(run), null, 2)}\n`);
  } else {
    options.stdout.write(`${await renderCrawl(result, notes, hint, engine.config.maxOutputTokens)}\n`);
  }
  return {
    pagesRead: result.pages.length,
    cancelled: result.stopReason === 'cancelled',
    ...(continueFrom ? { continueFrom } : {}),
  };
}

// The parts of a single-page result every text tool shares: the outcome status line and the structured summary.
import type { Outcome, PageContent } from '../engine.js';
import { formatBytes } from '../content/render-non-html.js';

const STATUS_HELP: Partial<Record<Outcome, string>> = {
  empty: 'returned no readable content',
  needs_js:
    'is a JavaScript application shell with no readable content in its HTML; a browser-rendering tool is needed to read it',
};

/** One short line where a text tool would otherwise return empty or misleading text. */
export function statusLine(page: PageContent): string {
  const help = page.statusDetail ?? STATUS_HELP[page.outcome] ?? 'returned nothing to read';
  const type = page.mediaType || 'no content type';
  return `Status: ${page.outcome} — ${page.url} ${help} (HTTP ${page.httpStatus}, ${type}, ${formatBytes(page.byteLength)}).`;
}

/** The final status: the page's own outcome unless it is plain ok, then truncated, then from_cache. */
export function finalOutcome(page: PageContent, truncated: boolean): Outcome {
  if (page.outcome !== 'ok') return page.outcome;
  if (truncated) return 'truncated';
  if (page.fromCache) return 'from_cache';
  return 'ok';
}

export interface RenderedPage {
  readonly text: string;
  readonly truncated: boolean;
  readonly nextIndex: number | undefined;
  readonly totalLength: number;
}

export function structuredPage(
  page: PageContent,
  rendered: RenderedPage,
): { status: Outcome } & Record<string, unknown> {
  return {
    status: finalOutcome(page, rendered.truncated),
    url: page.url,
    final_url: page.finalUrl,
    http_status: page.httpStatus,
    content_type: page.mediaType,
    content_kind: page.kind,
    title: page.title ?? null,
    truncated: rendered.truncated,
    next_start_index: rendered.nextIndex ?? null,
    total_length: rendered.totalLength,
    from_cache: page.fromCache,
    extraction_failed: page.extractionFailed,
    hidden_blocks_dropped: page.hiddenBlocksDropped,
    fetched_at: page.fetchedAt.toISOString(),
    ...(page.pageCount !== undefined && { page_count: page.pageCount }),
    ...(page.markdownTwinUrl !== undefined && { markdown_twin: page.markdownTwinUrl }),
  };
}

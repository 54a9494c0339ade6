// The parts of a single-page result every text tool shares: the outcome status line and the structured summary.
import type { PageContent } from '../engine.js';
import type { Outcome } from '../outcome.js';
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
    status: page.outcome,
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

// The arguments that choose parts of a page (issue 14 items 3 and 4): `selector` and `exclude_selectors` on the tools
// that read a page's content (fetch, read_url, web, web_scraper, crawl), `section` on fetch and read_url; and
// `query` (issue 26 item 3) on fetch, read_url and crawl. The
// schemas compile each selector with the same engine that runs it (src/extract/select.ts), so a bad one is refused
// before anything is fetched. The check is async: css-select loads with the first selector given, not with the
// server (start-up, npm run bench:start); every front door parses arguments with parseAsync (run-tool.ts, the SDK).
import { z } from 'zod';
import { MAX_EXCLUDE_SELECTORS, MAX_SELECTOR_LENGTH } from '../extract/select-limits.js';
import { boundedString } from './arguments.js';

export const selectorArgument = z
  .string({ error: 'selector must be a CSS selector (a string)' })
  .superRefine(async (value, context) => {
    const { selectorProblem } = await import('../extract/select.js');
    const problem = selectorProblem('selector', value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .optional()
  .describe(
    'CSS selector: read only the elements it matches, in page order, instead of detecting the main content ' +
      `(e.g. "article", "#sidebar .toc"; at most ${MAX_SELECTOR_LENGTH} characters). The title is still the page's.`,
  );

export const excludeSelectorsArgument = z
  .array(z.string({ error: 'exclude_selectors must be a list of CSS selectors (strings)' }), {
    error: 'exclude_selectors must be a list of CSS selectors (strings)',
  })
  .max(MAX_EXCLUDE_SELECTORS, { error: `exclude_selectors takes at most ${MAX_EXCLUDE_SELECTORS} selectors` })
  .superRefine(async (values, context) => {
    const { selectorProblem } = await import('../extract/select.js');
    for (const value of values) {
      const problem = selectorProblem('exclude_selectors', value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }
  })
  .optional()
  .describe(
    `CSS selectors of elements to remove before reading (e.g. [".comments", "aside"]; at most ${MAX_EXCLUDE_SELECTORS})`,
  );

/** `selector` and `exclude_selectors`, spread into the input schema of each tool that reads a page's content. */
export const selectShape = { selector: selectorArgument, exclude_selectors: excludeSelectorsArgument };

export const sectionArgument = boundedString('section', "a heading's text or #n", 500)
  .optional()
  .describe(
    "Only one section: a heading's text (case-insensitive) or #n, the n-th heading of web_scraper's outline " +
      '(from 1). Returns that heading and what follows it up to the next heading of the same or a higher level; ' +
      'not found, the error lists the headings. max_length and start_index apply to the section.',
  );

/** The longest `query`: a question, not a document. */
export const MAX_QUERY_LENGTH = 1000;

// `query` (issue 26 item 3), on every tool that reads pages for a model (fetch, read_url, crawl per page, and the
// tools that read many). A query of only spaces is as empty as '' (nothing to rank by).
export const queryArgument = z
  .string({ error: 'query must be a string: the question the page should answer' })
  .max(MAX_QUERY_LENGTH, { error: `query is too long (at most ${MAX_QUERY_LENGTH} characters)` })
  .refine((value) => value.trim() !== '', {
    error: 'query must not be empty: give the question the page should answer, or leave query out for the whole page',
  })
  .optional()
  .describe(
    'Only the passages of the page that best answer this question or these keywords, best first (BM25 ranking), ' +
      "each under its heading path (e.g. '## Install › Linux'), then one line saying how many were left out. Long " +
      'sections and pages without headings are cut into passages of about 150 words. With section, ranks within it.',
  );

/** `query`, spread into the input schema of each tool that reads pages for a model. */
export const queryShape = { query: queryArgument };

/** The selector arguments, `section` and `query` as the engine's read options. */
export function selectOptions(args: {
  selector?: string;
  exclude_selectors?: string[];
  section?: string;
  query?: string;
}): {
  selector?: string;
  excludeSelectors?: string[];
  section?: string;
  query?: string;
} {
  return {
    ...(args.selector !== undefined && { selector: args.selector }),
    ...(args.exclude_selectors?.length && { excludeSelectors: args.exclude_selectors }),
    ...(args.section !== undefined && { section: args.section }),
    ...(args.query !== undefined && { query: args.query }),
  };
}

// `since` (issue 28 item 4) on fetch: what changed since an earlier read. Its value is checked by the engine
// (src/engine/page-changes.ts), which says the same to every front door.
export const sinceArgument = z
  .string({ error: 'since must be a string: "last", or a snapshot_id an earlier fetch result named' })
  .max(100, { error: 'since must be "last" or a snapshot_id (snap_…)' })
  .optional()
  .describe(
    'Return only what changed since an earlier read of this page: "last" (the last read of this URL with the same ' +
      'selector and section) or a snapshot_id from an earlier result. Gives a unified diff of the Markdown, or one ' +
      'line when nothing changed; the first read returns the page and its snapshot_id. Reads the page now unless ' +
      'max_age is given.',
  );

// A PDF: its text layer, read page by page in the worker pool (src/formats/pdf.ts); an encrypted or image-only
// document says why in `statusDetail`.
import type { FetchedPage } from '../fetch/types.js';
import type { Extractor } from '../workers/extractor.js';
import type { KindFields } from './page-content.js';

export async function readPdfPage(page: FetchedPage, extractor: Extractor): Promise<KindFields> {
  const pdf = await extractor.readPdf(page.body);
  return {
    title: pdf.title,
    content: pdf.content,
    outcome: pdf.outcome,
    pageCount: pdf.pageCount,
    statusDetail: pdf.statusDetail,
  };
}

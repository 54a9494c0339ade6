// An Office or e-book document (issue 27): read in the worker pool into Markdown (src/formats/document.ts), its
// metadata, format and reader in `document`; a bomb past the caps is `too_large`, a file that cannot be read says why
// in `statusDetail`. Its links are given as an HTML page's are: to the link tools and read_url (`linkList`), the
// crawler (`links`) and web_scraper (`scraped`, its references).
import type { FetchedPage } from '../fetch/types.js';
import type { Extractor } from '../workers/extractor.js';
import type { DocumentFacts, KindFields, ReadOptions } from './page-content.js';

export async function readDocumentPage(
  page: FetchedPage,
  extractor: Extractor,
  options: ReadOptions = {},
): Promise<KindFields> {
  const scrape = options.want === 'scrape';
  const body = await extractor.readDocument({ bytes: page.body, baseUrl: page.finalUrl, scrape });
  const cutSheets = body.cuts.map((cut) => ({
    sheet: cut.sheet,
    shownRows: cut.shownRows,
    ...(cut.totalRows !== undefined && { totalRows: cut.totalRows }),
  }));
  const document: DocumentFacts = {
    ...(body.format !== undefined && { format: body.format }),
    ...(body.mediaType !== undefined && { mediaType: body.mediaType }),
    ...body.metadata,
    ...body.parts,
    ...(cutSheets.length > 0 && { cutSheets }),
  };
  return {
    title: body.title,
    content: body.content,
    outcome: body.outcome,
    statusDetail: body.statusDetail,
    document,
    ...(body.reader !== undefined && { reader: body.reader }),
    ...((options.want === 'links' || options.withLinkList) && { linkList: body.linkList }),
    ...(options.withLinks && { links: body.links }),
    ...(body.scraped && { scraped: body.scraped }),
  };
}

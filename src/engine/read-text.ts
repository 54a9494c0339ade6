// Text-like bodies (JSON, XML, feeds, Markdown, plain text): decoded and rendered by their kind in the worker pool
// (src/workers/read-body.ts) — on a body of megabytes that is hundreds of milliseconds the event loop would
// otherwise be held. What comes back is already clean.
import type { FetchedPage } from '../fetch/types.js';
import type { ContentKind } from '../formats/sniff.js';
import type { Extractor } from '../workers/extractor.js';
import type { KindFields, ReadOptions } from './page-content.js';

export async function readTextPage(
  page: FetchedPage,
  kind: ContentKind,
  extractor: Extractor,
  options: ReadOptions = {},
): Promise<KindFields> {
  const body = await extractor.readText({
    bytes: page.body,
    contentType: page.headers['content-type'],
    kind,
    mediaType: page.mediaType,
    finalUrl: page.finalUrl,
    linkList: options.want === 'links' || options.withLinkList,
  });
  const outcome = body.empty ? 'empty' : 'ok';
  const links = body.linkList ? { linkList: body.linkList } : {};
  return { title: body.title, raw: body.raw, content: body.content ?? body.raw, outcome, ...links };
}

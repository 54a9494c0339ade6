// EPUB (2 and 3) as Markdown: the package document (the OPF that META-INF/container.xml names) gives the metadata and
// the spine, the reading order; each XHTML chapter in that order is rendered by the page serializer, as a web page's
// body is. Links between chapters are the book's own and lead nowhere on the web: their words stay, the targets go
// (they are resolved against a base no link may use); absolute http(s) links are kept.
// Not handled: the navigation document as such (it is read where the spine lists it), images, MathML, SVG text,
// fixed-layout books' positioning, DRM-encrypted chapters (read as the bytes they are, which is no text).
import { renderMarkdown } from '../extract/markdown.js';
import { findElement, parseHtml } from '../extract/parse.js';
import {
  attribute,
  childNamed,
  childrenNamed,
  descendantNamed,
  metadataOf,
  parseXml,
  textOf,
  type DocumentMetadata,
} from './document-xml.js';
import { resolvePart } from './ooxml.js';
import type { ZipArchive } from './zip.js';

// A base whose scheme no link may have (src/link-target.ts): a chapter's relative links keep their words only.
const BOOK_BASE = 'epub-chapter:/';

export interface EpubDocument {
  readonly markdown: string;
  readonly metadata: DocumentMetadata;
  readonly chapters: number;
}

function packagePath(zip: ZipArchive): string | undefined {
  const container = parseXml(zip.text('META-INF/container.xml') ?? '');
  const rootfile = container && descendantNamed(container, 'rootfile');
  return (rootfile && attribute(rootfile, 'full-path')) ?? zip.names.find((name) => name.endsWith('.opf'));
}

const XHTML = /^application\/xhtml\+xml$|^text\/html$/i;

export function readEpub(zip: ZipArchive): EpubDocument {
  const opfPath = packagePath(zip);
  const opf = parseXml((opfPath && zip.text(opfPath)) ?? '');
  if (!opfPath || !opf) return { markdown: '', metadata: {}, chapters: 0 };
  const metadata = childNamed(opf, 'metadata');
  const field = (name: string) => {
    const element = metadata && childrenNamed(metadata, name)[0];
    return element && textOf(element);
  };
  const modified =
    metadata && childrenNamed(metadata, 'meta').find((meta) => attribute(meta, 'property') === 'dcterms:modified');
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of childrenNamed(childNamed(opf, 'manifest') ?? opf, 'item')) {
    manifest.set(attribute(item, 'id') ?? '', {
      href: attribute(item, 'href') ?? '',
      type: attribute(item, 'media-type') ?? '',
    });
  }
  const spine = childrenNamed(childNamed(opf, 'spine') ?? opf, 'itemref')
    .map((ref) => manifest.get(attribute(ref, 'idref') ?? ''))
    .filter((item): item is { href: string; type: string } => item !== undefined && XHTML.test(item.type));
  const chapters = spine.flatMap((item) => {
    const part = resolvePart(opfPath, safeDecode(item.href.replace(/#.*$/, '')));
    const xhtml = zip.text(part);
    if (xhtml === undefined) return [];
    const doc = parseHtml(xhtml);
    const body = findElement(doc, (element) => element.name === 'body');
    const markdown = renderMarkdown(body ?? doc, { baseUrl: BOOK_BASE }).trim();
    return markdown === '' ? [] : [markdown];
  });
  return {
    markdown: chapters.join('\n\n'),
    metadata: metadataOf({
      title: field('title'),
      author: field('creator'),
      created: field('date'),
      modified: modified && textOf(modified),
    }),
    chapters: spine.length,
  };
}

function safeDecode(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

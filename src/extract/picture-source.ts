// Which address a picture shows: lazy-loading pages keep the real image in `data-src` (or `data-lazy-src`,
// `data-original`) and a placeholder, often a data: URI, in `src`; failing all of them, the first of its srcset.
// One home for the Markdown (markdown.ts `image`) and for the blocks that render nothing (nothing-new.ts).

/** The picture's source as written (trimmed), data: URIs included; undefined when it names none. */
export function pictureSource(attribs: Readonly<Record<string, string | undefined>>): string | undefined {
  const source =
    attribs['data-src'] ??
    attribs['data-lazy-src'] ??
    attribs['data-original'] ??
    attribs.src ??
    firstSrcsetUrl(attribs.srcset ?? attribs['data-srcset']);
  return source?.trim();
}

function firstSrcsetUrl(srcset: string | undefined): string | undefined {
  const first = srcset?.trim().split(/\s*,\s+/)[0];
  return first?.split(/\s+/)[0] || undefined;
}

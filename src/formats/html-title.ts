// The <title> of an HTML page read without parsing it (a page whose Markdown twin is used is never parsed).

export function htmlTitle(html: string): string | undefined {
  const title = /<title\b[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.replace(/\s+/g, ' ').trim();
  return title ? title.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>') : undefined;
}

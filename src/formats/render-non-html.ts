// Bodies that are not HTML become what a model reads best (SPEC "Content"): JSON pretty-printed, Markdown and
// text as they are, XML fenced, and binary types a one-line description — never bytes.
import type { ContentKind } from './sniff.js';

export interface NonHtmlBody {
  readonly kind: ContentKind;
  readonly mediaType: string;
  /** The decoded text ('' for binary kinds). */
  readonly text: string;
  readonly byteLength: number;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function renderNonHtml(body: NonHtmlBody): string {
  switch (body.kind) {
    case 'json':
      return prettyJson(body.text);
    case 'xml':
    case 'feed':
      return '```xml\n' + body.text.trim() + '\n```';
    case 'pdf':
      return `PDF document (${body.mediaType || 'application/pdf'}, ${formatBytes(body.byteLength)}): its text cannot be read by this version.`;
    case 'binary':
      return `Binary content (${body.mediaType || 'application/octet-stream'}, ${formatBytes(body.byteLength)}) was not returned: it is not text.`;
    default:
      return body.text;
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // labelled JSON but not valid JSON: show it as the server sent it
  }
}

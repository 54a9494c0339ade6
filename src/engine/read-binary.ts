// Binary content (images, archives, media): never bytes, one line saying what it is (SPEC "Content").
import { cleanText } from '../clean-text.js';
import type { FetchedPage } from '../fetch/types.js';
import { renderNonHtml } from '../formats/render-non-html.js';
import { describeBinaryType } from '../formats/sniff.js';
import type { KindFields } from './page-content.js';

export function readBinaryPage(page: FetchedPage): KindFields {
  const mediaType = describeBinaryType(page.mediaType, page.body);
  const content = renderNonHtml({ kind: 'binary', mediaType, text: '', byteLength: page.body.byteLength });
  return { title: undefined, content: cleanText(content), outcome: 'not_html' };
}

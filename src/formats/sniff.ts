// What kind of content a response really is. Magic bytes are trusted over the Content-Type header, and the
// header over the URL's extension: servers label PDFs as text/html and HTML as text/plain, and an extension
// says nothing at all about what a dynamic URL returns (SPEC "Content"; WHATWG MIME Sniffing §7).
import { isDocument } from './document-sniff.js';

export type ContentKind =
  | 'html'
  | 'markdown'
  | 'text'
  | 'json'
  | 'xml'
  | 'feed'
  | 'pdf'
  | 'binary'
  // Office and e-book files (issue 27): .docx .xlsx .pptx .odt .ods .odp .epub .rtf, by their bytes (document-sniff.ts).
  | 'document'
  // Pictures OCR reads (issue 27): png, jpeg, gif, tiff, webp, by their bytes (sniffImageType).
  | 'image';

const SIGNATURES: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]], // RIFF container: WebP, WAV, AVI
  ['image/tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['image/tiff', [0x4d, 0x4d, 0x00, 0x2a]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/gzip', [0x1f, 0x8b]],
  ['application/x-7z-compressed', [0x37, 0x7a, 0xbc, 0xaf]],
  ['font/woff', [0x77, 0x4f, 0x46, 0x46]],
  ['font/woff2', [0x77, 0x4f, 0x46, 0x32]],
  ['audio/mpeg', [0x49, 0x44, 0x33]],
  ['video/mp4', [0x00, 0x00, 0x00]], // ISO-BMFF begins with a 32-bit box size; NUL bytes catch it anyway
  ['application/wasm', [0x00, 0x61, 0x73, 0x6d]],
];

function startsWith(body: Uint8Array, signature: readonly number[]): boolean {
  return body.length >= signature.length && signature.every((byte, index) => body[index] === byte);
}

/**
 * Whether a body labelled `mediaType` may be judged binary by a NUL byte alone. MIME Sniffing §7.1 never sniffs
 * a supplied HTML or XML type (the computed type is the supplied one) and applies "text or binary" (§7.2) only
 * to unlabelled bodies and the text/plain Apache bug; a page declared text/html that carries a stray NUL is
 * still a page. We keep the rule for other labels (JSON, Markdown, unknown types) as a guard against garbage
 * text, and keep magic-byte signatures for every label (SPEC "Content": PDFs and images served as text/html).
 */
function binaryByteRuleApplies(mediaType: string | undefined): boolean {
  if (mediaType === undefined) return true;
  const type = mediaType.toLowerCase();
  return !(
    type === 'text/html' ||
    type === 'application/xhtml+xml' ||
    type === 'text/xml' ||
    type.endsWith('/xml') ||
    type.endsWith('+xml')
  );
}

/**
 * The binary media type the first bytes announce, or undefined for text-like bytes. With `mediaType`, the
 * NUL-byte rule follows binaryByteRuleApplies; without it the bytes alone decide.
 */
export function sniffBinaryType(body: Uint8Array, mediaType?: string): string | undefined {
  for (const [type, signature] of SIGNATURES) if (startsWith(body, signature)) return type;
  if (!binaryByteRuleApplies(mediaType)) return undefined;
  // A NUL byte in the first kilobyte never occurs in text (MIME Sniffing §7.2 "binary data byte").
  const head = body.subarray(0, 1024);
  if (head.includes(0) && !looksLikeUtf16(head)) return 'application/octet-stream';
  return undefined;
}

/** The type to name for binary content: what the bytes say, and what the server claimed when it differs. */
export function describeBinaryType(mediaType: string, body: Uint8Array): string {
  const sniffed = sniffBinaryType(body);
  const claimed = mediaType.toLowerCase();
  if (!sniffed || sniffed === 'application/octet-stream') return claimed || sniffed || 'application/octet-stream';
  return claimed === '' || claimed === sniffed ? sniffed : `${sniffed}, served as ${claimed}`;
}

function looksLikeUtf16(head: Uint8Array): boolean {
  return (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}

function headText(body: Uint8Array): string {
  return new TextDecoder('latin1').decode(body.subarray(0, 2048)).replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '');
}

const HTML_START = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|title|div|p|h1|script)\b/i;
const FEED_ROOT = /<(?:rss|feed|rdf:RDF)\b/i;
// A feed's root element first (after an XML declaration, comments, a stylesheet instruction): a feed served as
// text/plain or text/html is still a feed.
const FEED_START =
  /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<\?xml-stylesheet[^>]*\?>)\s*)*<(?:rss|feed|rdf:RDF)\b/i;
// XHTML served as XML (application/xml, text/xml): an <html> root in the XHTML namespace, or the HTML doctype.
const XHTML_ROOT = /<!doctype\s+html\b|<html\b[^>]*\bxmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml/i;
const PDF_MAGIC = '%PDF-';

// Pictures OCR reads (issue 27): by their bytes only, whatever the server calls them (MIME Sniffing §6.1).
const IMAGE_SIGNATURES: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]], // "GIF8": GIF87a and GIF89a
  ['image/tiff', [0x49, 0x49, 0x2a, 0x00]], // "II*\0", little-endian TIFF
  ['image/tiff', [0x4d, 0x4d, 0x00, 0x2a]], // "MM\0*", big-endian TIFF
];

/** The image type OCR can read that the bytes announce (png, jpeg, gif, tiff, webp), or undefined. */
export function sniffImageType(body: Uint8Array): string | undefined {
  for (const [type, signature] of IMAGE_SIGNATURES) if (startsWith(body, signature)) return type;
  // WebP is a RIFF container whose form type is "WEBP" (RFC 9649 §2.4); WAV and AVI are RIFF too.
  const isRiff = startsWith(body, [0x52, 0x49, 0x46, 0x46]);
  if (isRiff && body.length >= 12 && String.fromCharCode(...body.subarray(8, 12)) === 'WEBP') return 'image/webp';
  return undefined;
}

export function sniffContent(mediaType: string, body: Uint8Array, url: string): ContentKind {
  if (startsWith(body, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf'; // "%PDF-"
  if (sniffImageType(body)) return 'image';
  if (isDocument(body)) return 'document'; // a ZIP's manifest or RTF's `{\rtf`, whatever the label
  if (sniffBinaryType(body, mediaType)) return 'binary';
  const head = headText(body);
  const type = mediaType.toLowerCase();
  // PDF readers accept the header anywhere in the first 1024 bytes (ISO 32000-1 implementation note 13).
  if (type === 'application/pdf' && head.slice(0, 1024).includes(PDF_MAGIC)) return 'pdf';
  if (FEED_START.test(head) && /^(text\/(html|plain|xml)|application\/xml|)$/.test(type)) return 'feed';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (/^(image|audio|video|font)\//.test(type) || type === 'application/octet-stream' || type === 'application/zip') {
    return 'binary';
  }
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/rss+xml' || type === 'application/atom+xml') return 'feed';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) {
    if (XHTML_ROOT.test(head)) return 'html';
    return FEED_ROOT.test(head) ? 'feed' : 'xml';
  }
  if (type === 'application/pdf') {
    // Labelled PDF without the magic: an HTML error page sent with the file's type, or not a PDF we can read.
    return HTML_START.test(head) ? 'html' : 'binary';
  }
  // text/plain, an absent type, or anything else text-like: look at the bytes.
  if (HTML_START.test(head)) return 'html';
  if (/^\s*<\?xml\b/i.test(head)) {
    if (XHTML_ROOT.test(head)) return 'html';
    return FEED_ROOT.test(head) ? 'feed' : 'xml';
  }
  if (type === '' && /^\s*[[{]/.test(head)) return 'json';
  const path = safePath(url);
  if (/\.(md|markdown)$/i.test(path) || /\/llms(-full)?\.txt$/i.test(path)) return 'markdown';
  return 'text';
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return ''; // an unparseable URL has no extension to go by
  }
}

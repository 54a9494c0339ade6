// Bytes → text. SPEC "Character sets": a byte order mark, then the Content-Type header's charset, then
// <meta charset> / <meta http-equiv="Content-Type"> in the first 1024 bytes (the HTML prescan, WHATWG HTML
// §13.2.3.2), in that order of trust. A BOM wins over the header because the Encoding Standard's "decode"
// (§6) sniffs it before any label is consulted, and HTML's encoding sniffing algorithm (§13.2.3.2 step 1) does
// the same: a server's default charset is often wrong, three BOM bytes almost never are. XML documents may
// name their encoding in the XML declaration instead.
// Labels are the Encoding Standard's, resolved by TextDecoder; an unknown label falls through to the next source.
// With no usable declaration: UTF-8 if the bytes are valid UTF-8, else windows-1252 — the Encoding Standard's
// default for legacy content, and invalid UTF-8 is the signature of a legacy single-byte page.
//
// Not handled: ISO-2022-JP and other stateful encodings Node lacks; x-user-defined.

export interface DecodedBody {
  readonly text: string;
  /** The Encoding Standard name used, e.g. 'utf-8', 'windows-1252', 'shift_jis'. */
  readonly charset: string;
}

const PRESCAN_BYTES = 1024;

// Node 20's TextDecoder decodes windows-1252 as ISO-8859-1 (0x80–0x9F become C1 controls instead of €, ", —),
// so those 32 bytes are mapped here, from the Encoding Standard's index-windows-1252.
const WINDOWS_1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (char) => WINDOWS_1252_C1[char.charCodeAt(0) - 0x80]!);
}

/** The Encoding Standard name for a label, or undefined when Node cannot decode it. */
function encodingFor(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    // An unknown or unsupported label: the caller tries the next source of truth.
    return undefined;
  }
}

function charsetParameter(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match?.[1] ?? match?.[2];
}

/** [encoding, BOM length] from a byte order mark (Encoding Standard "BOM sniff"). */
function sniffBom(bytes: Uint8Array): [string, number] | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return ['utf-8', 3];
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return ['utf-16be', 2];
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return ['utf-16le', 2];
  return undefined;
}

function prescan(bytes: Uint8Array, mediaType: string): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PRESCAN_BYTES)).toString(
    'latin1',
  );
  if (mediaType.includes('xml')) {
    const xml = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']/.exec(head);
    if (xml) return encodingFor(xml[1]);
  }
  if (mediaType !== '' && !mediaType.includes('html')) return undefined;
  // Both <meta charset="x"> and <meta http-equiv="Content-Type" content="text/html; charset=x">.
  const meta = /<meta\b[^>]*?charset\s*=\s*["']?\s*([^\s"';>/]+)/i.exec(head);
  const encoding = encodingFor(meta?.[1]);
  // A page cannot declare itself UTF-16 in ASCII-compatible bytes; HTML says treat that as UTF-8.
  return encoding?.startsWith('utf-16') ? 'utf-8' : encoding;
}

function decodeAs(bytes: Uint8Array, encoding: string, fatal = false): string {
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  return new TextDecoder(encoding, { fatal, ignoreBOM: true }).decode(bytes);
}

export function decodeBody(bytes: Uint8Array, contentTypeHeader: string | undefined): DecodedBody {
  const mediaType = (contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase();
  const bom = sniffBom(bytes);
  // The BOM is never text; drop its bytes whichever source decides the encoding.
  const content = bom ? bytes.subarray(bom[1]) : bytes;
  const declared = bom?.[0] ?? encodingFor(charsetParameter(contentTypeHeader)) ?? prescan(content, mediaType);
  if (declared) return { text: decodeAs(content, declared), charset: declared };
  try {
    return { text: decodeAs(content, 'utf-8', true), charset: 'utf-8' };
  } catch {
    // Invalid UTF-8 with no declaration: a legacy page, most likely windows-1252 (see the top of this file).
    return { text: decodeWindows1252(content), charset: 'windows-1252' };
  }
}

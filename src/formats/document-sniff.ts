// Whether bytes are an Office or e-book document (issue 27), by what the bytes hold, never the URL's extension or the
// Content-Type: RTF's `{\rtf`; a ZIP whose first entry is a stored `mimetype` naming an OpenDocument or EPUB type
// (OpenDocument 1.3 part 2 §3.3, EPUB OCF 3 §4.2.2: both require it first and uncompressed); a ZIP whose central
// directory has OOXML's manifest, `[Content_Types].xml` (ECMA-376 part 2 §10.1.2). The worker reads the manifest and
// decides which format it is (src/formats/document.ts). Light: sniffing runs on the event loop for every body, so
// this module imports nothing and looks at most at a bounded number of directory entries.

/** The OpenDocument and EPUB media types a `mimetype` entry may hold, by the format they are read as. */
export const PACKAGE_MIMETYPES: Readonly<Record<string, 'odt' | 'ods' | 'odp' | 'epub'>> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'odp',
  'application/epub+zip': 'epub',
};

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const EOCD = 0x06054b50;
/** Directory entries looked at for the OOXML manifest (Office writes it first; other writers early). */
const SNIFFED_ENTRIES = 2000;

/** The first entry's name and stored content, from its local header: ODF's and EPUB's `mimetype`. */
export function firstStoredEntry(bytes: Uint8Array): { name: string; text: string } | undefined {
  if (bytes.byteLength < 30) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== LOCAL || view.getUint16(8, true) !== 0) return undefined;
  const size = Math.min(view.getUint32(18, true), 200);
  const nameLength = view.getUint16(26, true);
  const start = 30 + nameLength + view.getUint16(28, true);
  const decoder = new TextDecoder('latin1');
  return {
    name: decoder.decode(bytes.subarray(30, 30 + nameLength)),
    text: decoder.decode(bytes.subarray(start, Math.min(start + size, bytes.byteLength))),
  };
}

/** The ODF or EPUB format its `mimetype` entry names, else undefined. */
export function packageFormat(bytes: Uint8Array): 'odt' | 'ods' | 'odp' | 'epub' | undefined {
  const first = firstStoredEntry(bytes);
  return first?.name === 'mimetype' ? PACKAGE_MIMETYPES[first.text.trim()] : undefined;
}

/** Whether the ZIP's central directory names `[Content_Types].xml` among its first entries. */
export function hasOoxmlManifest(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 22) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.byteLength - 22; at >= 0 && at >= bytes.byteLength - 22 - 65_535; at--) {
    if (view.getUint32(at, true) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) return false;
  const count = Math.min(view.getUint16(end + 10, true), SNIFFED_ENTRIES);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder('latin1');
  for (let i = 0; i < count && at + 46 <= bytes.byteLength && view.getUint32(at, true) === CENTRAL; i++) {
    const nameLength = view.getUint16(at + 28, true);
    if (decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)) === OOXML_MANIFEST) return true;
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return false;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const RTF = '{\\rtf';

/** An Office or e-book document by its bytes: RTF, OpenDocument, EPUB or OOXML. */
export function isDocument(bytes: Uint8Array): boolean {
  if (bytes.byteLength >= 5 && new TextDecoder('latin1').decode(bytes.subarray(0, 5)) === RTF) return true;
  if (!ZIP.every((byte, index) => bytes[index] === byte)) return false;
  // A package cut short (a truncated download) has no central directory, but Office writes the manifest first: it
  // is still a document, read as far as it goes or said to be damaged, not described as bytes.
  return packageFormat(bytes) !== undefined || hasOoxmlManifest(bytes) || firstEntryName(bytes) === OOXML_MANIFEST;
}

const OOXML_MANIFEST = '[Content_Types].xml';

/** The first entry's name, from its local header, however it is compressed. */
function firstEntryName(bytes: Uint8Array): string | undefined {
  if (bytes.byteLength < 30) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== LOCAL) return undefined;
  const nameLength = view.getUint16(26, true);
  return new TextDecoder('latin1').decode(bytes.subarray(30, 30 + nameLength));
}

// A ZIP archive read for its parts, bounded (issue 27 item 3): the Office and e-book formats are ZIP packages of XML.
// The central directory is read here (APPNOTE 6.3.10 §4.3.12–16) and each part inflated by fflate's streaming
// inflater, so a bomb costs what the caps allow and no more: the entry count is checked before anything is inflated,
// a part's declared size before it is inflated, and its actual size while it is — the inflater stops at the cap
// whatever the header claimed. Only the parts a reader asks for are inflated.
// Not handled: ZIP64 (packages past 4 GB or 65,535 entries are past every cap here), encryption, methods other than
// stored (0) and deflate (8); such an archive or part is reported unreadable.
import { Inflate } from 'fflate';

/** Past this many entries the archive is refused before anything is inflated (a real package has tens to hundreds). */
export const MAX_ZIP_ENTRIES = 10_000;
/**
 * All the parts one read inflates, together. A long novel's XHTML or a large workbook's sheets are a few MB; the
 * XML parsers hold several times their text, so this bounds the worker's heap to a few hundred MB.
 */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** A package that is past a cap: the reader says so as the `too_large` outcome. */
export class ZipLimitError extends Error {
  override readonly name = 'ZipLimitError';
}

/** A package that is not a ZIP we can read. */
export class ZipFormatError extends Error {
  override readonly name = 'ZipFormatError';
}

interface ZipEntry {
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
// Compressed bytes pushed at a time: deflate expands at most about 1,032 times, so one push inflates ≤ about 1 MB
// (fflate grows its output buffer as it goes: 8 KB pushes of a bomb cost ten times as long).
const CHUNK = 1024;
const TEXT_SLICE = 64 * 1024;

export class ZipArchive {
  private readonly entries = new Map<string, ZipEntry>();
  private inflated = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly budget = MAX_INFLATED_BYTES,
    maxEntries = MAX_ZIP_ENTRIES,
  ) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = findEndOfDirectory(view);
    const count = view.getUint16(end + 10, true);
    if (count > maxEntries) throw new ZipLimitError(`it has ${count} entries, more than ${maxEntries}`);
    let at = view.getUint32(end + 16, true);
    for (let i = 0; i < count; i++) {
      if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== CENTRAL) {
        throw new ZipFormatError('its central directory is damaged');
      }
      const nameLength = view.getUint16(at + 28, true);
      const extraLength = view.getUint16(at + 30, true);
      const commentLength = view.getUint16(at + 32, true);
      const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
      this.entries.set(name, {
        method: view.getUint16(at + 10, true),
        compressedSize: view.getUint32(at + 20, true),
        size: view.getUint32(at + 24, true),
        localOffset: view.getUint32(at + 42, true),
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  get names(): readonly string[] {
    return [...this.entries.keys()];
  }

  /** A part as UTF-8 text, or undefined when the archive has no such part. Past the budget: ZipLimitError. */
  text(name: string): string | undefined {
    let text = '';
    const found = this.stream(name, (chunk) => {
      text += chunk;
      return true;
    });
    return found ? text : undefined;
  }

  /**
   * A part's text handed to `onText` chunk by chunk, until it returns false (the reader has enough: a sheet cut by
   * rows) or the part ends. False when there is no such part. The budget counts what was inflated. A part larger
   * than the budget left is refused before it is inflated, unless the reader `stopsEarly` (a sheet read up to its row
   * cap): then inflating stops when it has enough, or at the budget.
   */
  stream(name: string, onText: (chunk: string) => boolean, options: { stopsEarly?: boolean } = {}): boolean {
    const entry = this.entries.get(name);
    if (!entry) return false;
    if (!options.stopsEarly && entry.size > this.budget - this.inflated) {
      throw new ZipLimitError(this.overBudget(name));
    }
    const data = this.dataOf(name, entry);
    const decoder = new TextDecoder();
    if (entry.method === 0) {
      this.count(name, data.byteLength);
      onText(decoder.decode(data));
      return true;
    }
    if (entry.method !== 8) throw new ZipFormatError(`its part ${name} uses compression method ${entry.method}`);
    let going = true;
    const inflater = new Inflate((chunk) => {
      if (!going) return;
      this.count(name, chunk.byteLength);
      // Handed on in slices: a reader that stops early (a sheet at its row cap) parses little past where it stops.
      const text = decoder.decode(chunk, { stream: true });
      for (let at = 0; at < text.length && going; at += TEXT_SLICE) going = onText(text.slice(at, at + TEXT_SLICE));
    });
    try {
      for (let at = 0; at < data.byteLength && going; at += CHUNK) {
        const end = Math.min(at + CHUNK, data.byteLength);
        inflater.push(data.subarray(at, end), end === data.byteLength);
      }
    } catch (error) {
      if (error instanceof ZipLimitError) throw error;
      throw new ZipFormatError(`its part ${name} could not be inflated`);
    }
    if (going) onText(decoder.decode());
    return true;
  }

  private count(name: string, bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > this.budget) throw new ZipLimitError(this.overBudget(name));
  }

  private overBudget(name: string): string {
    return `its parts expand to more than ${Math.round(this.budget / (1024 * 1024))} MB (at ${name})`;
  }

  private dataOf(name: string, entry: ZipEntry): Uint8Array {
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const at = entry.localOffset;
    if (at + 30 > this.bytes.byteLength || view.getUint32(at, true) !== LOCAL) {
      throw new ZipFormatError(`its part ${name} is damaged`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    return this.bytes.subarray(start, Math.min(start + entry.compressedSize, this.bytes.byteLength));
  }
}

/** The end-of-central-directory record: the last 22 bytes, or earlier behind an archive comment (≤ 65,535 bytes). */
function findEndOfDirectory(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 65_535; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw new ZipFormatError('it is not a complete ZIP archive');
}

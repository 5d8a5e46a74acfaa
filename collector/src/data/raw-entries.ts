// The entries of page buckets read as raw BSON (the driver's `raw`), without decoding each record:
// a page copies its records' bytes from the bucket into the answer as they are. A bucket document
// read with `{projection: {calls: 1}}` is `{_id: string, calls: {<call id>: string | null}}`.

const STRING = 0x02;
const DOCUMENT = 0x03;
const NULL = 0x0a;
const NEWLINE = 0x0a;
/** The sizes of the fixed-size BSON types a bucket document holds besides its entries: double, object
 * id, boolean, date, 32- and 64-bit integers. */
const FIXED: Record<number, number> = { 0x01: 8, 0x07: 12, 0x08: 1, 0x09: 8, 0x10: 4, 0x12: 8 };

export interface RawEntry {
  id: number;
  /** The packed entry's bytes (packEntry's string, UTF-8); null: a tombstone. */
  packed: Buffer | null;
}

/** A value's size in bytes at `at`. */
function valueSize(doc: Buffer, type: number, at: number): number {
  if (type === STRING) return 4 + doc.readInt32LE(at);
  if (type === DOCUMENT || type === 0x04) return doc.readInt32LE(at); // a document, an array
  if (type === NULL) return 0;
  const fixed = FIXED[type];
  if (fixed === undefined) throw new Error(`a page bucket holds a BSON value of type ${type}`);
  return fixed;
}

/** The elements of the (sub)document at `start`: each one's type, name and value's offset. */
function* elements(doc: Buffer, start: number): Generator<{ type: number; name: string; at: number }> {
  let at = start + 4;
  const end = start + doc.readInt32LE(start) - 1;
  while (at < end) {
    const type = doc[at]!;
    const nameEnd = doc.indexOf(0, at + 1);
    const name = doc.toString('latin1', at + 1, nameEnd);
    at = nameEnd + 1;
    yield { type, name, at };
    at += valueSize(doc, type, at);
  }
}

export function* bucketEntries(doc: Buffer): Generator<RawEntry> {
  for (const field of elements(doc, 0)) {
    if (field.name !== 'calls' || field.type !== DOCUMENT) continue;
    for (const entry of elements(doc, field.at)) {
      // A string's bytes follow its length and end before its terminating zero.
      const packed = entry.type === STRING ? doc.subarray(entry.at + 4, entry.at + 4 + doc.readInt32LE(entry.at) - 1) : null;
      yield { id: Number(entry.name), packed };
    }
  }
}

/** A packed entry's head (JSON, up to its first newline) and its record's bytes. */
export function splitEntry(packed: Buffer): { head: string; record: Buffer } {
  const newline = packed.indexOf(NEWLINE);
  return { head: packed.toString('utf8', 0, newline), record: packed.subarray(newline + 1) };
}

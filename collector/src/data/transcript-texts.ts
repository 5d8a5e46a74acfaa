// The texts of calls' transcripts, for the records that show them (the data API, the `call` push, a
// person's export): kept in the transcripts family's collection, read once for a page of calls.
import type { TranscriptCollections } from '../transcripts/documents.ts';

/** The text of each call of `ids` that has a transcript. */
export async function transcriptTexts(c: TranscriptCollections, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const docs = await c.transcripts.find({ _id: { $in: ids } }, { projection: { text: 1 } }).toArray();
  return new Map(docs.map((d) => [d._id, d.text]));
}

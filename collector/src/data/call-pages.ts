// The bucket pattern for the data API's pages: a domain's calls of one UTC hour in one document,
// each kept rendered as the data API shows it, but for the two fields its domain's settings decide
// (the start in its time zone, the caller as its privacy lets). A page of 5,000 calls reads a few
// dozen buckets by `_id` rather than 5,000 calls through an index: on SecantusDB, at a million
// calls, the latter takes about a second.
//
// A call's entry is one string, `[start, status, caller, number, destination, description,
// recorded]` as JSON, a newline, then its rendered record: a page parses one short head per call, and
// copies the record's bytes as they are (raw-entries.ts). The recording's link is made at the page,
// from where the collector is reached.
// Every call write puts the call's entry in its hour's bucket at the call's revision (`revs`); an
// entry of an older revision, arriving late, is refused by a version guard. A call moved to another
// hour leaves a tombstone (null) in its old bucket, so that a late write of its old revision cannot
// bring it back there. `rebuild` recomputes a domain's buckets from its calls (after a crash
// between the two).
import type { CallStatus } from '@ringtrail/shared';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { CallPageDoc, RollupDimension, DataCollections } from './documents.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { countryOf, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { domainKeys } from './call-days.ts';
import { callNumbersIn, callRecordBody, callRecordHead, hasStoredRecording, recordingLink, transcribedLabels, transcriptFields } from './records.ts';
import { bucketEntries, splitEntry } from './raw-entries.ts';
import { isReceived, RECEIVED } from '../telephony/directions.ts';

const HOUR_MS = 3_600_000;
const NO_TRANSCRIPT = JSON.stringify(transcriptFields(null, null)).slice(1, -1);
const INSERT_BATCH = 100;

const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
/** Hours sort as their keys do (ISO times of one length), so the buckets of a page are a range of `_id`. */
const bucketKey = (domainId: string, hour: Date) => `${domainId}|${hour.toISOString()}`;

/** What a page filters an entry by, in the order it is packed. */
/** `recorded`: the call has a stored recording (absent from entries packed before recordings were);
 * `transcribed`: the labels heard when it has a transcript, else null (absent before transcripts were). */
type EntryHead = [start: number, status: CallStatus | null, caller: string | null, trackingNumber: string, destination: string | null, offlineDescription: string | null, recorded?: boolean, transcribed?: string[] | null];

/** JSON escapes every newline, so the first one ends the head. */
export function packEntry(call: CallDoc): string {
  const head: EntryHead = [call.startedAt.getTime(), call.status, call.caller, call.trackingNumber, call.destination, call.offlineDescription, hasStoredRecording(call), transcribedLabels(call)];
  return `${JSON.stringify(head)}\n${JSON.stringify(callRecordBody(call))}`;
}

/** Where each rollup dimension's value is in an entry's head. */
const HEAD_INDEX: Record<RollupDimension, 3 | 4 | 5> = { trackingNumber: 3, destination: 4, offlineDescription: 5 };

/** A page's one filter besides status: a rollup dimension and the value asked for. */
export interface DimensionFilter {
  dimension: RollupDimension;
  value: string;
}

interface Row {
  id: number;
  start: number;
  caller: string | null;
  trackingNumber: string;
  destination: string | null;
  recorded: boolean;
  transcribed: string[] | null;
  /** The rendered record's bytes, as the bucket holds them. */
  record: Buffer;
}

/** A page's record in parts, strings and the bucket's bytes, written one after the other. */
export type RecordParts = (string | Buffer)[];

/** Rows' records without their braces, their numbers in the domain's country's form: each record
 * was rendered with them as stored, its first two fields (records.ts), and a French domain shows
 * them so. A page's rows share a few numbers: each pair's forms are made once a page. */
function numbersShownIn(domain: DomainDoc): (row: Row) => RecordParts {
  const country = countryOf(domain);
  const forms = new Map<string, { stored: Buffer; shown: string } | null>();
  return (row) => {
    const key = `${row.trackingNumber}|${row.destination}`;
    let pair = forms.get(key);
    if (pair === undefined) {
      const stored = JSON.stringify(callNumbersIn(row.trackingNumber, row.destination, DEFAULT_COUNTRY)).slice(0, -1);
      const shown = JSON.stringify(callNumbersIn(row.trackingNumber, row.destination, country)).slice(0, -1);
      pair = shown === stored ? null : { stored: Buffer.from(stored), shown: shown.slice(1) };
      forms.set(key, pair);
    }
    const inner = row.record.subarray(1, -1);
    if (!pair) return [inner];
    if (row.record.subarray(0, pair.stored.length).equals(pair.stored)) return [pair.shown, row.record.subarray(pair.stored.length, -1)];
    return [JSON.stringify({ ...JSON.parse(row.record.toString()), ...JSON.parse(`{${pair.shown}}`) }).slice(1, -1)];
  };
}

export class CallPages {
  constructor(private readonly c: DataCollections & TelephonyCollections) {}

  /** Puts the call as it is now in its hour's bucket; `before`, the call as it was, to leave its old hour. */
  async record(before: CallDoc | null, after: CallDoc): Promise<void> {
    const moved = before && (before.domainId !== after.domainId || hourOf(before.startedAt).getTime() !== hourOf(after.startedAt).getTime());
    await Promise.all([
      // A call placed from the back end is in no page of calls received (telephony/directions.ts): a
      // tombstone, so that an entry an earlier release wrote for it goes.
      this.put(after.domainId, hourOf(after.startedAt), after._id, isReceived(after) ? packEntry(after) : null, after.rev),
      moved && this.put(before.domainId, hourOf(before.startedAt), after._id, null, after.rev),
    ]);
  }

  /** The calls of [from, to) whose status is one of `statuses` (and that match `filter`), oldest first
   * (ties by id): `limit` of them after `skip`, each as the JSON of its data API record (`linkBase`:
   * where the collector is reached, for the recording's link; `texts`: the transcripts' texts of calls). */
  async page(domain: DomainDoc, from: Date, to: Date, statuses: readonly CallStatus[], filter: DimensionFilter | null, skip: number, limit: number, linkBase: string, texts: (ids: number[]) => Promise<Map<number, string>>): Promise<RecordParts[]> {
    // Read as raw BSON (raw-entries.ts): the records' bytes go from the buckets to the answer as they
    // are, never decoded to strings and encoded again (that was a third of a page's time).
    const buckets = (await this.c.callPages.find({ _id: { $gte: bucketKey(domain._id, hourOf(from)), $lt: bucketKey(domain._id, to) } }, { projection: { calls: 1 }, raw: true }).toArray()) as unknown as Buffer[];
    const wanted = new Set<CallStatus | null>(statuses);
    const rows: Row[] = [];
    for (const bucket of buckets) {
      for (const { id, packed } of bucketEntries(bucket)) {
        if (packed === null) continue;
        const entry = splitEntry(packed);
        const head = JSON.parse(entry.head) as EntryHead;
        const [start, status, caller] = head;
        if (!wanted.has(status) || start < from.getTime() || start >= to.getTime()) continue;
        if (filter && head[HEAD_INDEX[filter.dimension]] !== filter.value) continue;
        rows.push({ id, start, caller, trackingNumber: head[3], destination: head[4], recorded: head[6] === true, transcribed: head[7] ?? null, record: entry.record });
      }
    }
    rows.sort((a, b) => a.start - b.start || a.id - b.id);
    // The head's two fields first, as callRecord orders them, then the rendered rest, then the
    // recording and the transcript (its text read for the page's transcribed calls at once).
    const shown = rows.slice(skip, skip + limit);
    const textOf = await texts(shown.filter((row) => row.transcribed).map((row) => row.id));
    const numbersIn = numbersShownIn(domain);
    return shown.map((row) => {
      // Most calls have neither: their two fields are the same text on every row.
      const recording = row.recorded ? JSON.stringify(recordingLink(row.id, true, linkBase)) : 'null';
      const transcript = row.transcribed ? JSON.stringify(transcriptFields(row.transcribed, textOf.get(row.id) ?? null)).slice(1, -1) : NO_TRANSCRIPT;
      return [`${JSON.stringify(callRecordHead(new Date(row.start), row.caller, domain)).slice(0, -1)},`, ...numbersIn(row), `,"recording":${recording},${transcript}}`];
    });
  }

  /** Recomputes a domain's buckets from its calls, an hour at a time. */
  async rebuild(domainId: string): Promise<number> {
    await this.c.callPages.deleteMany({ _id: domainKeys(domainId) });
    const cursor = this.c.calls.find({ domainId, ...RECEIVED }, { batchSize: 10_000 }).sort({ startedAt: 1, _id: 1 }).hint({ domainId: 1, startedAt: 1, _id: 1 });
    let done: CallPageDoc[] = [];
    let current: CallPageDoc | null = null;
    let count = 0;
    for await (const call of cursor) {
      const hour = hourOf(call.startedAt);
      if (current?.hour.getTime() !== hour.getTime()) {
        if (current) done.push(current);
        if (done.length >= INSERT_BATCH) {
          await this.c.callPages.insertMany(done);
          done = [];
        }
        current = { _id: bucketKey(domainId, hour), domainId, hour, calls: {}, revs: {} };
        count++;
      }
      current.calls[call._id] = packEntry(call);
      current.revs[call._id] = call.rev;
    }
    if (current) done.push(current);
    if (done.length > 0) await this.c.callPages.insertMany(done);
    return count;
  }

  /** Sets the call's entry (null: a tombstone) unless the bucket holds the same or a later revision of
   * it. A missing bucket is made by a plain upsert, then the guarded update runs again: it never races an insert. */
  private async put(domainId: string, hour: Date, callId: number, packed: string | null, rev: number): Promise<void> {
    const _id = bucketKey(domainId, hour);
    const guarded = () => this.c.callPages.updateOne({ _id, [`revs.${callId}`]: { $not: { $gte: rev } } }, { $set: { [`calls.${callId}`]: packed, [`revs.${callId}`]: rev } });
    if ((await guarded()).matchedCount > 0) return;
    await this.c.callPages.updateOne({ _id }, { $setOnInsert: { domainId, hour, calls: {}, revs: {} } }, { upsert: true });
    await guarded();
  }
}

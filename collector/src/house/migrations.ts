// Changes a release makes to data stored by an earlier one, run at every start before the collector
// serves. Each is idempotent (the second run finds nothing to do) and plain MongoDB, so several
// collector processes starting at once, on the embedded database or a real one, are safe.
// Tested on a copy of the data the release before wrote (test/db/release-upgrade.test.ts).
import type { Collection, Document } from 'mongodb';
import type { AllCollections } from './all-collections.ts';
import { DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { CallSources } from '../reports/call-sources.ts';
import { wireCallWrites } from './writes.ts';
import { FirstCalls } from '../telephony/first-calls.ts';
import { CallerCalls } from '../data/caller-calls.ts';
import { PersonContacts } from '../people/person-contacts.ts';
import { CallPages } from '../data/call-pages.ts';
import { PLACED } from '../telephony/directions.ts';

export async function migrateDatabase(c: AllCollections): Promise<void> {
  // Numbers of any country: a domain stored before it had a country is French, as its numbers were
  // read. Its numbers need nothing: they were stored as dialled from France, the canonical form.
  await c.domains.updateMany({ country: { $exists: false } }, { $set: { country: DEFAULT_COUNTRY } });
  // A view in three operations: the leases' indexes by view and by visit, which nothing reads and
  // every claim paid for, are gone.
  await dropIndexes(c.leases, [{ viewId: 1 }, { visitId: 1 }]);
  // Roles: every user stored before them owned their account, and keeps doing so.
  await c.users.updateMany({ role: { $exists: false } }, { $set: { role: 'owner' } });
  // Spam apart: calls a person marked spam left the report counters; calls analysed (issue 66) are
  // counted by what the model read in them. A domain that has such calls counts its calls again,
  // once; the others only note that their counts follow the rules.
  for await (const domain of c.domains.find({ callCountsVersion: { $ne: CALL_COUNTS_VERSION } }, { projection: { timeZone: 1 } })) {
    if (await c.calls.findOne({ domainId: domain._id, $or: [{ 'verdict.value': 'spam' }, { 'analysis.status': 'ready' }] }, { projection: { _id: 1 } })) await new CallSources(c).rebuild(domain._id, domain.timeZone);
    await c.domains.updateOne({ _id: domain._id }, { $set: { callCountsVersion: CALL_COUNTS_VERSION } });
  }
  // Recordings in the data API: a call's page entry says whether it has a stored one. The calls that
  // got one before it did are written again (a new revision, so their entry is put again), once.
  const writes = wireCallWrites(c);
  for await (const domain of c.domains.find({ recordingLinksVersion: { $exists: false } }, { projection: { _id: 1 } })) {
    const recorded = c.calls.find({ 'recording.storedAt': { $gt: new Date(0) }, domainId: domain._id, 'recording.status': 'stored' }).hint({ 'recording.storedAt': 1 });
    for await (const call of recorded) await writes.update(call, { recording: call.recording! });
    await c.domains.updateOne({ _id: domain._id }, { $set: { recordingLinksVersion: 1 } });
  }
  // Contacts by `_id`, so that nothing of a caller or a person reads an index of the calls: each
  // caller's calls (data/caller-calls.ts), for the data API's caller filter; the callers of calls
  // stored before first calls were kept, claimed; each person's keys and contacts
  // (people/person-contacts.ts), with their first lead counted.
  for await (const domain of c.domains.find({ contactEntriesVersion: { $exists: false } }, { projection: { _id: 1 } })) {
    await new CallerCalls(c).rebuild(domain._id);
    await new FirstCalls(c).notePastCallers(domain._id);
    await new PersonContacts(c).putPast(domain._id);
    await c.domains.updateOne({ _id: domain._id }, { $set: { contactEntriesVersion: 1 } });
  }
  // Calls placed from the back end leave the data API's pages of calls received (issue 80): a domain
  // that placed one has its pages made again, once.
  for await (const domain of c.domains.find({ receivedPagesVersion: { $exists: false } }, { projection: { _id: 1 } })) {
    if (await c.calls.findOne({ domainId: domain._id, ...PLACED }, { projection: { _id: 1 } })) await new CallPages(c).rebuild(domain._id);
    await c.domains.updateOne({ _id: domain._id }, { $set: { receivedPagesVersion: 1 } });
  }
  await dropIndexes(c.calls, [{ domainId: 1, caller: 1, startedAt: 1, _id: 1 }, { personId: 1 }]);
  await dropIndexes(c.forms, [{ personId: 1 }]);
  await dropIndexes(c.personKeys, [{ personId: 1 }]);
}

/** 2: spam apart (issue 39); 3: the analyses' counts (issue 66). */
const CALL_COUNTS_VERSION = 3;

/** What a domain whose data this release wrote says, for which the start has nothing to upgrade
 * (the benchmarks write their data as this release does). */
export const UP_TO_DATE = { callCountsVersion: CALL_COUNTS_VERSION, recordingLinksVersion: 1, contactEntriesVersion: 1, receivedPagesVersion: 1 };

const NAMESPACE_NOT_FOUND = 26;

/** Drops the collection's indexes of these keys, those it has. */
async function dropIndexes<T extends Document>(collection: Collection<T>, keys: Record<string, 1>[]): Promise<void> {
  const unwanted = new Set(keys.map((key) => JSON.stringify(key)));
  const indexes = await collection.indexes().catch((err: { code?: number }) => {
    if (err.code === NAMESPACE_NOT_FOUND) return []; // no collection, no index
    throw err;
  });
  for (const index of indexes) {
    if (index.name && unwanted.has(JSON.stringify(index.key))) await collection.dropIndex(index.name);
  }
}

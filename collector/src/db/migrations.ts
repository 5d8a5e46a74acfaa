// Changes a release makes to data stored by an earlier one, run at every start before the collector
// serves. Each is idempotent (the second run finds nothing to do) and plain MongoDB, so several
// collector processes starting at once, on the embedded database or a real one, are safe.
// Tested on a copy of the data the release before wrote (test/db/release-upgrade.test.ts).
import type { Collections } from './collections.ts';
import { DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';

export async function migrateDatabase(c: Collections): Promise<void> {
  // Numbers of any country: a domain stored before it had a country is French, as its numbers were
  // read. Its numbers need nothing: they were stored as dialled from France, the canonical form.
  await c.domains.updateMany({ country: { $exists: false } }, { $set: { country: DEFAULT_COUNTRY } });
}

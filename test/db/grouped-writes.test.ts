// Group commit (issue 25): inserts that arrive while a batch is on its way go together as one
// insertMany; a document the database refuses fails its own request only.
import { MongoClient, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GroupedWrites } from '../../collector/src/db/grouped-writes.ts';
import { isDuplicateKey } from '../../collector/src/db/writes.ts';

interface Doc {
  _id: number;
  label: string;
}

describe('grouped inserts', () => {
  let client: MongoClient;
  let collection: Collection<Doc>;
  const inserts: number[] = [];
  beforeAll(async () => {
    client = await new MongoClient(inject('mongodbUri'), { monitorCommands: true }).connect();
    collection = client.db(`t_grouped_inserts_${Date.now()}`).collection<Doc>('docs');
    client.on('commandStarted', (e) => {
      if (e.commandName === 'insert' && e.command.insert === 'docs') inserts.push((e.command.documents as unknown[]).length);
    });
    await collection.insertOne({ _id: 0, label: 'stored before' });
    inserts.length = 0;
  });
  afterAll(async () => {
    await collection.db.dropDatabase();
    await client.close();
  });

  it('sends the inserts that wait for a batch as one, and fails only the one the database refuses', async () => {
    const grouped = new GroupedWrites(collection);
    const outcome = (p: Promise<void>) => p.then(() => 'stored', (err: unknown) => (isDuplicateKey(err) ? 'duplicate' : `error ${String(err)}`));
    // The first goes at once; the five that come while it is on its way wait and go together.
    const first = outcome(grouped.insert({ _id: 1, label: 'first' }));
    const waiting = [2, 3, 0, 4, 5].map((_id) => outcome(grouped.insert({ _id, label: `doc ${_id}` })));
    expect(await first).toBe('stored');
    expect(await Promise.all(waiting)).toEqual(['stored', 'stored', 'duplicate', 'stored', 'stored']);
    expect(inserts).toEqual([1, 5]);
    // The refused document left the stored one as it was; the others of its batch are there.
    expect(await collection.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 0, label: 'stored before' },
      { _id: 1, label: 'first' },
      { _id: 2, label: 'doc 2' },
      { _id: 3, label: 'doc 3' },
      { _id: 4, label: 'doc 4' },
      { _id: 5, label: 'doc 5' },
    ]);
  });

  it('stores each of many simultaneous inserts once, in fewer operations than documents', async () => {
    const grouped = new GroupedWrites(collection);
    inserts.length = 0;
    await Promise.all(Array.from({ length: 300 }, (_, i) => grouped.insert({ _id: 1000 + i, label: 'burst' })));
    expect(await collection.countDocuments({ label: 'burst' })).toBe(300);
    expect(inserts.reduce((a, b) => a + b, 0)).toBe(300);
    expect(inserts.length).toBeLessThan(300);
  });
});

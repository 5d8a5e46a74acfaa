// Group commit of sets (issue 25): the sets that wait for a batch go as ONE update statement (a
// bulkWrite of N updates cost N transactions, each synced to disk, one after another), each set
// still applied to its own document only when its own filter holds.
import { MongoClient, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GroupedSets } from '../../collector/src/db/grouped-sets.ts';

interface Doc {
  _id: number;
  gen: number;
  owner: string | null;
  at?: Date;
}

describe('grouped sets', () => {
  let client: MongoClient;
  let collection: Collection<Doc>;
  /** The statements of each update command sent to the collection. */
  const updates: number[] = [];
  beforeAll(async () => {
    client = await new MongoClient(inject('mongodbUri'), { monitorCommands: true }).connect();
    collection = client.db(`t_grouped_sets_${Date.now()}`).collection<Doc>('docs');
    client.on('commandStarted', (e) => {
      if (e.commandName === 'update' && e.command.update === 'docs') updates.push((e.command.updates as unknown[]).length);
    });
  });
  afterAll(async () => {
    await collection.db.dropDatabase();
    await client.close();
  });

  it('sends the sets that wait for a batch as one statement, each applied to its own document when its filter holds', async () => {
    await collection.insertMany(Array.from({ length: 6 }, (_, i) => ({ _id: i + 1, gen: 0, owner: null })));
    updates.length = 0;
    const sets = new GroupedSets(collection);
    const at = new Date('2026-11-24T10:00:00Z');
    // The first goes at once; the ones that come while it is on its way go together.
    const first = sets.set({ _id: 1, gen: 0 }, { gen: 1, owner: 'a' });
    const waiting = [
      sets.set({ _id: 2, gen: 0 }, { gen: 1, owner: 'b', at }),
      sets.set({ _id: 3, gen: 5 }, { gen: 6, owner: 'c' }), // its filter does not hold: not applied
      sets.set({ _id: 4, gen: 0 }, { gen: 1, owner: 'd' }),
      sets.set({ _id: 99, gen: 0 }, { gen: 1, owner: 'e' }), // no such document
      sets.set({ _id: 5, gen: 0 }, { gen: 1, owner: '$owner' }), // a value that reads like a field path is stored as given
    ];
    expect(await first).toBe(true);
    expect(await Promise.all(waiting)).toEqual([true, false, true, false, true]);
    expect(updates).toEqual([1, 1]);
    expect(await collection.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, gen: 1, owner: 'a' },
      { _id: 2, gen: 1, owner: 'b', at },
      { _id: 3, gen: 0, owner: null },
      { _id: 4, gen: 1, owner: 'd' },
      { _id: 5, gen: 1, owner: '$owner' },
      { _id: 6, gen: 0, owner: null },
    ]);
  });

  it('lets exactly one of the sets of one document win when each requires what the other changes, in the order they were made', async () => {
    await collection.deleteMany({});
    await collection.insertOne({ _id: 1, gen: 0, owner: null });
    updates.length = 0;
    const sets = new GroupedSets(collection);
    const busy = sets.set({ _id: 1, gen: 0 }, { gen: 1, owner: 'first' });
    // Both wait for the same batch: the second of one document goes in a statement after the first.
    const claims = [sets.set({ _id: 1, gen: 1 }, { gen: 2, owner: 'x' }), sets.set({ _id: 1, gen: 1 }, { gen: 2, owner: 'y' })];
    expect(await busy).toBe(true);
    expect(await Promise.all(claims)).toEqual([true, false]);
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1, gen: 2, owner: 'x' });
  });

  it('applies each of many simultaneous sets once, in far fewer statements than sets', async () => {
    await collection.deleteMany({});
    await collection.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, gen: 0, owner: null })));
    updates.length = 0;
    const sets = new GroupedSets(collection);
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => sets.set({ _id: i, gen: 0 }, { gen: 1, owner: `o${i}` })));
    expect(outcomes.every(Boolean)).toBe(true);
    expect(await collection.countDocuments({ gen: 1 })).toBe(300);
    expect(await collection.countDocuments({ $expr: { $eq: ['$owner', { $concat: ['o', { $toString: '$_id' }] }] } })).toBe(300);
    expect(updates.every((statements) => statements === 1)).toBe(true);
    expect(updates.length).toBeLessThan(10);
  });
});

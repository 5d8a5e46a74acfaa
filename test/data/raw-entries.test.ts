// Page buckets read as raw BSON: each call's entry found by its id, its bytes as stored (any
// language, any length), a tombstone as null, whatever else the bucket document holds.
import { BSON } from 'mongodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketEntries, splitEntry } from '../../collector/src/data/raw-entries.ts';

describe('a page bucket read as raw BSON', () => {
  it('gives each entry of any bucket as the driver would decode it', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.integer({ min: 1, max: 1e12 }).map(String), fc.option(fc.tuple(fc.json(), fc.string({ unit: 'grapheme', maxLength: 300 })).map(([head, rest]) => `${head}\n${rest}`))), fc.string(), (calls, id) => {
        const raw = Buffer.from(BSON.serialize({ _id: id, calls, hour: new Date(0), revs: { 1: 2 } }));
        const read = [...bucketEntries(raw)].map(({ id: callId, packed }) => [String(callId), packed === null ? null : packed.toString()]);
        expect(Object.fromEntries(read)).toEqual(calls);
        for (const { packed } of bucketEntries(raw)) {
          if (!packed) continue;
          const { head, record } = splitEntry(packed);
          const text = packed.toString();
          expect([head, record.toString()]).toEqual([text.slice(0, text.indexOf('\n')), text.slice(text.indexOf('\n') + 1)]);
        }
      }),
    );
  });
});

// The search by words said (issue 54), on the real database: every word must be said (by the
// speaker named), a quoted phrase in order, within the period, newest first; the line that says it;
// and what a person types bounded (length, words, no expression built from it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from '../helpers/collector.ts';
import type { TranscriptDoc, Turn } from '../../collector/src/transcripts/documents.ts';
import { wordEntries } from '../../collector/src/transcripts/transcript-store.ts';
import { transcriptText } from '../../collector/src/transcripts/turns.ts';
import { matchLines, parseQuery, SearchRefused, searchTranscripts, SEARCH_BOUNDS } from '../../collector/src/transcripts/search.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);
let t: TestDatabase;

async function transcribed(id: number, day: number, turns: [Turn['speaker'], string][], domainId = 'shop.test'): Promise<void> {
  const list = turns.map(([speaker, text], i) => ({ speaker, start: i * 5, end: i * 5 + 4, text }));
  const doc: TranscriptDoc = { _id: id, domainId, startedAt: new Date(T0 + day * DAY + id), turns: list, spotted: [], text: transcriptText(list), language: 'en', engine: 'test', model: 'test', audioSeconds: 10, tookMs: 0, madeAt: new Date() };
  await t.c.transcripts.insertOne(doc);
  await t.c.transcriptWords.insertMany(wordEntries(doc));
}

beforeAll(async () => {
  t = await testDatabase('transcript_search');
  await transcribed(1, 0, [['agent', 'Acme, how can I help?'], ['caller', 'I would like to book an appointment.']]);
  await transcribed(2, 1, [['agent', 'Would you like to book an appointment?'], ['caller', 'No, how much is a new boiler?']]);
  await transcribed(3, 2, [['caller', 'An appointment to book, please. How much?']]);
  await transcribed(4, 3, [[null, 'Twenty five euros for the appointment']]);
  await transcribed(5, 40, [['caller', 'book an appointment']]); // outside the period below
  await transcribed(6, 1, [['caller', 'book an appointment']], 'other.test'); // another domain
});
afterAll(() => t?.close());

const period = [new Date(T0), new Date(T0 + 30 * DAY)] as const;
const search = async (q: string) => (await searchTranscripts(t.c, 'shop.test', parseQuery(q), ...period, 100)).callIds;

describe('the search by words said', () => {
  it('finds the calls that said every word, newest first, within the period and the domain', async () => {
    expect(await search('appointment')).toEqual([4, 3, 2, 1]);
    expect(await search('book appointment')).toEqual([3, 2, 1]);
    expect(await search('boiler')).toEqual([2]);
    expect(await search('nothing')).toEqual([]);
  });

  it('takes a quoted phrase as written, and a speaker when one is named', async () => {
    expect(await search('"book an appointment"')).toEqual([2, 1]);
    expect(await search('caller: "book an appointment"')).toEqual([1]);
    expect(await search('agent: appointment')).toEqual([2]);
    expect(await search('caller: how much')).toEqual([3, 2]);
  });

  it('compares words as engines write them: case, punctuation, numbers in words or digits', async () => {
    expect(await search('BOILER?')).toEqual([2]);
    expect(await search('25')).toEqual([4]);
    expect(await search('"twenty five euros"')).toEqual([4]);
  });

  it('shows the line that said it', async () => {
    const lines = await matchLines(t.c, parseQuery('caller: "book an appointment"'), [1, 2]);
    expect(lines.get(1)).toEqual({ speaker: 'caller', start: 5, text: 'I would like to book an appointment.' });
    expect(lines.has(2)).toBe(false);
  });

  it('refuses what is too long or has no word, and builds no expression from what is typed', async () => {
    expect(() => parseQuery('a'.repeat(201))).toThrow(SearchRefused);
    expect(() => parseQuery('  "" ?! ')).toThrow('q must have a word to look for');
    expect(() => parseQuery('one two three four five six seven eight nine ten eleven')).toThrow('q may have at most 10 words');
    expect(await search('.* (zz+)+$ [')).toEqual([]);
    expect(await search('(boiler)+$')).toEqual([2]);
  });

  it('walks a long period in windows sized by the words, and finds the same calls as reading every transcript', async () => {
    // 300 calls over 200 days, words drawn unevenly (a few in most calls, several on the same
    // millisecond); tiny bounds force many windows and windows cut short where a word was read up to its limit.
    const vocabulary = ['price', 'book', 'an', 'appointment', 'refund', 'tuesday', 'hello', 'cancel'];
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const docs: TranscriptDoc[] = [];
    for (let id = 1000; id < 1300; id++) {
      const said = () => Array.from({ length: 6 }, () => vocabulary[Math.floor(vocabulary.length * random() ** 2)]!).join(' ');
      const turns: Turn[] = [{ speaker: 'caller', start: 0, end: 4, text: said() }, { speaker: 'agent', start: 5, end: 9, text: said() }];
      const at = T0 + Math.floor(random() * 200) * DAY + (id % 3 === 0 ? 0 : id); // every third call on the day's first millisecond
      docs.push({ _id: id, domainId: 'walk.test', startedAt: new Date(at), turns, spotted: [], text: transcriptText(turns), language: 'en', engine: 'test', model: 'test', audioSeconds: 10, tookMs: 0, madeAt: new Date() });
    }
    await t.c.transcripts.insertMany(docs);
    await t.c.transcriptWords.insertMany(docs.flatMap(wordEntries));
    const from = new Date(T0 + 20 * DAY);
    const to = new Date(T0 + 180 * DAY);
    const newestFirst = (a: TranscriptDoc, b: TranscriptDoc) => b.startedAt.getTime() - a.startedAt.getTime() || b._id - a._id;
    const everyTranscript = (q: string) => docs.filter((d) => d.startedAt >= from && d.startedAt < to && matchLinesOf(d, q)).sort(newestFirst).map((d) => d._id);
    const tiny = { firstWindowMs: DAY, windowEntries: 12, maxGrowth: 4, wordRead: 5, maxRead: 1_000_000 };
    for (const q of ['price', 'hello cancel', 'caller: book tuesday', '"book an"', 'agent: refund price', 'cancel refund tuesday']) {
      const expected = everyTranscript(q);
      expect(expected.length, q).toBeGreaterThan(0);
      expect((await searchTranscripts(t.c, 'walk.test', parseQuery(q), from, to, 1000, tiny)).callIds, q).toEqual(expected);
      expect((await searchTranscripts(t.c, 'walk.test', parseQuery(q), from, to, 1000)).callIds, q).toEqual(expected);
      const firstThree = await searchTranscripts(t.c, 'walk.test', parseQuery(q), from, to, 3, tiny);
      expect(firstThree.callIds, q).toEqual(expected.slice(0, 3));
    }
    // Past the entries a search may read, it says so, with the newest of what it found.
    const stopped = await searchTranscripts(t.c, 'walk.test', parseQuery('price'), from, to, 1000, { ...tiny, maxRead: 20 });
    expect(stopped.stopped).toBe(true);
    expect(stopped.callIds.length).toBeGreaterThan(0);
    expect(stopped.callIds).toEqual(everyTranscript('price').slice(0, stopped.callIds.length));
    expect((await searchTranscripts(t.c, 'walk.test', parseQuery('price'), from, to, 1000, SEARCH_BOUNDS)).stopped).toBe(false);
  });
});

/** Whether a transcript says `q`, read the slow way: every term in its turns (by the speaker named). */
function matchLinesOf(doc: TranscriptDoc, q: string): boolean {
  const query = parseQuery(q);
  const spoken = doc.turns.filter((turn) => !query.speaker || turn.speaker === query.speaker).map((turn) => ` ${turn.text} `);
  return query.terms.every((term) => spoken.some((text) => text.includes(` ${term.join(' ')} `)));
}

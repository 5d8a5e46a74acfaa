// Upgrading from the release before numbers of any country (dcf71ea): a copy of the data it wrote
// (test/db/release-dcf71ea/database.json, recorded by release-scenario.ts on that release) is
// migrated at start, twice, losing nothing; then the collector answers what that release answered,
// field for field and in order (answers.json), but for what is new in the back end's own answers.
import { readFileSync } from 'node:fs';
import { BSON } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { migrateDatabase } from '../../collector/src/house/migrations.ts';
import { releaseCollector, replay } from './release-scenario.ts';

const folder = new URL('./release-dcf71ea/', import.meta.url);
const stored = BSON.EJSON.parse(readFileSync(new URL('database.json', folder), 'utf8'), { relaxed: false }) as Record<string, Record<string, unknown>[]>;
const recorded = JSON.parse(readFileSync(new URL('answers.json', folder), 'utf8')) as { day: string; answers: Record<string, unknown> };

describe('an upgrade from the release before numbers of any country', () => {
  let t: TestDatabase;
  let collector: RunningCollector;
  beforeAll(async () => {
    t = await testDatabase('release_upgrade');
    for (const [name, docs] of Object.entries(stored)) await t.db.collection(name).insertMany(docs);
  });
  afterAll(async () => {
    await collector?.close();
    await t?.close();
  });

  it('gives each domain its country, FR, each user the owner role, and changes nothing else, however many times it runs', async () => {
    await migrateDatabase(t.c);
    await migrateDatabase(t.c);
    for (const [name, docs] of Object.entries(stored)) {
      const now = await t.db.collection(name).find().sort({ _id: 1 }).toArray();
      const expected = name === 'domains' ? docs.map((d) => ({ ...d, country: 'FR', callCountsVersion: 3, recordingLinksVersion: 1, contactEntriesVersion: 1, receivedPagesVersion: 1 })) : name === 'users' ? docs.map((u) => ({ ...u, role: 'owner' })) : docs;
      expect(BSON.EJSON.stringify(now, { relaxed: false }), name).toBe(BSON.EJSON.stringify(expected, { relaxed: false }));
    }
  });

  it("answers the release's data as the release did", async () => {
    collector = await releaseCollector(t.db);
    const answers = await replay(collector, recorded.day);
    expect(Object.keys(answers)).toEqual(Object.keys(recorded.answers));
    // Ours, and new: how the back end writes a French domain's foreign numbers (phone-display.ts).
    const { phoneDisplay, total, totalCapped, pageSize, ...callsLog } = answers.callsLog as { phoneDisplay?: Record<string, string>; total: number; totalCapped: boolean; pageSize: number; calls: unknown[] };
    expect(phoneDisplay).toEqual({ '00442079460000': '+44 20 7946 0000' });
    // Ours, and new: the calls log's count (issue 39).
    expect({ total, totalCapped, pageSize }).toEqual({ total: callsLog.calls.length, totalCapped: false, pageSize: 50 });
    // Ours, and new: each row says whether the call has a recording (issue 41); the release's have none.
    // And whether it has a transcript (issue 54): none either.
    // And its tags, value and rule's verdict (issue 55): none. And the jobs retried for it (issue 64): none.
    for (const row of callsLog.calls as { recording?: unknown; transcript?: unknown; tags?: unknown; value?: unknown; verdictRule?: unknown; retrying?: unknown }[]) {
      expect([row.recording, row.transcript, row.tags, row.value, row.verdictRule, row.retrying]).toEqual([null, null, [], null, null, []]);
      delete row.retrying;
      delete row.recording;
      delete row.transcript;
      delete row.tags;
      delete row.value;
      delete row.verdictRule;
    }
    answers.callsLog = callsLog;
    // Ours, and new: the overview counts spam calls apart (issue 39); the release had none.
    const overview = answers.overview as { totals: { spam?: number }; previous?: { from: string } };
    expect(overview.totals.spam).toBe(0);
    delete overview.totals.spam;
    // Ours, and new: the period before beside it (issue 39).
    expect(overview.previous).toMatchObject({ from: expect.any(String) });
    delete overview.previous;
    // Ours, and new: the calls nobody answered counted apart by how they ended (issue 80); the
    // release's calls went through no flow and left no voicemail.
    const ended = (answers.overview as { totals: Record<string, unknown> }).totals;
    expect([ended.missed, ended.abandoned, ended.voicemails]).toEqual([0, 0, 0]);
    for (const name of ['missed', 'abandoned', 'voicemails']) delete ended[name];
    // Ours, and new: the campaigns and landing pages tables (issue 39); the release counted neither.
    const tables = answers.overview as { campaigns?: unknown[]; landingPages?: unknown[]; keyPhrases?: unknown[]; tags?: unknown[]; values?: unknown };
    expect([tables.campaigns, tables.landingPages, tables.keyPhrases, tables.tags]).toEqual([[], [], [], []]);
    delete tables.campaigns;
    delete tables.landingPages;
    // Ours, and new: the key phrases heard in calls (issue 54); the release had no transcript.
    delete tables.keyPhrases;
    // Ours, and new: calls by tag and the values summed (issue 55); the release had neither.
    delete tables.tags;
    expect(tables.values).toEqual({ total: 0, previousTotal: 0, sources: {}, keywords: [], campaigns: [], landingPages: [] });
    delete tables.values;
    // Ours, and new: what the language model read in the calls (issue 66); the release analysed none.
    const read = answers.overview as { analysis?: unknown };
    expect(read.analysis).toEqual({ analysed: 0, appointments: 0, sales: 0, averageLeadScore: null, sources: {}, keywords: [], campaigns: [] });
    delete read.analysis;
    // Ours, and new: form leads beside the call leads, and the people who became leads (issue 43):
    // the release had no form; the calls the replay made are joined to people.
    const counted = answers.overview as { totals: Record<string, unknown>; days: Record<string, unknown>[]; sources: Record<string, unknown>[]; keywords: Record<string, unknown>[] };
    expect(counted.totals).toMatchObject({ forms: 0, formSpam: 0, formLeads: 0, leadPeople: expect.any(Number) });
    for (const row of [counted.totals, ...counted.days, ...counted.sources, ...counted.keywords]) {
      expect(row.formLeads).toBe(0);
      for (const name of ['forms', 'formSpam', 'formLeads', 'leadPeople']) delete row[name];
    }
    // Ours, and new: the data API's records rendered since carry the call's id, verdict and campaign
    // (issue 39); those the release rendered get them from npm run rebuild-summaries. Every record
    // says whether the call has a recording (issue 41); the release's have none.
    for (const name of ['calls', 'callsByCaller', 'callsByNumber']) {
      for (const record of (answers[name] as { results: { call_id?: number; verdict?: string | null; utm_campaign?: string | null; recording?: string | null; person_id?: number | null }[] }).results) {
        if ('date' in record) continue; // a daily row
        expect(record.recording).toBeNull();
        delete record.recording;
        // Ours, and new: the transcript's text and labels (issue 54); the release's calls have none.
        expect([(record as { transcript?: unknown }).transcript, (record as { key_phrases?: unknown }).key_phrases]).toEqual([null, null]);
        delete (record as { transcript?: unknown }).transcript;
        delete (record as { key_phrases?: unknown }).key_phrases;
        // Ours, and new: tags and a lead's value (issue 55); the release's calls have none.
        for (const [field, none] of [['tags', []], ['value', null]] as const) {
          if (field in record) expect((record as Record<string, unknown>)[field]).toEqual(none);
          delete (record as Record<string, unknown>)[field];
        }
        // Ours, and new: the person of a call (issue 43): those the replay made are joined to one.
        if ('person_id' in record) expect([null, 'number']).toContain(record.person_id === null ? null : typeof record.person_id);
        delete record.person_id;
        if (!('call_id' in record)) continue;
        expect(record).toMatchObject({ call_id: expect.any(Number), verdict: null, utm_campaign: null });
        delete record.call_id;
        delete record.verdict;
        delete record.utm_campaign;
      }
    }
    // Ours, and new: the route's recording plan (issue 41); the release's domains record nothing.
    for (const [name, answer] of Object.entries(answers)) {
      if (!name.startsWith('route') || !answer || typeof answer !== 'object' || !('recording' in answer)) continue;
      expect([name, answer.recording]).toEqual([name, null]);
      delete answer.recording;
    }
    // Ours, and new: the calls CSV's last fourteen columns, the labels heard and the transcript (issue
    // 54), the tags and the value (issue 55), the analysis (issue 66), empty for the release's calls.
    const csv = answers.callsCsv as string;
    const ours = ',keyPhrases,transcript,tags,value,summary,intent,leadScore,sentiment,appointmentBooked,quoteGiven,saleMade,existingCustomer,spam,followUpNeeded';
    expect(csv.split('\r\n').filter(Boolean).slice(1).every((line) => line.endsWith(','.repeat(14)))).toBe(true);
    answers.callsCsv = csv.replace(`${ours}\r\n`, '\r\n').replace(/,{14}\r\n/g, '\r\n');
    for (const [name, answer] of Object.entries(recorded.answers)) expect(JSON.stringify(answers[name]), name).toBe(JSON.stringify(answer));
  });
});

// Names that Object.prototype also has (issue 79), tried as the attack was: a flow whose start or
// next step is `constructor` or `toString` with no such step gets 400 in words, not 500; steps of
// those names are plain steps a call walks through; "constructor" said in a call stays the word;
// and a keyword `constructor` is counted as a keyword, not added to a function.
import { describe, expect, it } from 'vitest';
import { wordsOf } from '../../collector/src/transcripts/words.ts';
import { redactCards } from '../../collector/src/transcripts/redact.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'prototype names owner password' };

describe("names Object.prototype has", () => {
  const s = useSeededCollector('prototype_names', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY });

  it('answers 400 for a flow naming a step it lacks, and walks steps named constructor and toString', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const save = (start: string, steps: Record<string, unknown>) => owner.call('POST', '/domains/shop.test/flows', { name: 'Prototype', start, steps, assignedTo: { numbers: ['0800000003'] } });
    expect(await save('constructor', { main: { kind: 'hangup' } })).toMatchObject({ status: 400, body: { error: expect.stringContaining('start: there is no step constructor') } });
    expect(await save('main', { main: { kind: 'say', prompt: { text: 'Hello' }, next: 'toString' } })).toMatchObject({ status: 400, body: { error: expect.stringContaining('steps.main.next: there is no step toString') } });
    expect(await save('main', { main: { kind: 'menu', prompt: { text: 'Press 1' }, options: [{ key: '1', label: 'Sales', next: 'valueOf' }], default: 'hasOwnProperty' } })).toMatchObject({ status: 400 });
    expect(await s.t.c.callFlows.countDocuments({})).toBe(0);

    const saved = await save('constructor', {
      constructor: { kind: 'menu', prompt: { text: 'Press 1 for sales.' }, options: [{ key: '1', label: 'Sales', next: 'toString' }], default: 'hasOwnProperty' },
      toString: { kind: 'say', prompt: { text: 'Thank you.' } },
      hasOwnProperty: { kind: 'hangup' },
    });
    expect(saved.status).toBe(201);
    const flow = async (fields: Record<string, unknown>) => {
      const res = await fetch(`${s.collector.baseUrl}/telephony/flow`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(fields) });
      return { status: res.status, body: (await res.json()) as { step: string | null; actions: { action: string; text?: string }[] } };
    };
    const call = { callRef: 'pbx-prototype-1', trackingNumber: '0800000003', callerPhone: '0622000001' };
    const first = await flow(call);
    expect(first).toMatchObject({ status: 200, body: { step: 'constructor:0', actions: [{ action: 'say', text: 'Press 1 for sales.' }, { action: 'gather' }] } });
    const pressed = await flow({ ...call, step: first.body.step, input: '1' });
    expect(pressed).toMatchObject({ status: 200, body: { actions: [{ action: 'say', text: 'Thank you.' }, { action: 'hangup' }] } });
    // A step the flow lacks, named by the PBX: an error in words, never a 500.
    const stranger = await flow({ ...call, step: 'toString:0', input: '' });
    expect(stranger.status).not.toBe(500);
    const stored = (await s.t.c.calls.findOne({ callRef: call.callRef }))!;
    expect(stored.flowPath!.map((e) => e.step)).toEqual(expect.arrayContaining(['constructor', 'toString']));
  });

  it('keeps "constructor" and "toString" said in a call as the words they are', () => {
    expect(wordsOf('The constructor said toString twenty five')).toEqual(['the', 'constructor', 'said', 'tostring', '25']);
    const words = ['constructor', 'valueOf', 'double', 'four'].map((word, i) => ({ word, start: i, end: i + 1 }));
    expect(redactCards(words, 'constructor').map((w) => w.word)).toEqual(['constructor', 'valueOf', 'double', 'four']);
  });

  it('counts a keyword `constructor` as a keyword', async () => {
    const viewed = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=constructor' }));
    expect(viewed.body.status).toBe('OK');
    const tracking = viewed.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    expect((await reportCall(s.collector.baseUrl, { callRef: 'keyword-constructor', trackingNumber: tracking, callerPhone: '0622000002', startDate: new Date(), status: 'SUCCESS', duration: 30 })).status).toBe(200);
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const { from, to } = daysAroundNow();
    const overview = await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}`);
    expect(overview.status).toBe(200);
    expect(overview.text).not.toContain('function');
    expect(overview.text).toContain('constructor');
  });
});

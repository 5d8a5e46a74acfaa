// A call flow walked by any PBX over POST /telephony/flow (the platform's bearer key): the same flow
// as Twilio's end to end (menu, a group rung in turn with nobody answering, the voicemail, its
// recording uploaded and the outcome reported as ever); round robin over 30 calls following the
// weights, 20 calls at once each taking their own turn, a sticky caller ringing their last answerer
// first; /telephony/route's answer unchanged for a number without a flow, with `flow: true` and the
// first phone reached for one with.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, routeCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { toneWav } from '../helpers/wav.ts';

const member = (name: string, phone: string, extra: Record<string, unknown> = {}) => ({ username: `${name}@shop.test`, password: `flows ${name} password`, role: 'agent', domains: ['shop.test'], phone, ...extra });
const ADA = member('ada', '0611000001');
const BEN = member('ben', '0611000002');
const CY = member('cy', '0611000003');
const DEE = member('dee', '0611000004');
const ALL_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '00:00', to: '24:00' }]]));

const MAIN = {
  name: 'Main line',
  start: 'hours',
  assignedTo: { numbers: ['0100000001'] },
  steps: {
    hours: { kind: 'schedule', week: ALL_DAY, open: 'menu', closed: 'voicemail' },
    menu: { kind: 'menu', prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', next: 'sales' }, { key: '2', label: 'Support', next: 'support' }], default: 'voicemail' },
    sales: { kind: 'ring', strategy: 'simultaneous', targets: [{ member: ADA.username }, { member: BEN.username }], noAnswer: 'voicemail' },
    support: { kind: 'ring', strategy: 'sequential', targets: [{ member: ADA.username }, { member: CY.username }], ringSeconds: 20, noAnswer: 'voicemail' },
    voicemail: { kind: 'voicemail', maxSeconds: 90 },
  },
};
// The online pool's numbers: a round robin sales team, weights 2, 1, 1, sticky for 30 days.
const TEAM = {
  name: 'Sales team',
  start: 'team',
  assignedTo: { pools: [1] },
  steps: { team: { kind: 'ring', strategy: 'round-robin', stickyDays: 30, targets: [{ member: ADA.username, weight: 2 }, { member: BEN.username }, { member: CY.username }], noAnswer: 'bye' }, bye: { kind: 'hangup' } },
};

describe('a call flow walked by a PBX', () => {
  const s = useSeededCollector('pbx_flow', trackingFixture({ users: [ADA, BEN, CY, DEE] as never, settings: { callFlows: [MAIN, TEAM] } }), { telephonyApiKey: TELEPHONY_KEY });

  // The offline number is the flyer's, forwarded to the site's number.
  beforeAll(async () => {
    expect((await s.collector.get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', phone_number: '0123456789', description: 'Flyer', type: 6 })).body.status).toBe('success');
  });

  let refs = 0;
  async function flow(fields: Record<string, unknown>) {
    const res = await fetch(`${s.collector.baseUrl}/telephony/flow`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(fields) });
    return { status: res.status, body: (await res.json()) as any };
  }
  const stored = async (callRef: string) => (await s.t.c.calls.findOne({ callRef }))!;

  it('walks menu (2) → support in turn, nobody answers → voicemail; the recording and outcome reported as ever', async () => {
    const call = { callRef: `pbx-${++refs}`, trackingNumber: '0100000001', callerPhone: '0622000001' };
    const first = await flow(call);
    expect(first.body).toEqual({
      status: 'OK',
      callId: expect.any(Number),
      step: 'menu:0',
      actions: [
        { action: 'say', text: 'Press 1 for sales, 2 for support.', language: 'fr-FR' },
        { action: 'gather', digits: 1, timeout: 5, keys: ['1', '2'], words: [] },
      ],
    });
    const support = await flow({ ...call, step: first.body.step, input: '2' });
    expect(support.body).toMatchObject({ step: 'support:0', actions: [{ action: 'dial', targets: [{ number: '0611000001', name: ADA.username }, { number: '0611000003', name: CY.username }], strategy: 'sequential', seconds: 20 }] });
    const voicemail = await flow({ ...call, step: support.body.step, input: 'no-answer', seconds: 40 });
    expect(voicemail.body).toMatchObject({ step: 'voicemail:0', actions: [{ action: 'say' }, { action: 'record', seconds: 90 }] });
    const done = await flow({ ...call, step: voicemail.body.step, input: 'recorded', seconds: 12 });
    expect(done.body).toMatchObject({ step: null, actions: [{ action: 'hangup' }] });
    const upload = await fetch(`${s.collector.baseUrl}/telephony/calls/${first.body.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(toneWav(12)) });
    expect(upload.status).toBe(200);
    const stored1 = await stored(call.callRef);
    expect(stored1).toMatchObject({ status: 'NORESPONSE', voicemail: true, recording: { status: 'stored' } });
    expect(stored1.flowPath!.map((e) => `${e.step}: ${e.outcome}`)).toEqual(['hours: open ' + stored1.flowPath![0]!.outcome.slice(5), 'menu: prompt played', 'menu: pressed 2 (Support)', 'support: ring sequential', `support: ${ADA.username}, ${CY.username} did not answer (40 s)`, 'voicemail: voicemail', 'voicemail: voicemail left (12 s)']);
  });

  it('keeps who answered, and refuses a step of a call it does not know', async () => {
    const call = { callRef: `pbx-${++refs}`, trackingNumber: '0100000001', callerPhone: '0622000002' };
    const first = await flow(call);
    const sales = await flow({ ...call, step: first.body.step, input: '1' });
    expect(sales.body.actions[0].targets.map((t: any) => t.number)).toEqual(['0611000001', '0611000002']);
    const answered = await flow({ ...call, step: sales.body.step, input: 'answered', answeredBy: '0611000002' });
    expect(answered.body.actions).toEqual([{ action: 'hangup' }]);
    await reportCall(s.collector.baseUrl, { callRef: call.callRef, trackingNumber: '0100000001', callerPhone: '0622000002', startDate: (await stored(call.callRef)).startedAt, status: 'SUCCESS', duration: 30 });
    expect(await stored(call.callRef)).toMatchObject({ status: 'SUCCESS', answeredBy: { member: BEN.username, number: '0611000002' } });
    const unknown = await flow({ callRef: 'pbx-never', trackingNumber: '0100000001', step: 'menu:0', input: '1' });
    expect(unknown).toEqual({ status: 404, body: { status: 'ERROR', error: 'No call pbx-never to this number: its first request names no step' } });
  });

  it('turns round robin by the weights over 30 calls, and gives 20 calls arriving at once each their own turn', async () => {
    const firstLeg = async (caller: string | null) => (await flow({ callRef: `pbx-${++refs}`, trackingNumber: '0800000001', ...(caller ? { callerPhone: caller } : {}) })).body.actions[0].targets[0].name as string;
    const count = (names: string[]) => names.reduce<Record<string, number>>((n, name) => ({ ...n, [name]: (n[name] ?? 0) + 1 }), {});
    // Anonymous callers: no sticky answerer.
    const one = [];
    for (let i = 0; i < 30; i++) one.push(await firstLeg(null));
    const weights = count(one);
    expect(Math.abs(weights[ADA.username]! - 15)).toBeLessThanOrEqual(1);
    expect(Math.abs(weights[BEN.username]! - 7.5)).toBeLessThanOrEqual(1);
    expect(Math.abs(weights[CY.username]! - 7.5)).toBeLessThanOrEqual(1);
    // 20 at once (one cycle is 4 turns: Ada twice, Ben, Cy): exactly 10, 5, 5.
    const burst = await Promise.all(Array.from({ length: 20 }, () => firstLeg(null)));
    expect(count(burst)).toEqual({ [ADA.username]: 10, [BEN.username]: 5, [CY.username]: 5 });
  });

  it('rings a sticky caller’s last answerer first, whatever the turn', async () => {
    const caller = '0622000099';
    const call = { callRef: `pbx-${++refs}`, trackingNumber: '0800000002', callerPhone: caller };
    const first = await flow(call);
    await flow({ ...call, step: first.body.step, input: 'answered', answeredBy: '0611000003' });
    for (let i = 0; i < 3; i++) {
      const again = await flow({ callRef: `pbx-${++refs}`, trackingNumber: '0800000003', callerPhone: caller });
      expect(again.body.actions[0].targets[0].name).toBe(CY.username);
    }
  });

  it('answers /telephony/route as before for a number without a flow, and flow: true with the first phone for one', async () => {
    await s.t.c.callFlows.updateOne({ name: 'Sales team' }, { $set: { 'assignedTo.pools': [] } });
    const plain = await routeCall(s.collector.baseUrl, { tracking_number: '0800000001' });
    expect(plain.body).toEqual({ status: 'OK', trackingNumber: '0800000001', destination: '0123456789', reason: 'not-assigned', forcedStatus: 'NOTASSIGNED', redirect: null, whisper: null, recording: null });
    const flowing = await routeCall(s.collector.baseUrl, { tracking_number: '0100000001' });
    // Nobody pressing anything at the menu goes to the voicemail: no phone rings.
    expect(flowing.body).toEqual({ status: 'OK', trackingNumber: '0100000001', destination: null, reason: 'offline', forcedStatus: null, redirect: null, whisper: null, recording: null, flow: true });
    await s.t.c.callFlows.updateOne({ name: 'Sales team' }, { $set: { 'assignedTo.pools': [1] } });
    const team = await routeCall(s.collector.baseUrl, { tracking_number: '0800000001' });
    expect(team.body).toMatchObject({ destination: expect.stringMatching(/^061100000[123]$/), flow: true });
  });
});

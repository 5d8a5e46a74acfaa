// Every way a call through a flow can end, for both adapters (issue 80), read back as a user reads
// them: the data API's record, the overview's counts, the calls log's `ended` filter, the flows
// report's who-answered table, and the missed-call mails in a real SMTP sink. Twilio's inbound leg
// of a flow call is always `completed` (Twilio answered it); a PBX says SUCCESS for the same reason:
// neither makes a call answered. A caller who hangs up in the menu is abandoned (NORESPONSE, where
// and after how long), no lead; one whose group rang out and who hangs up at the greeting is missed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toneWav } from '../helpers/wav.ts';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { alertingOptions, useMailedCollector, type MailedCollector } from '../helpers/mailed-collector.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { TELEPHONY_KEY, TWILIO_TOKEN, twilioPost } from '../helpers/telephony.ts';
import { daysAroundNow } from '../helpers/days.ts';

const OWNER = { username: 'owner@plumber.test', password: 'endings owner password' };
const ADA = { username: 'ada@plumber.test', password: 'endings ada password', role: 'agent', domains: ['shop.test'], phone: '0611000001' };
const OFFLINE = '0100000001';
const FLOW = {
  name: 'Plumber line',
  start: 'menu',
  assignedTo: { numbers: [OFFLINE] },
  steps: {
    menu: { kind: 'menu', name: 'Main menu', prompt: { text: 'Press 1 for the team, 2 for the office.' }, options: [{ key: '1', label: 'Team', next: 'team' }, { key: '2', label: 'Office', next: 'office' }], default: 'voicemail' },
    team: { kind: 'ring', name: 'Sales team', strategy: 'simultaneous', targets: [{ member: ADA.username }], ringSeconds: 15, noAnswer: 'voicemail' },
    office: { kind: 'forward', name: 'Office line' },
    voicemail: { kind: 'voicemail', name: 'Voicemail', maxSeconds: 60 },
  },
};
const fixture = () => trackingFixture({ users: [OWNER, ADA] as never, settings: { callFlows: [FLOW] } });

/** The callers, one per way a call ends. */
const CALLERS = { menuHangUp: '0622800001', greetingHangUp: '0622800002', voicemail: '0622800003', groupAnswered: '0622800004', forwardAnswered: '0622800005', forwardMissed: '0622800006' };
const written = (national: string) => national.replace(/(\d\d)(?=\d)/g, '$1 ');

async function assign(m: MailedCollector) {
  const assigned = await m.collector.get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', phone_number: '0123456789', description: 'Van', type: 6 });
  expect(assigned.body.status).toBe('success');
}

/** Each caller's data API record, by their number. */
async function records(m: MailedCollector): Promise<Record<keyof typeof CALLERS, any>> {
  const { from, to } = daysAroundNow();
  const res = await m.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100 });
  const byCaller = new Map((res.body.results as any[]).map((r) => [r.caller, r]));
  return Object.fromEntries(Object.entries(CALLERS).map(([name, phone]) => [name, byCaller.get(phone)])) as never;
}

/** What every reader shows of the six calls, whichever adapter carried them. */
async function readsBack(m: MailedCollector) {
  const r = await records(m);
  expect(r.menuHangUp).toMatchObject({ status: 'NORESPONSE', outcome: 'abandoned', abandoned: { step: 'menu', name: 'Main menu', kind: 'menu', seconds: 41 }, duration: 41, answered_by: null, lead: false });
  expect(r.greetingHangUp).toMatchObject({ status: 'NORESPONSE', duration: 0, answered_by: null, lead: false });
  expect(r.greetingHangUp).not.toHaveProperty('outcome');
  expect(r.voicemail).toMatchObject({ status: 'NORESPONSE', outcome: 'voicemail', duration: 45, lead: false });
  expect(r.groupAnswered).toMatchObject({ status: 'SUCCESS', duration: 42, answered_by: ADA.username, lead: true });
  expect(r.forwardAnswered).toMatchObject({ status: 'SUCCESS', duration: 35, lead: true });
  expect(r.forwardMissed).toMatchObject({ status: 'NORESPONSE', duration: 0, lead: false });
  expect(r.menuHangUp.flow_path.map((e: any) => e.name)).toEqual(['Main menu']);

  const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
  const overview = (await owner.get('/domains/shop.test/reports/overview')).body;
  expect(overview.totals).toMatchObject({ calls: 6, answered: 2, missed: 2, abandoned: 1, voicemails: 1, leads: 2 });
  const log = async (ended: string) => ((await owner.get(`/domains/shop.test/reports/calls?ended=${ended}`)).body.calls as any[]).map((c) => c.caller).sort();
  expect(await log('answered')).toEqual([CALLERS.groupAnswered, CALLERS.forwardAnswered].sort());
  expect(await log('missed')).toEqual([CALLERS.greetingHangUp, CALLERS.forwardMissed].sort());
  expect(await log('abandoned')).toEqual([CALLERS.menuHangUp]);
  expect(await log('voicemail')).toEqual([CALLERS.voicemail]);
  expect((await owner.get('/domains/shop.test/reports/calls?ended=hung-up')).status).toBe(400);
  const abandonedRow = (await owner.get('/domains/shop.test/reports/calls?ended=abandoned')).body.calls[0];
  expect(abandonedRow).toMatchObject({ status: 'NORESPONSE', outcome: 'abandoned', abandoned: { step: 'menu', name: 'Main menu', seconds: 41 } });

  const flows = (await owner.get('/domains/shop.test/reports/flows')).body;
  expect(flows).toMatchObject({ calls: 6, voicemails: 1, nobody: { missed: 2, abandoned: 1, voicemail: 1 } });
  expect(flows.answeredBy).toEqual([{ name: ADA.username, member: true, calls: 1, averageAnswerSeconds: expect.any(Number) }]);

  // The missed-call mails: the group that rang out then the greeting hang-up, the forward nobody
  // answered, the voicemail, and the abandoned call (where and after how long); never the answered ones.
  await expect.poll(() => mailText(m), { timeout: 20_000 }).toContain(written(CALLERS.greetingHangUp));
  await expect.poll(() => [CALLERS.forwardMissed, CALLERS.voicemail, CALLERS.menuHangUp].every((c) => mailText(m).includes(written(c))), { timeout: 20_000 }).toBe(true);
  expect(mailText(m)).toContain('Abandoned: the caller hung up at Main menu after 41 s, before any phone rang');
  expect(mailText(m)).not.toContain(written(CALLERS.groupAnswered));
  expect(mailText(m)).not.toContain(written(CALLERS.forwardAnswered));
}
const mailText = (m: MailedCollector) => m.inbox.messages.map((mail) => `${mail.subject}\n${mail.text}`).join('\n');

describe('how a flow call ends, on Twilio', () => {
  const ACCOUNT_SID = 'AC00000000000000000000000000000080';
  const m = useMailedCollector('flow_endings_twilio', fixture(), { ...alertingOptions('https://calls.plumber.test'), twilio: { authToken: TWILIO_TOKEN } });
  beforeAll(() => assign(m));
  // Twilio's media URL of the voicemail's recording (the account's SID and token, HTTP basic).
  let media: http.Server;
  let mediaUrl = '';
  beforeAll(async () => {
    const wav = toneWav(29);
    media = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': wav.length }).end(wav));
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings`;
  });
  afterAll(() => new Promise<void>((resolve) => media.close(() => resolve())));

  const twimlOf = (text: string) => new JSDOM(text, { contentType: 'text/xml' }).window.document;
  let sids = 0;
  function call(from: string) {
    const sid = `CA-end-${++sids}`;
    const to = `+33${OFFLINE.slice(1)}`;
    const caller = `+33${from.slice(1)}`;
    const base = { AccountSid: ACCOUNT_SID, CallSid: sid, From: caller, To: to, Caller: caller, Called: to, Direction: 'inbound', ApiVersion: '2010-04-01' };
    const post = async (path: string, params: Record<string, string>) => {
      const res = await twilioPost(m.collector.baseUrl, path, { ...base, ...params });
      expect(res.status).toBe(200);
      return twimlOf(res.text);
    };
    const action = (doc: Document, verb: string) => `/${doc.querySelector(`Response > ${verb}`)!.getAttribute('action')}`;
    return {
      voice: () => post('/voice', { CallStatus: 'ringing' }),
      pressed: (doc: Document, digits: string) => post(action(doc, 'Gather'), { CallStatus: 'in-progress', Digits: digits }),
      dialEnded: (doc: Document, status: string, seconds = 0) => post(action(doc, 'Dial'), { CallStatus: 'in-progress', DialCallSid: `${sid}-leg`, DialCallStatus: status, DialCallDuration: String(seconds) }),
      legAnswered: (doc: Document) => post(`/${doc.querySelector('Dial > Number')!.getAttribute('url')}`, { CallSid: `${sid}-leg`, ParentCallSid: sid, Direction: 'outbound-dial', CallStatus: 'in-progress' }),
      recorded: async (doc: Document, seconds: number) => {
        const recording = { RecordingUrl: `${mediaUrl}/RE${sid}`, RecordingDuration: String(seconds), RecordingSid: `RE${sid}` };
        await post(action(doc, 'Record'), { CallStatus: 'in-progress', ...recording });
        await post('/recording', { ...recording, RecordingStatus: 'completed', RecordingChannels: '1', RecordingSource: 'RecordVerb' });
      },
      // The inbound leg ended: `completed` whatever happened in the flow.
      ended: (seconds: number) => post('/status', { CallStatus: 'completed', CallDuration: String(seconds) }),
    };
  }

  it('counts each way a call ends as it happened', async () => {
    const menuHangUp = call(CALLERS.menuHangUp);
    await menuHangUp.voice();
    await menuHangUp.ended(41);

    const greeting = call(CALLERS.greetingHangUp);
    const team = await greeting.pressed(await greeting.voice(), '1');
    const voicemail = await greeting.dialEnded(team, 'no-answer');
    expect(voicemail.querySelector('Response > Record')).not.toBeNull();
    await greeting.ended(22);

    const message = call(CALLERS.voicemail);
    const record = await message.dialEnded(await message.pressed(await message.voice(), '1'), 'no-answer');
    await message.recorded(record, 29);
    await message.ended(45);

    const answered = call(CALLERS.groupAnswered);
    const ring = await answered.pressed(await answered.voice(), '1');
    await answered.legAnswered(ring);
    await answered.dialEnded(ring, 'completed', 42);
    await answered.ended(60);

    const office = call(CALLERS.forwardAnswered);
    const forward = await office.pressed(await office.voice(), '2');
    expect(forward.querySelector('Response > Dial > Number')!.textContent).toBe('+33123456789');
    await office.dialEnded(forward, 'completed', 35);
    await office.ended(50);

    const missed = call(CALLERS.forwardMissed);
    await missed.dialEnded(await missed.pressed(await missed.voice(), '2'), 'no-answer');
    await missed.ended(30);

    await readsBack(m);
  });
});

describe('how a flow call ends, on a PBX', () => {
  const m = useMailedCollector('flow_endings_pbx', fixture(), { ...alertingOptions('https://calls.plumber.test'), telephonyApiKey: TELEPHONY_KEY });
  beforeAll(() => assign(m));

  let refs = 0;
  const post = async (path: string, fields: Record<string, unknown>) => {
    const res = await fetch(`${m.collector.baseUrl}/telephony/${path}`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(fields) });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  function call(caller: string) {
    const c = { callRef: `pbx-end-${++refs}`, trackingNumber: OFFLINE, callerPhone: caller };
    return {
      first: () => post('flow', c),
      next: (answer: { step: string }, input: string, more: Record<string, unknown> = {}) => post('flow', { ...c, step: answer.step, input, ...more }),
      // The PBX's end of the call, as ever, but without the start it never gave (the flow door recorded it).
      reported: (status: string, duration: number) => post('calls', { ...c, status, duration }),
    };
  }

  it('counts each way a call ends as it happened', async () => {
    // The caller hangs up in the menu: the PBX says so at the step it waited on.
    const menuHangUp = call(CALLERS.menuHangUp);
    const menu = await menuHangUp.first();
    expect(menu.step).toBe('menu:0');
    expect(await menuHangUp.next(menu, 'hangup', { seconds: 41 })).toMatchObject({ step: null, actions: [] });
    // …and its CDR says ANSWERED (the PBX answered the call): it stays abandoned.
    await menuHangUp.reported('SUCCESS', 41);

    const greeting = call(CALLERS.greetingHangUp);
    const team = await greeting.next(await greeting.first(), '1');
    const voicemail = await greeting.next(team, 'no-answer', { seconds: 15 });
    expect(voicemail.step).toBe('voicemail:0');
    await greeting.next(voicemail, 'hangup', { seconds: 22 });

    const message = call(CALLERS.voicemail);
    const record = await message.next(await message.next(await message.first(), '1'), 'no-answer', { seconds: 15 });
    const recorded = await message.next(record, 'recorded', { seconds: 29 });
    expect(recorded).toMatchObject({ step: null });
    const upload = await fetch(`${m.collector.baseUrl}/telephony/calls/${recorded.callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(toneWav(29)) });
    expect(upload.status).toBe(200);
    await message.reported('SUCCESS', 45);

    const answered = call(CALLERS.groupAnswered);
    const ring = await answered.next(await answered.first(), '1');
    await answered.next(ring, 'answered', { answeredBy: ADA.phone, seconds: 8 });
    await answered.reported('SUCCESS', 42);

    const office = call(CALLERS.forwardAnswered);
    const forward = await office.next(await office.first(), '2');
    expect(forward).toMatchObject({ step: null, actions: [{ action: 'dial', targets: [{ number: '0123456789' }] }] });
    await office.reported('SUCCESS', 35);

    const missed = call(CALLERS.forwardMissed);
    await missed.next(await missed.first(), '2');
    await missed.reported('NORESPONSE', 0);

    await readsBack(m);
  });

  it('refuses a first report without its start', async () => {
    const res = await fetch(`${m.collector.baseUrl}/telephony/calls`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ callRef: 'never-seen', trackingNumber: OFFLINE, callerPhone: '0622800099', status: 'SUCCESS' }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'ERROR', error: 'Missing parameter startDate: only a later report of a call already reported may leave it out' });
  });
});

// A domain's calls and forms in HubSpot (issue 67), through the official client pointed at the CRM v3
// stand-in: the connection checked (a refused token keeps nothing) and sealed; a first-time caller
// makes one contact and one call, the same caller a second call on the same contact; a retry after a
// lost answer makes nothing twice; a verdict later updates the same call; a form then a call of one
// person land on one contact (the form as a note); the owner mapped by the answerer's e-mail; a 429
// waits its Retry-After; a refused token breaks the connection, and its test mends it. Issue 80: a
// recording stored later reaches the same call as a signed HTTPS link that plays; a call is upserted
// by our id, never searched for; a person is found however their phone was typed.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { wireWrites } from '../../collector/src/house/writes.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { startHubSpot } from '../helpers/hubspot-stand-in.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';
import { toneWav } from '../helpers/wav.ts';

const hs = await startHubSpot();
afterAll(() => hs.close());
const OWNER = { username: 'ada@acme.example', password: 'crm hubspot password' };
/** Where the collector says it is: HubSpot plays only an HTTPS link. */
const PUBLIC_URL = 'https://calls.shop.test';
const s = useSeededCollector('crm_hubspot', trackingFixture({ users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } }), {
  telephonyApiKey: TELEPHONY_KEY,
  secretsKey: randomBytes(32),
  hubspotApiBase: hs.base,
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false },
  metricsKey: 'crm-metrics-key',
  publicUrl: PUBLIC_URL,
});

let owner: ManageClient;
let calls = 0;
async function call(callerPhone: string, duration = 95): Promise<number> {
  const { body } = await reportCall(s.collector.baseUrl, { callRef: `crm-${++calls}`, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration, callerPhone });
  return body.callId as number;
}
/** Waits until the outbox has delivered everything queued for the CRM. */
const settled = () => until(async () => (await s.t.c.outbox.countDocuments({ kind: 'crm' })) === 0, 'the CRM deliveries done');
const delivery = (kind: string, id: number) => s.t.c.crmDeliveries.findOne({ _id: `hubspot|shop.test|${kind}:${id}` });

describe('HubSpot', () => {
  it('refuses a token HubSpot refuses, with its words, and keeps nothing; takes a good one, sealed, and makes our properties', async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const refused = await owner.call('PUT', '/domains/shop.test/crm/hubspot', { accessToken: 'pat-na1-wrong-token-0000' });
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringContaining('HubSpot refuses the token (401): Authentication credentials not found') } });
    expect(await s.t.c.crmConnections.countDocuments()).toBe(0);
    const connected = await owner.call('PUT', '/domains/shop.test/crm/hubspot', { accessToken: hs.token, send: { calls: true, forms: true, onlyLeads: false, onlyFirstCallers: false }, defaultOwner: '7002' });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ crm: 'hubspot', connected: true, account: 'HubSpot portal 12345678', credentials: 'private app token …5555', defaultOwner: '7002', broken: null });
    expect(JSON.stringify((await owner.get('/domains/shop.test/crm/hubspot')).body)).not.toContain(hs.token);
    expect((await s.t.c.crmConnections.findOne({}))!.secret).not.toContain(hs.token);
    expect(hs.properties.contacts!.map((p) => p.name)).toEqual(expect.arrayContaining(['ringtrail_first_source', 'ringtrail_first_campaign']));
    expect(hs.properties.calls!.map((p) => p.name)).toEqual(['ringtrail_id']);
  });

  it('makes one contact and one call for a first-time caller, and a second call on the same contact when they call again', async () => {
    const first = await call('0612121212');
    await settled();
    expect(hs.objects.contacts).toHaveLength(1);
    const contact = hs.objects.contacts[0]!;
    expect(contact.properties).toMatchObject({ phone: '+33612121212', hs_lead_status: 'NEW', hubspot_owner_id: '7002' });
    expect(hs.objects.calls).toHaveLength(1);
    expect(hs.objects.calls[0]).toMatchObject({ associations: [{ to: `contacts:${contact.id}`, typeId: 194 }], properties: { ringtrail_id: `shop.test:call:${first}`, hs_call_direction: 'INBOUND', hs_call_duration: '95000', hs_call_status: 'COMPLETED', hs_call_from_number: '+33612121212', hs_call_to_number: '+33100000001' } });
    expect(hs.objects.calls[0]!.properties.hs_call_body).toContain('Source: unattributed');
    expect(await delivery('call', first)).toMatchObject({ state: 'sent', records: [{ object: 'contact', id: contact.id, link: `https://app.hubspot.com/contacts/12345678/record/0-1/${contact.id}` }, { object: 'call', id: hs.objects.calls[0]!.id }] });
    // The person keeps the contact's id; the data API says where the call is.
    const person = await s.t.c.people.findOne({ _id: (await s.t.c.calls.findOne({ _id: first }))!.personId! });
    expect(person!.crmRefs).toEqual({ hubspot: contact.id });
    const { from, to } = daysAroundNow();
    const records = (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 50 })).body.results as { call_id: number; crm?: unknown }[];
    expect(records.find((r) => r.call_id === first)!.crm).toEqual([{ crm: 'hubspot', object: 'contact', id: contact.id, state: 'sent' }, { crm: 'hubspot', object: 'call', id: hs.objects.calls[0]!.id, state: 'sent' }]);

    const again = await call('0612121212', 30);
    await settled();
    expect(hs.objects.contacts).toHaveLength(1);
    expect(hs.objects.calls).toHaveLength(2);
    expect(hs.objects.calls[1]).toMatchObject({ associations: [{ to: `contacts:${contact.id}` }], properties: { ringtrail_id: `shop.test:call:${again}` } });
  });

  it('makes nothing twice when an answer is lost, and updates the same call when a verdict comes later', async () => {
    hs.faults.push({ when: 'POST /crm/v3/objects/contacts', fault: { kind: 'drop' } }, { when: 'POST /crm/v3/objects/calls', fault: { kind: 'drop' } });
    const lost = await call('0699887766');
    await settled();
    expect(hs.objects.contacts.filter((c) => c.properties.phone === '+33699887766')).toHaveLength(1);
    expect(hs.objects.calls.filter((c) => c.properties.ringtrail_id === `shop.test:call:${lost}`)).toHaveLength(1);
    expect(hs.faults).toEqual([]);

    const callsBefore = hs.objects.calls.length;
    expect((await owner.call('PUT', `/domains/shop.test/calls/${lost}/verdict`, { verdict: 'not-lead' })).status).toBe(200);
    await settled();
    expect(hs.objects.calls).toHaveLength(callsBefore);
    expect(hs.objects.calls.find((c) => c.properties.ringtrail_id === `shop.test:call:${lost}`)!.properties.hs_call_body).toContain('Verdict: not-lead');
    expect(await delivery('call', lost)).toMatchObject({ state: 'updated' });
  });

  it("lists a person's records in HubSpot when they are erased here, and sends them no more", async () => {
    const lost = (await s.t.c.calls.findOne({ caller: '0699887766' }))!;
    const contact = hs.objects.contacts.find((c) => c.properties.phone === '+33699887766')!;
    const made = hs.objects.calls.find((c) => c.properties.ringtrail_id === `shop.test:call:${lost._id}`)!;
    const erased = await owner.call('DELETE', `/domains/shop.test/people/${lost.personId}`);
    expect(erased.status).toBe(200);
    expect(erased.body.crm).toEqual([
      { crm: 'hubspot', object: 'contact', id: contact.id, link: `https://app.hubspot.com/contacts/12345678/record/0-1/${contact.id}` },
      { crm: 'hubspot', object: 'call', id: made.id, link: `https://app.hubspot.com/contacts/12345678/record/0-48/${made.id}` },
    ]);
    const requests = hs.requests.length;
    await owner.call('PUT', `/domains/shop.test/calls/${lost._id}/verdict`, { verdict: 'lead' });
    await settled();
    expect(hs.requests.length).toBe(requests);
  });

  it('puts a form and then a call of one person on one contact, the form as a note, and the owner who answered by e-mail', async () => {
    const sent = await (await browserPost(s.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify({ email: 'grace@example.com', phone: '06 55 44 33 22', message: 'Please call me back' }), elapsed_ms: 9000 })).json();
    await settled();
    const contact = hs.objects.contacts.find((c) => c.properties.email === 'grace@example.com')!;
    expect(contact.properties.phone).toBe('+33655443322');
    expect(hs.objects.notes).toEqual([expect.objectContaining({ associations: [{ to: `contacts:${contact.id}`, typeId: 202 }], properties: expect.objectContaining({ ringtrail_id: `shop.test:form:${sent.formId}`, hs_note_body: expect.stringContaining('message: Please call me back') }) })]);
    const contacts = hs.objects.contacts.length;
    const later = await call('0655443322');
    // A call flow's ring group: Ada answered it.
    await wireWrites(s.t.c, { publicUrl: s.collector.baseUrl }).writes.change(later, () => ({ answeredBy: { member: OWNER.username, number: '0611111111', name: 'Ada' } }));
    await settled();
    expect(hs.objects.contacts).toHaveLength(contacts);
    const made = hs.objects.calls.find((c) => c.properties.ringtrail_id === `shop.test:call:${later}`)!;
    expect(made).toMatchObject({ associations: [{ to: `contacts:${contact.id}` }], properties: { hubspot_owner_id: '7001' } });
  });

  it('keeps a delivery HubSpot refuses for good as failed, with its words, once, and sends it again on request', async () => {
    hs.faults.push({ when: 'POST /crm/v3/objects/calls', fault: { kind: '400', message: 'Property values were not valid: hs_call_duration' } });
    const refused = await call('0622334455');
    // The delivery is kept failed, then marked on the call.
    await until(async () => Boolean((await s.t.c.calls.findOne({ _id: refused }))!.crmRecords?.some((r) => r.state === 'failed')), 'the call marked failed');
    expect(await delivery('call', refused)).toMatchObject({ state: 'failed', error: 'HubSpot answered 400: Property values were not valid: hs_call_duration' });
    expect((await s.t.c.calls.findOne({ _id: refused }))!.crmRecords).toEqual(expect.arrayContaining([expect.objectContaining({ crm: 'hubspot', object: 'call', state: 'failed', error: 'HubSpot answered 400: Property values were not valid: hs_call_duration' })]));
    // Counted once (its giving up marks it, then counts it).
    const scrape = async () => (await fetch(`${s.collector.baseUrl}/metrics`, { headers: { authorization: 'Bearer crm-metrics-key' } })).text();
    await expect.poll(async () => (await scrape()).split('\n').find((l) => l.startsWith('ringtrail_crm_sync_total{crm="hubspot",result="failed"}'))).toBe('ringtrail_crm_sync_total{crm="hubspot",result="failed"} 1');
    expect(await owner.call('POST', `/domains/shop.test/crm/hubspot/resend/call:${refused}`)).toMatchObject({ status: 202 });
    await settled();
    expect(await delivery('call', refused)).toMatchObject({ state: 'sent', error: null });
    // Still counted once, after its giving up and the delivery sent again.
    expect((await scrape()).split('\n')).toContain('ringtrail_crm_sync_total{crm="hubspot",result="failed"} 1');
  });

  it('says why a call from a withheld number is not sent', async () => {
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'crm-withheld', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 40, callerPhone: 'anonymous' });
    await settled();
    expect(await delivery('call', body.callId as number)).toMatchObject({ state: 'skipped', error: 'not sent: no number or e-mail to file it under', records: [] });
  });

  it('waits a 429 out, and breaks on a refused token until a test finds it works again', async () => {
    hs.faults.push({ when: 'POST /crm/v3/objects/calls', fault: { kind: '429', retryAfter: 30 } });
    const limited = await call('0677665544');
    await until(async () => Boolean(await s.t.c.outbox.findOne({ kind: 'crm', attempts: { $gte: 1 } })), 'the first attempt refused');
    const waiting = (await s.t.c.outbox.findOne({ kind: 'crm' }))!;
    expect(waiting.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(25_000);
    await s.t.c.outbox.updateOne({ _id: waiting._id }, { $set: { nextAttemptAt: new Date() } });
    await settled();
    expect(await delivery('call', limited)).toMatchObject({ state: 'sent' });

    hs.token = 'pat-na1-rotated-token';
    const refused = await call('0677665545');
    await until(async () => Boolean((await s.t.c.crmConnections.findOne({}))?.broken), 'the connection broken');
    const broken = (await owner.get('/domains/shop.test/crm/hubspot')).body;
    expect(broken.broken).toMatchObject({ error: expect.stringContaining('HubSpot refuses the token (401)') });
    // The card shows the call waiting behind the broken connection.
    expect(broken.deliveries.find((d: { id: string }) => d.id === `call:${refused}`)).toMatchObject({ state: 'queued', records: [] });
    hs.token = 'pat-na1-11111111-2222-3333-4444-555555555555';
    expect((await owner.call('POST', '/domains/shop.test/crm/hubspot/test')).body).toMatchObject({ connected: true, broken: null });
    await s.t.c.outbox.updateMany({ kind: 'crm' }, { $set: { nextAttemptAt: new Date() } });
    await settled();
    expect(await delivery('call', refused)).toMatchObject({ state: 'sent' });
    // The card's list: newest first; Send again queues one.
    const card = (await owner.get('/domains/shop.test/crm/hubspot')).body;
    expect(card.deliveries[0]).toMatchObject({ id: `call:${refused}`, state: 'sent' });
    expect(await owner.call('POST', `/domains/shop.test/crm/hubspot/resend/call:${refused}`)).toMatchObject({ status: 202 });
    await settled();
    expect(await delivery('call', refused)).toMatchObject({ state: 'updated' });
  });

  it('puts the recording stored after the call was sent on the same engagement, as a link HubSpot plays inline without a sign-in (issue 80)', async () => {
    expect((await owner.call('PATCH', '/domains/shop.test', { recording: { enabled: true } })).status).toBe(200);
    const callId = await call('0633221100', 64);
    await settled();
    const made = () => hs.objects.calls.filter((c) => c.properties.ringtrail_id === `shop.test:call:${callId}`);
    expect(made()).toHaveLength(1);
    expect(made()[0]!.properties.hs_call_recording_url).toBeUndefined();

    const wav = toneWav(64);
    const upload = await fetch(`${s.collector.baseUrl}/telephony/calls/${callId}/recording`, { method: 'POST', headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'audio/wav' }, body: new Uint8Array(wav) });
    expect(upload.status).toBe(200);
    await until(async () => Boolean(made()[0]!.properties.hs_call_recording_url), 'the recording on the engagement');
    await settled();
    expect(made()).toHaveLength(1);
    const link = made()[0]!.properties.hs_call_recording_url!;
    // HTTPS, ending as the file does, signed and time-limited: never the back end's page.
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/listen/${callId}\\.wav\\?until=\\d+&key=`));
    expect(Number(new URL(link).searchParams.get('until')) * 1000).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    expect(made()[0]!.properties.hs_call_body).toContain(`Recording: ${link.replaceAll('&', '&#38;')}`);
    const played = await fetch(link.replace(PUBLIC_URL, s.collector.baseUrl), { headers: { range: 'bytes=0-43' } });
    expect(played.status).toBe(206);
    expect(Buffer.from(await played.arrayBuffer()).equals(wav.subarray(0, 44))).toBe(true);
    expect(await delivery('call', callId)).toMatchObject({ state: 'updated' });
  });

  it('makes a call once without searching for it, even when the answer to its creation is lost (issue 80)', async () => {
    const searches = () => hs.requests.filter((r) => r.path.startsWith('/crm/v3/objects/calls/search')).length;
    const before = searches();
    hs.faults.push({ when: 'POST /crm/v3/objects/calls/batch/upsert', fault: { kind: 'drop' } });
    const lost = await call('0633221199');
    await settled();
    const made = hs.objects.calls.filter((c) => c.properties.ringtrail_id === `shop.test:call:${lost}`);
    expect(made).toHaveLength(1);
    const contact = hs.objects.contacts.find((c) => c.properties.phone === '+33633221199')!;
    expect(made[0]!.associations).toEqual([{ to: `contacts:${contact.id}`, typeId: 194 }]);
    expect(hs.faults).toEqual([]);
    expect(searches()).toBe(before);
    // The retry found it made (HubSpot's upsert said it was not new): kept as updated.
    expect(await delivery('call', lost)).toMatchObject({ state: 'updated', records: [{ object: 'contact', id: contact.id }, { object: 'call', id: made[0]!.id }] });
  });

  it('finds the person whichever way their phone was typed in HubSpot (issue 80)', async () => {
    const typed = ['06 44 00 02 11', '+33 6 44 00 03 11', '06.44.00.04.11', '+33 (0)6 44 00 05 11'];
    const kept = typed.map((phone, i) => {
      const o = { id: String(9001 + i), properties: { phone } as Record<string, string | null>, associations: [], createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
      hs.objects.contacts.push(o);
      return o;
    });
    const contacts = hs.objects.contacts.length;
    for (const [i, caller] of ['0644000211', '0644000311', '0644000411', '0644000511'].entries()) {
      const callId = await call(caller, 40);
      await settled();
      expect(hs.objects.calls.find((c) => c.properties.ringtrail_id === `shop.test:call:${callId}`)!.associations, typed[i]).toEqual([{ to: `contacts:${kept[i]!.id}`, typeId: 194 }]);
    }
    expect(hs.objects.contacts).toHaveLength(contacts);
  });
});

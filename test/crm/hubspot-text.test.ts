// What RingTrail writes into HubSpot's rich-text fields (issue 79), tried as the attack was, through
// the official client pointed at the CRM v3 stand-in: a form whose message is markup lands in
// hs_note_body as the words it is, each line on its own line (<br>); a call's hs_call_body the
// same; "Send again" refuses what the first send would not send: a call placed from the back end,
// a form marked spam.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { wireWrites } from '../../collector/src/house/writes.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { startHubSpot } from '../helpers/hubspot-stand-in.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';

const hs = await startHubSpot();
afterAll(() => hs.close());
const OWNER = { username: 'ada@acme.example', password: 'crm hubspot text password' };
const s = useSeededCollector('crm_hubspot_text', trackingFixture({ users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } }), {
  telephonyApiKey: TELEPHONY_KEY,
  secretsKey: randomBytes(32),
  hubspotApiBase: hs.base,
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false },
});
const settled = () => until(async () => (await s.t.c.outbox.countDocuments({ kind: 'crm' })) === 0, 'the CRM deliveries done');
const MARKUP = '<img src=x onerror="alert(document.cookie)"> & <b>bold</b>';

describe("HubSpot's rich text", () => {
  it('escapes what a form or a call carries into hs_note_body and hs_call_body, with its line breaks', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/domains/shop.test/crm/hubspot', { accessToken: hs.token, send: { calls: true, forms: true, onlyLeads: false, onlyFirstCallers: false } })).status).toBe(200);
    const sent = await (await browserPost(s.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact?utm_source=<script>', fields: JSON.stringify({ email: 'mallory@example.com', message: `${MARKUP}\nsecond line` }), elapsed_ms: 9000 })).json();
    await settled();
    const note = hs.objects.notes.find((n) => n.properties.ringtrail_id === `shop.test:form:${sent.formId}`)!.properties.hs_note_body!;
    expect(note).not.toMatch(/<(img|b|script)\b/);
    expect(note).toContain('message: &#60;img src=x onerror=&#34;alert(document.cookie)&#34;&#62; &#38; &#60;b&#62;bold&#60;/b&#62;<br>second line');
    expect(note.split('<br>')[0]).toBe(`RingTrail form ${sent.formId}`);

    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'crm-text-1', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 30, callerPhone: '0612121299' });
    await wireWrites(s.t.c, { publicUrl: s.collector.baseUrl }).writes.change(body.callId, () => ({ tags: [MARKUP] }));
    await settled();
    const callBody = hs.objects.calls.find((c) => c.properties.ringtrail_id === `shop.test:call:${body.callId}`)!.properties.hs_call_body!;
    expect(callBody).not.toMatch(/<(img|b)\b/);
    expect(callBody).toContain('Tags: &#60;img src=x');
    expect(callBody.split('<br>')[0]).toBe('Source: unattributed');
  });

  it('refuses to send again a call placed from the back end, or a form marked spam', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const spam = await (await browserPost(s.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify({ email: 'robot@example.com' }), elapsed_ms: 100 })).json();
    await settled();
    expect(hs.objects.notes.some((n) => n.properties.ringtrail_id === `shop.test:form:${spam.formId}`)).toBe(false);
    expect(await owner.call('POST', `/domains/shop.test/crm/hubspot/resend/form:${spam.formId}`)).toMatchObject({ status: 409, body: { error: `Form ${spam.formId} is a submission marked spam (too-fast): the CRM is told of no spam` } });

    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'crm-text-placed', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 30, callerPhone: '0612121288' });
    await settled();
    // As click-to-call stores it: a call placed to the person.
    await s.t.c.calls.updateOne({ _id: body.callId }, { $set: { direction: 'outbound' } });
    const before = hs.requests.length;
    expect(await owner.call('POST', `/domains/shop.test/crm/hubspot/resend/call:${body.callId}`)).toMatchObject({ status: 409, body: { error: `Call ${body.callId} is a call placed from the back end: the CRM is told of calls received` } });
    expect(await s.t.c.outbox.countDocuments({ kind: 'crm' })).toBe(0);
    expect(hs.requests.length).toBe(before);
  });
});

// The Twilio adapter over HTTP, with requests signed as Twilio signs them; and the whole story:
// a page view, its tracking number, a call through Twilio, the call in /data-api with its attribution.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { TWILIO_TOKEN, twilioPost as signedPost } from '../helpers/telephony.ts';

describe('Twilio adapter', () => {
  const s = useSeededCollector('twilio', trackingFixture(), { twilio: { authToken: TWILIO_TOKEN } });

  const twilioPost = (path: string, params: Record<string, string>, token = TWILIO_TOKEN) => signedPost(s.collector.baseUrl, path, params, token);

  it('refuses a request not signed with the auth token, and records nothing', async () => {
    const forged = await twilioPost('/voice', { CallSid: 'CAforged', From: '+33611223344', To: '+33800000001' }, 'another-token');
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.text)).toEqual({ status: 'ERROR', error: 'Invalid X-Twilio-Signature' });
    expect(await s.t.c.calls.countDocuments()).toBe(0);
  });

  it('takes a call from the page view to the data API', async () => {
    const from = day(); // the call starts after this: a range from here to the day of each read holds it
    const view = await s.collector.post(
      '/ospView',
      viewParams({ url: 'https://shop.test/contact?utm_source=google&utm_medium=cpc&utm_term=plumber+paris', referer_url: 'https://www.google.com/' }),
    );
    const shown = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber as string;
    const e164 = `+33${shown.replaceAll('.', '').slice(1)}`;

    const voice = await twilioPost('/voice', { CallSid: 'CA100', From: '+33611223344', To: e164, CallStatus: 'ringing' });
    expect(voice.status).toBe(200);
    expect(voice.text).toContain('<Dial callerId="+33611223344" action="dial" method="POST" timeout="30"><Number>+33123456789</Number></Dial>');
    const ringing = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: day(), page: 1, limit: 10 });
    expect(ringing.body.total_results).toBe(0); // shown once it ends

    // The forwarded leg ends (Twilio requests the <Dial action>), then the inbound call does.
    const dialed = await twilioPost('/dial', { CallSid: 'CA100', From: '+33611223344', To: e164, CallStatus: 'in-progress', DialCallSid: 'CA101', DialCallStatus: 'completed', DialCallDuration: '75', DialBridged: 'true' });
    expect(dialed.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    const status = await twilioPost('/status', { CallSid: 'CA100', From: '+33611223344', To: e164, CallStatus: 'completed', CallDuration: '81' });
    expect(status.status).toBe(200);

    const res = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: day(), page: 1, limit: 10 });
    expect(res.body.total_results).toBe(1);
    expect(res.body.results[0]).toMatchObject({
      caller: '0611223344',
      tracking_number: shown.replaceAll('.', ''),
      phone: '0123456789',
      status: 'SUCCESS',
      duration: 75,
      billing_duration: 120,
      source: 'paid:google',
      keyword: 'plumber paris',
      url: 'https://shop.test/contact?utm_source=google&utm_medium=cpc&utm_term=plumber+paris',
      referer: 'https://www.google.com/',
      call_path: 'https://shop.test/contact?utm_source=google&utm_medium=cpc&utm_term=plumber+paris',
      visit_id: String(view.body.visitId),
      expired_redirect: false,
    });
  });

  it('maps Twilio outcomes onto the spec statuses', async () => {
    const outcomes = { busy: 'BUSY', 'no-answer': 'NORESPONSE', failed: 'ANOMALY', canceled: 'INTERRUPTED' };
    for (const [twilioStatus, status] of Object.entries(outcomes)) {
      const sid = `CA-${twilioStatus}`;
      await twilioPost('/voice', { CallSid: sid, From: '+33611223344', To: '+33800000002' });
      await twilioPost('/status', { CallSid: sid, From: '+33611223344', To: '+33800000002', CallStatus: 'in-progress' });
      expect((await s.t.c.calls.findOne({ callRef: sid }))?.status).toBeNull();
      await twilioPost('/status', { CallSid: sid, From: '+33611223344', To: '+33800000002', CallStatus: twilioStatus, CallDuration: '0' });
      // 0800000002 was never assigned: NOTASSIGNED whatever Twilio says.
      expect((await s.t.c.calls.findOne({ callRef: sid }))?.status).toBe('NOTASSIGNED');
    }
    const view = await s.collector.post('/ospView', viewParams({ phones: '0987654321' }));
    const number = view.body.surtaxPhones['0987654321'].surtaxPhoneNumber.replaceAll('.', '');
    await twilioPost('/voice', { CallSid: 'CA-busy-assigned', From: '+33611223344', To: `+33${number.slice(1)}` });
    await twilioPost('/status', { CallSid: 'CA-busy-assigned', CallStatus: 'busy', CallDuration: '0' });
    expect((await s.t.c.calls.findOne({ callRef: 'CA-busy-assigned' }))?.status).toBe('BUSY');
  });

  it('gathers the code of a shared number, then dials the visitor it picks', async () => {
    const first = await twilioPost('/voice', { CallSid: 'CA-coded', From: '+33611223344', To: '+33400000001' });
    expect(first.text).toMatch(/<Gather numDigits="4" action="\/telephony\/twilio\/voice" method="POST" timeout="8"><Say>Please enter the code/);
    expect(await s.t.c.calls.countDocuments({ callRef: 'CA-coded' })).toBe(0);
    const view = await s.collector.post('/ospView', viewParams({ type: 9, phones: '0987654321' }));
    const code = view.body.surtaxPhones['0987654321'].surtaxPhoneCode;
    const second = await twilioPost('/voice', { CallSid: 'CA-coded', From: '+33611223344', To: '+33400000001', Digits: code });
    expect(second.text).toContain('<Number>+33987654321</Number></Dial>');
    expect(await s.t.c.calls.findOne({ callRef: 'CA-coded' })).toMatchObject({ code, visitId: view.body.visitId });
  });

  it('records an SMS: plain text as a string, unicode as an array', async () => {
    await twilioPost('/sms', { MessageSid: 'SM1', From: '+33611223344', To: '+33800000001', Body: 'Call me back', NumSegments: '1' });
    await twilioPost('/sms', { MessageSid: 'SM2', From: '+33611223344', To: '+33800000001', Body: 'Rappel 📞', NumSegments: '1' });
    const stored = await s.t.c.sms.find({}).sort({ _id: 1 }).toArray();
    expect(stored.map((m) => m.message)).toEqual(['Call me back', ['Rappel 📞']]);
  });
});

function day(): string {
  return new Date().toISOString().slice(0, 10);
}

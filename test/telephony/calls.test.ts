// The telephony side over HTTP: routing, call and SMS reports, idempotency on the carrier's reference.
import { describe, expect, it } from 'vitest';
import { startCollector, useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { reportCall, routeCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const HOUR = 3600_000;

describe('telephony', () => {
  const s = useSeededCollector('telephony', trackingFixture(), { telephonyApiKey: TELEPHONY_KEY });
  const route = (query: Record<string, string>) => routeCall(s.collector.baseUrl, query);
  const sms = async (fields: Record<string, unknown>) => {
    const res = await fetch(`${s.collector.baseUrl}/telephony/sms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(fields),
    });
    return { status: res.status, body: await res.json() };
  };

  it('refuses a request without the platform key, and answers 403 when none is configured', async () => {
    const none = await fetch(`${s.collector.baseUrl}/telephony/calls`, { method: 'POST' });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ status: 'ERROR', error: 'Invalid or missing bearer key' });
    const wrong = await fetch(`${s.collector.baseUrl}/telephony/route?tracking_number=0800000001`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const unconfigured = await startCollector(s.t.db);
    try {
      const res = await fetch(`${unconfigured.baseUrl}/telephony/route?tracking_number=0800000001`, { headers: { authorization: `Bearer ${TELEPHONY_KEY}` } });
      expect(res.status).toBe(403);
    } finally {
      await unconfigured.close();
    }
    expect(await s.t.c.calls.countDocuments()).toBe(0);
  });

  it('lists every problem of a call report at once and stores nothing', async () => {
    const res = await fetch(`${s.collector.baseUrl}/telephony/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'trackingNumber=abc&startDate=2026-02-30%2010:00:00&status=OK&triggerType=7',
    });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    for (const part of ['Missing parameter callRef', 'Invalid parameter trackingNumber', 'Missing parameter callerPhone', 'Invalid parameter startDate', 'Invalid parameter status', 'Invalid parameter triggerType']) {
      expect(error).toContain(part);
    }
    expect(await s.t.c.calls.countDocuments()).toBe(0);
  });

  it('routes an assigned number to the page phone, attributed to the visit', async () => {
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/contact?gclid=G-1', client_data: undefined }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const answer = await route({ tracking_number: number });
    expect(answer.body).toEqual({ status: 'OK', trackingNumber: number, destination: '0123456789', reason: 'online', forcedStatus: null, visitId: view.body.visitId, redirect: null, whisper: null, recording: null });

    const call = await reportCall(s.collector.baseUrl, { callRef: 'pbx-1', trackingNumber: number, startDate: new Date() });
    expect(call).toEqual({ status: 200, body: { status: 'OK', callId: expect.any(Number) } });
    const stored = await s.t.c.calls.findOne({ _id: call.body.callId });
    expect(stored).toMatchObject({ destination: '0123456789', visitId: view.body.visitId, viewId: view.body.viewId, gclid: 'G-1', source: 'paid', status: 'SUCCESS', route: 'online' });
  });

  it('updates the call of a re-sent callRef, never duplicates it, even when sent twice at once', async () => {
    const startDate = new Date(Date.now() - 1000);
    const first = await Promise.all([1, 2, 3].map(() => reportCall(s.collector.baseUrl, { callRef: 'pbx-twice', trackingNumber: '0800000002', startDate, status: 'NORESPONSE' })));
    expect(new Set(first.map((r) => r.body.callId)).size).toBe(1);
    const again = await reportCall(s.collector.baseUrl, { callRef: 'pbx-twice', trackingNumber: '0800000002', startDate, status: 'NORESPONSE', duration: 12, revenue: '0.35' });
    expect(again.body.callId).toBe(first[0]!.body.callId);
    const calls = await s.t.c.calls.find({ callRef: 'pbx-twice' }).toArray();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ duration: 12, revenue: 0.35 });
  });

  it('forwards a number that expired lately to its last visitor, and an older one as EXPIRED', async () => {
    const view = await s.collector.post('/ospView', viewParams({ expiration: 60 }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const late = await reportCall(s.collector.baseUrl, { callRef: 'pbx-late', trackingNumber: number, startDate: new Date(Date.now() + 2 * HOUR) });
    expect(await s.t.c.calls.findOne({ _id: late.body.callId })).toMatchObject({ route: 'expired', expiredRedirect: true, visitId: view.body.visitId, status: 'SUCCESS', destination: '0123456789' });
    const old = await reportCall(s.collector.baseUrl, { callRef: 'pbx-old', trackingNumber: number, startDate: new Date(Date.now() + 48 * HOUR) });
    expect(await s.t.c.calls.findOne({ _id: old.body.callId })).toMatchObject({ route: 'expired', expiredRedirect: true, visitId: null, status: 'EXPIRED', destination: '0123456789' });
  });

  it('marks a number never assigned NOTASSIGNED and sends it to the site phone', async () => {
    const answer = await route({ tracking_number: '08 00 00 00 03' });
    expect(answer.body).toMatchObject({ destination: '0123456789', reason: 'not-assigned', forcedStatus: 'NOTASSIGNED' });
    const call = await reportCall(s.collector.baseUrl, { callRef: 'pbx-na', trackingNumber: '0800000003', startDate: new Date(Date.now() - 10 * HOUR) });
    expect(await s.t.c.calls.findOne({ _id: call.body.callId })).toMatchObject({ status: 'NOTASSIGNED', visitId: null });
  });

  it('asks for the code of a shared number, and the code picks the visitor', async () => {
    expect((await route({ tracking_number: '0400000001' })).body).toMatchObject({ destination: null, reason: 'code-required', codeDigits: 4 });
    const view = await s.collector.post('/ospView', viewParams({ type: 9, phones: '0987654321' }));
    const { surtaxPhoneCode } = view.body.surtaxPhones['0987654321'];
    expect((await route({ tracking_number: '0400000001', code: surtaxPhoneCode })).body).toMatchObject({ destination: '0987654321', reason: 'online', visitId: view.body.visitId });
    const wrongCode = String((Number(surtaxPhoneCode) + 1) % 10000).padStart(4, '0');
    expect((await route({ tracking_number: '0400000001', code: wrongCode })).body.reason).toBe('not-assigned');
  });

  it('routes an offline number to its destination with its description, and rejects unknown numbers', async () => {
    const assigned = await s.collector.get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', phone_number: '0155555555', description: 'Flyer', type: 6 });
    expect(assigned.body.tracking_number).toBe('0100000001');
    expect((await route({ tracking_number: '0100000001' })).body).toMatchObject({ destination: '0155555555', reason: 'offline' });
    const call = await reportCall(s.collector.baseUrl, { callRef: 'pbx-off', trackingNumber: '0100000001', startDate: new Date() });
    expect(await s.t.c.calls.findOne({ _id: call.body.callId })).toMatchObject({ offlineDescription: 'Flyer', source: 'offline', destination: '0155555555' });

    expect((await route({ tracking_number: '0999999999' })).body).toMatchObject({ destination: null, reason: 'unknown-number' });
    const unknown = await reportCall(s.collector.baseUrl, { callRef: 'pbx-unknown', trackingNumber: '0999999999', startDate: new Date() });
    expect(unknown).toEqual({ status: 404, body: { status: 'ERROR', error: 'Unknown tracking number: it is in no pool of any domain' } });
  });

  it('records an SMS once per smsRef, as one message or as parts', async () => {
    const one = await sms({ smsRef: 'sms-1', trackingNumber: '0800000001', callerPhone: '0611223344', sentDate: '2026-03-01 10:00:00', message: 'Hello' });
    expect(one).toEqual({ status: 200, body: { status: 'OK', id: expect.any(Number) } });
    const again = await sms({ smsRef: 'sms-1', trackingNumber: '0800000001', callerPhone: '0611223344', sentDate: '2026-03-01 10:00:00', message: 'Hello' });
    expect(again.body.id).toBe(one.body.id);
    const parts = await sms({ smsRef: 'sms-2', trackingNumber: '0800000001', callerPhone: 'anonymous', sentDate: '2026-03-01 10:01:00', parts: ['Bonjour, ', 'ça va ?'] });
    expect(await s.t.c.sms.findOne({ _id: parts.body.id })).toMatchObject({ message: ['Bonjour, ', 'ça va ?'], caller: null });
    const both = await sms({ smsRef: 'sms-3', trackingNumber: '0800000001', callerPhone: '0611223344', sentDate: '2026-03-01 10:01:00', message: 'a', parts: ['b'] });
    expect(both).toMatchObject({ status: 400, body: { status: 'ERROR', error: 'Invalid parameter message: send either message or parts' } });
    expect(await s.t.c.sms.countDocuments()).toBe(2);
  });

  it('records a call reported without an outcome as going on, and ends it with the next report (as docs/telephony.md says)', async () => {
    const number = '0800000001';
    const startDate = new Date(Date.now() - 5000);
    const ringing = await reportCall(s.collector.baseUrl, { callRef: 'pbx-ongoing', trackingNumber: number, startDate, status: undefined, duration: undefined });
    expect(ringing).toEqual({ status: 200, body: { status: 'OK', callId: expect.any(Number) } });
    expect(await s.t.c.calls.findOne({ _id: ringing.body.callId })).toMatchObject({ status: null });
    const ended = await reportCall(s.collector.baseUrl, { callRef: 'pbx-ongoing', trackingNumber: number, startDate, status: 'SUCCESS', duration: 80 });
    expect(ended.body.callId).toBe(ringing.body.callId);
    // Held by no visit now: the route's NOTASSIGNED wins over SUCCESS once the outcome is known.
    expect(await s.t.c.calls.findOne({ _id: ringing.body.callId })).toMatchObject({ status: 'NOTASSIGNED', duration: 80 });
  });
});

// People (issue 43): contacts sharing a phone number, an e-mail address or a visitor id are one
// person, joined when a later contact links two; a person has one id across calls and forms (in
// the data API too) and one timeline; the person of a number is found by one key lookup.
import { browserPost } from '../helpers/site-page.ts';
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { commerceFixture, CUSTOMER_KEY, DATA_KEY } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall } from '../helpers/telephony.ts';
import { TELEPHONY_KEY } from '../helpers/telephony.ts';

const ORIGIN = 'https://shop.test';
const OWNER = { username: 'owner@shop.test', password: 'people owner password' };

describe('people', () => {
  const s = useSeededCollector('people', commerceFixture({ ga4: false, tracking: { users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } } }), { telephonyApiKey: TELEPHONY_KEY });
  const post = (path: string, fields: Record<string, string | number>) => browserPost(s.collector.baseUrl, path, fields);
  const form = async (visitId: number, fields: Record<string, string>) => (await (await post('/t/form', { key: 'pk-test-key', visit_id: visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify(fields), elapsed_ms: 8000 })).json()).formId as number;
  const personOfForm = async (formId: number) => (await s.t.c.forms.findOne({ _id: formId }))!.personId;
  const personOfCall = async (callId: number) => (await s.t.c.calls.findOne({ _id: callId }))!.personId;

  it('gives a form with a phone number and a later call from it one person, one timeline', async () => {
    const seen = await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/?utm_source=google&utm_medium=cpc&utm_term=leak`, page_title: 'Home', referer_url: '', phones: '', unique_visitor_id: 'visitor-ada' })).json();
    const formId = await form(seen.visitId, { name: 'Ada', phone: '06 12 34 56 78', message: 'Call me' });
    // The call three seconds later (a carrier reports whole seconds: at least two after the sale below).
    const call = await reportCall(s.collector.baseUrl, { callRef: 'people-1', trackingNumber: '0100000001', startDate: new Date(Date.now() + 3000), callerPhone: '0612345678', duration: 60 });
    // A sale on the site, of the same visit, before the call.
    const products = { 'products[0][id]': 'SKU-1', 'products[0][name]': 'Boiler', 'products[0][quantity]': 1, 'products[0][price]': '250.00' };
    const shop = async (path: string, fields: Record<string, string | number>) => (await fetch(`${s.collector.baseUrl}${path}`, { method: 'POST', body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])) })).json();
    expect(await shop('/api/customer-cart', { key: CUSTOMER_KEY, id: 'ada-cart', currency: 'EUR', visit_id: seen.visitId, is_logged_in: 0, ...products })).toEqual({ status: 'success' });
    expect(await shop('/api/customer-order', { key: CUSTOMER_KEY, id: 'ada-order', cart_id: 'ada-cart', currency: 'EUR', visit_id: seen.visitId, status: 'paid', ...products })).toEqual({ status: 'success' });
    const person = await personOfForm(formId);
    expect(person).toEqual(expect.any(Number));
    expect(await personOfCall(call.body.callId)).toBe(person);

    // The data API says the same person for both.
    const today = new Date().toISOString().slice(0, 10);
    const data = (type: string) => fetch(`${s.collector.baseUrl}/data-api?${new URLSearchParams({ api_key: DATA_KEY, type, start_date: today, end_date: today, page: '1', limit: '10' })}`).then((r) => r.json());
    expect((await data('calls')).results.find((r: { call_id: number }) => r.call_id === call.body.callId).person_id).toBe(person);
    expect((await data('forms')).results.find((r: { form_id: number }) => r.form_id === formId).person_id).toBe(person);

    // Found by the number, in any form; the timeline holds the visit, the form, the sale and the call, in order.
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.get('/domains/shop.test/people?phone=06.12.34.56.78')).body).toEqual({ personId: person });
    expect((await owner.get('/domains/shop.test/people?phone=0699999999')).status).toBe(404);
    const timeline = (await owner.get(`/domains/shop.test/people/${person}`)).body;
    expect(timeline).toMatchObject({ personId: person, phones: ['0612345678'], emails: [], firstTouch: { source: 'paid:google', keyword: 'leak' } });
    expect(timeline.events.map((e: { type: string }) => e.type)).toEqual(['visit', 'form', 'sale', 'call']);
    expect(timeline.events[2]).toMatchObject({ orderId: 'ada-order', totalCost: 250, currency: 'EUR', status: 'paid', callId: null });
    expect((await owner.get('/domains/shop.test/people/999999')).status).toBe(404);
  });

  it('keeps a form that names two people apart, noted on both, until a person merges them by hand (issue 52)', async () => {
    const byPhone = await reportCall(s.collector.baseUrl, { callRef: 'people-2', trackingNumber: '0100000001', startDate: new Date(), callerPhone: '0622222222', duration: 30 });
    const byEmail = await form(0, { email: 'Bob@Example.com', name: 'Bob' });
    const [first, second] = [await personOfCall(byPhone.body.callId), await personOfForm(byEmail)];
    expect(first).not.toBe(second);
    // A form with both, which anyone could have typed: it joins no one, and is kept as its own person.
    const linking = await form(0, { email: 'bob@example.com', phone: '+33 6 22 22 22 22' });
    const apart = await personOfForm(linking);
    expect([await personOfCall(byPhone.body.callId), await personOfForm(byEmail)]).toEqual([first, second]);
    expect([first, second]).not.toContain(apart);
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    // Each of the two says so on its timeline, naming the other two.
    const timeline = async (id: number) => (await owner.get(`/domains/shop.test/people/${id}`)).body;
    expect((await timeline(first!)).possibleMatches).toEqual([{ at: expect.any(String), contact: { kind: 'form', id: linking }, people: [apart, second] }]);
    expect((await timeline(second!)).possibleMatches).toEqual([{ at: expect.any(String), contact: { kind: 'form', id: linking }, people: [apart, first] }]);

    // A person decides they are one: the older lives on, with every contact; in the activity log.
    const merged = await owner.call('POST', `/domains/shop.test/people/${second}/merge`, { with: first });
    const joined = Math.min(first!, second!);
    expect(merged).toMatchObject({ status: 200, body: { personId: joined } });
    expect([await personOfCall(byPhone.body.callId), await personOfForm(byEmail)]).toEqual([joined, joined]);
    expect(await timeline(Math.max(first!, second!))).toMatchObject({ personId: joined, emails: ['bob@example.com'], phones: ['0622222222'] });
    expect((await timeline(joined)).possibleMatches).toEqual([{ at: expect.any(String), contact: { kind: 'form', id: linking }, people: [apart] }]);
    expect((await owner.get('/domains/shop.test/activity?kind=person')).body.entries[0]).toMatchObject({ action: 'person.merge', details: { personId: second, with: first, into: joined } });
    expect((await owner.call('POST', `/domains/shop.test/people/${joined}/merge`, { with: 999_999 })).status).toBe(404);
    expect((await owner.call('POST', `/domains/shop.test/people/${joined}/merge`, { with: 'one' })).status).toBe(400);
  });

  it('joins contacts arriving at once with one key into one person', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => form(0, { email: 'same@example.com' })));
    expect(new Set(await Promise.all(ids.map(personOfForm))).size).toBe(1);
  });

  it('makes three strangers ringing the number a visitor held, at once and soon after its form, people of their own (issue 69)', async () => {
    const seen = await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '0123456789', unique_visitor_id: 'visitor-burst' })).json();
    const held = seen.surtaxPhones['0123456789'].surtaxPhoneNumber.replace(/\D/g, '');
    const formId = await form(seen.visitId, { name: 'Eve', phone: '06 44 44 44 44' });
    const visitors = await personOfForm(formId);
    // Three different callers within three seconds, all matched to the visit that held the number.
    const callers = ['0655555551', '0655555552', '0655555553'];
    const calls = await Promise.all(callers.map((callerPhone, i) => reportCall(s.collector.baseUrl, { callRef: `burst-${i}`, trackingNumber: held, startDate: new Date(Date.now() + i * 1000), callerPhone, duration: 40 })));
    const people = await Promise.all(calls.map((c) => personOfCall(c.body.callId)));
    // The visit's person takes one caller number it did not give itself; the other two are their own.
    expect(people.filter((p) => p === visitors)).toHaveLength(1);
    const strangers = people.filter((p) => p !== visitors);
    expect(new Set(strangers).size).toBe(2);
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const timeline = async (id: number) => (await owner.get(`/domains/shop.test/people/${id}`)).body;
    // Each stranger noted as a possible match of the visitor's person, and the other way round.
    for (const stranger of strangers) {
      const callId = calls[people.indexOf(stranger)]!.body.callId;
      expect((await timeline(stranger!)).possibleMatches).toEqual([{ at: expect.any(String), contact: { kind: 'call', id: callId }, people: [visitors] }]);
    }
    expect((await timeline(visitors!)).possibleMatches.map((m: { people: number[] }) => m.people[0]).sort()).toEqual([...strangers].sort());
    // Export covers the visitor and their one caller only; the strangers' numbers are not theirs.
    const file = (await owner.get(`/domains/shop.test/people/${visitors}/export`)).body;
    expect(file.phones).toHaveLength(2);
    expect(file.phones).toContain('0644444444');
    expect(file.calls).toHaveLength(1);
    // A second call from the caller it took joins it again; one from the form's own number too.
    const taken = callers[people.indexOf(visitors)]!;
    const again = await reportCall(s.collector.baseUrl, { callRef: 'burst-again', trackingNumber: held, startDate: new Date(Date.now() + 5000), callerPhone: taken, duration: 20 });
    const own = await reportCall(s.collector.baseUrl, { callRef: 'burst-own', trackingNumber: held, startDate: new Date(Date.now() + 6000), callerPhone: '0644444444', duration: 20 });
    expect([await personOfCall(again.body.callId), await personOfCall(own.body.callId)]).toEqual([visitors, visitors]);
  });

  it("exports everything stored of a person on request, as one JSON file, in the activity log", async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const { personId } = (await owner.get('/domains/shop.test/people?phone=0612345678')).body;
    const file = await owner.get(`/domains/shop.test/people/${personId}/export`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="person-${personId}-shop.test.json"`);
    // Their keys, their call and form as the data API shows them, their visit with its address and its page.
    expect(file.body).toMatchObject({ person_id: personId, domain: 'shop.test', phones: ['0612345678'], emails: [], visitor_ids: ['visitor-ada'], texts: [], carts: [{ cart_id: 'ada-cart', total_cost: 250 }], orders: [{ order_id: 'ada-order', status: 'paid', total_cost: 250 }] });
    expect(file.body.calls).toEqual([expect.objectContaining({ caller: '0612345678', person_id: personId, recording_stored: false })]);
    expect(file.body.forms).toEqual([expect.objectContaining({ fields: { name: 'Ada', phone: '06 12 34 56 78', message: 'Call me' }, phone: '0612345678', person_id: personId })]);
    expect(file.body.visits).toEqual([expect.objectContaining({ source: 'paid:google', keyword: 'leak', ip: expect.stringMatching(/\S/) })]);
    expect(file.body.pages).toEqual([expect.objectContaining({ visit_id: file.body.visits[0].visit_id, url: `${ORIGIN}/?utm_source=google&utm_medium=cpc&utm_term=leak`, title: 'Home' })]);
    expect((await owner.get('/domains/shop.test/activity?kind=person')).body.entries[0]).toMatchObject({ action: 'person.export', details: { personId } });
    expect((await owner.get('/domains/shop.test/people/999999/export')).status).toBe(404);
  });

  it('erases a person on request: personal fields go, contacts and counts stay, no later contact joins them', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const { personId } = (await owner.get('/domains/shop.test/people?phone=0612345678')).body;
    const visitId = (await owner.get(`/domains/shop.test/people/${personId}`)).body.events.find((e: { type: string }) => e.type === 'visit').visitId;
    // A later visit of theirs without a visitor id, where they sent the form again with their number.
    const plain = (await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, page_title: 'Contact', referer_url: '', phones: '' })).json()).visitId;
    expect(await personOfForm(await form(plain, { phone: '06 12 34 56 78', message: 'Still leaking' }))).toBe(personId);
    const today = new Date().toISOString().slice(0, 10);
    const data = (type: string) => fetch(`${s.collector.baseUrl}/data-api?${new URLSearchParams({ api_key: DATA_KEY, type, start_date: today, end_date: today, page: '1', limit: '50' })}`).then((r) => r.json());
    const [callsBefore, formsBefore] = [(await data('calls')).total_results, (await data('forms')).total_results];
    // A sticky ring group of a call flow remembers who last answered them (issue 65).
    await s.t.c.stickyAnswers.insertOne({ _id: 'shop.test|0612345678', member: OWNER.username, at: new Date() });
    const erased = await owner.call('DELETE', `/domains/shop.test/people/${personId}`);
    expect(erased).toMatchObject({ status: 200, body: { calls: 1, forms: 2, visits: 2, recordings: 0 } });
    // The contacts stay, anonymous: the counts are the same, no number, no field, no person.
    const calls = await data('calls');
    expect(calls.total_results).toBe(callsBefore);
    expect(calls.results.find((r: { caller: string }) => r.caller.includes('612345678'))).toBeUndefined();
    const forms = await data('forms');
    expect(forms.total_results).toBe(formsBefore);
    expect(JSON.stringify(forms.results)).not.toMatch(/Ada|612345678/);
    expect(await s.t.c.personKeys.countDocuments({ personId })).toBe(0);
    expect(await s.t.c.stickyAnswers.countDocuments({ _id: 'shop.test|0612345678' })).toBe(0);
    // Their visits, the one without a visitor id too, and their pages keep no address or browser.
    expect(await s.t.c.views.find({ visitId: { $in: [visitId, plain] } }, { projection: { _id: 0, ip: 1, userAgent: 1 } }).toArray()).toEqual([{ ip: '', userAgent: null }, { ip: '', userAgent: null }]);
    expect(await s.t.c.visits.find({ _id: { $in: [visitId, plain] } }, { projection: { _id: 0, ip: 1, userAgent: 1, uniqueVisitorId: 1 } }).toArray()).toEqual([
      { ip: '', userAgent: null, uniqueVisitorId: null },
      { ip: '', userAgent: null, uniqueVisitorId: null },
    ]);
    expect((await owner.get(`/domains/shop.test/people/${personId}/export`)).status).toBe(404);
    expect((await owner.get('/domains/shop.test/people?phone=0612345678')).status).toBe(404);
    expect((await owner.call('DELETE', `/domains/shop.test/people/${personId}`)).status).toBe(404);
    // In the activity log.
    expect((await owner.get('/domains/shop.test/activity?kind=person')).body.entries[0]).toMatchObject({ action: 'person.erase', details: { personId } });
    // A later contact with that number is a new person.
    const later = await form(0, { phone: '06 12 34 56 78' });
    expect(await personOfForm(later)).not.toBe(personId);
  });

  it("joins no one's contacts by a spam submission", async () => {
    const spam = (await (await post('/t/form', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, fields: JSON.stringify({ email: 'bob@example.com' }), elapsed_ms: 100 })).json()).formId;
    expect(await personOfForm(spam)).toBeNull();
  });
});

// Rules (issue 55) over HTTP on the real database: a team's tags, a rule written and refused where
// it is wrong, run when a call ends (tag, value, verdict, the chat message in Slack's format, the
// `rule` push), previewed, and never undoing what a person set by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { commerceFixture, DATA_KEY, viewParams, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';
import { browserPost } from '../helpers/site-page.ts';
import { wireWrites } from '../../collector/src/house/writes.ts';
import { HandMarks } from '../../collector/src/rules/hand-marks.ts';
import { CallSources } from '../../collector/src/reports/call-sources.ts';
import { localTime } from '../../collector/src/domains/time-zone.ts';

const USER = { username: 'owner@shop.test', password: 'rules-owner-password' };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

function fixture() {
  const f = commerceFixture({ ga4: false, webhookUrl: 'https://hooks.example/ringtrail', tracking: { users: [USER], settings: { formTracking: { enabled: true, fields: [] } } } });
  return { accounts: [{ ...f.accounts[0]!, webhookEvents: ['rule'] }] };
}
const s = useSeededCollector('rules_http', fixture(), { telephonyApiKey: TELEPHONY_KEY, delivery: { publicOnly: false } });

let trackingNumber = '';
/** A call to the number the one visit of these tests holds (from a Spring campaign's ad). */
async function trackedCall(callRef: string, duration: number): Promise<number> {
  if (!trackingNumber) {
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_campaign=spring&gclid=RULES1' }));
    trackingNumber = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  }
  const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber, startDate: new Date(), callerPhone: '0612121212', duration });
  return body.callId;
}

const BOOKED_RULE = (chatUrl: string) => ({
  name: 'Booked',
  moment: 'call-ended',
  match: 'all',
  conditions: [
    { field: 'duration', op: 'atLeast', value: 60 },
    { field: 'campaign', op: 'is', value: 'Spring' },
  ],
  actions: [{ type: 'tag', tag: 'booked' }, { type: 'value', amount: 120 }, { type: 'verdict', verdict: 'lead' }, { type: 'chat', url: chatUrl }, { type: 'push' }],
});

describe('rules', () => {
  let owner: ManageClient;
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    expect((await owner.call('PUT', '/account/webhook', { url: receiver.url() })).status).toBe(200);
  });

  it('keeps the account tags, each name once', async () => {
    expect((await owner.call('POST', '/account/tags', { name: 'Booked', colour: '#16A34A' })).body).toEqual({ name: 'Booked', colour: '#16a34a' });
    expect(await owner.call('POST', '/account/tags', { name: 'booked' })).toMatchObject({ status: 400, body: { error: 'name: the tag booked exists' } });
    expect((await owner.call('POST', '/account/tags', { name: 'Price shopper' })).status).toBe(201);
    expect((await owner.get('/account/tags')).body.tags.map((t: { name: string }) => t.name)).toEqual(['Booked', 'Price shopper']);
  });

  it('refuses a rule that is wrong, naming the field, and stores nothing', async () => {
    const base = BOOKED_RULE(receiver.url('/chat'));
    const refusals: [unknown, string][] = [
      [{ ...base, conditions: [{ field: 'mood', op: 'is', value: 'happy' }] }, 'conditions.0.field: must be a known condition'],
      [{ ...base, actions: [{ type: 'value', amount: 'lots' }] }, 'actions.0.amount: must be a number'],
      [{ ...base, actions: [{ type: 'fax' }] }, 'actions.0.type: must be a known action'],
      [{ ...base, actions: [{ type: 'tag', tag: 'Nobody made this' }] }, 'actions.0.tag: the account has no tag Nobody made this'],
      [{ ...base, conditions: [{ field: 'duration', op: 'atLeast', value: 60 }, { field: 'duration', op: 'atMost', value: 30 }] }, 'conditions: a duration of at least 60 s and at most 30 s can never match'],
      [{ ...base, moment: 'form-sent' }, "conditions.0.field: duration is a call's, and this rule runs when a form is sent"],
      [{ ...base, conditions: [{ field: 'keyPhrase', op: 'said', value: 'booked' }] }, 'conditions.0.field: a key phrase is known once the transcript is ready: use the moment transcript-ready'],
    ];
    for (const [body, error] of refusals) {
      const answer = await owner.call('POST', '/domains/shop.test/rules', body);
      expect(answer.status, error).toBe(400);
      expect(answer.body.error).toContain(error);
    }
    expect(await s.t.c.rules.countDocuments()).toBe(0);
    // A number called is read as the domain's numbers are, and kept in their form.
    const numbered = await owner.call('POST', '/domains/shop.test/rules', { name: 'Number', moment: 'call-ended', conditions: [{ field: 'trackingNumber', op: 'is', value: '+33 1 23 45 67 89' }], actions: [{ type: 'push' }] });
    expect(numbered.body.conditions).toEqual([{ field: 'trackingNumber', op: 'is', value: '0123456789' }]);
    expect((await owner.call('DELETE', `/domains/shop.test/rules/${numbered.body.id}`)).status).toBe(204);
    expect((await owner.call('POST', '/domains/shop.test/rules', { name: 'Number', moment: 'call-ended', conditions: [{ field: 'trackingNumber', op: 'is', value: 'call me' }], actions: [{ type: 'push' }] })).body).toEqual({ error: 'conditions.0.value: must be a phone number' });
  });

  it('tags, values and qualifies a matching call, posts to the chat in Slack format and pushes `rule`', async () => {
    const created = await owner.call('POST', '/domains/shop.test/rules', BOOKED_RULE(receiver.url('/chat')));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^rule_/), name: 'Booked', enabled: true, position: 1, actions: expect.arrayContaining([{ type: 'tag', tag: 'Booked' }]) });

    const short = await trackedCall('rules-short', 20);
    const long = await trackedCall('rules-long', 95);
    const [chat] = await receiver.waitFor(1, (r) => r.path === '/chat');
    expect(chat!.headers['content-type']).toBe('application/json');
    const message = JSON.parse(chat!.body);
    expect(Object.keys(message)).toEqual(['text']);
    expect(message.text).toContain('rule *Booked* matched a call from 0612121212 (95 s), source paid:google: tagged Booked, value 120, verdict lead.');
    expect(message.text).toMatch(new RegExp(`<http://[^|]+/manage/#/shop\\.test/call\\?id=${long}\\|Open it>$`));
    const [push] = await receiver.waitFor(1, (r) => r.path === '/hook' && verifiedPush(r, WEBHOOK_SECRET).type === 'rule');
    expect(verifiedPush(push!, WEBHOOK_SECRET)).toEqual({ callId: long, type: 'rule', view: null, cart: null, order: null, rule: { name: 'Booked', ruleId: created.body.id, callId: long, actions: ['tagged Booked', 'value 120', 'verdict lead'], at: expect.any(String) } });

    const page = (await owner.get(`/domains/shop.test/calls/${long}`)).body.call;
    expect(page).toMatchObject({ tags: ['Booked'], value: 120, lead: true, verdict: 'lead', verdictRule: 'Booked' });
    expect((await owner.get(`/domains/shop.test/calls/${short}`)).body.call).toMatchObject({ tags: [], value: null });
    const stored = (await s.t.c.calls.findOne({ _id: long }))!;
    expect(stored.history!.map((h) => `${h.by}: ${h.what}`)).toEqual(['rule Booked: tagged Booked', 'rule Booked: value 120', 'rule Booked: verdict lead']);
    // The data API's record: our tags and value; its verdict stays a person's (none).
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const data = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: day(-1), end_date: day(1), page: 1, limit: 10 });
    const record = data.body.results.find((r: { call_id: number }) => r.call_id === long);
    expect(record).toMatchObject({ tags: ['Booked'], value: 120, lead: true, verdict: null });
    // The calls log filters by tag; its CSV ends with the tags and the value.
    const tagged = await owner.get(`/domains/shop.test/reports/calls?from=${day(-1)}&to=${day(1)}&tag=Booked`);
    expect(tagged.body.calls.map((c: { callId: number }) => c.callId)).toEqual([long]);
    const csv = await owner.get(`/domains/shop.test/reports/calls.csv?from=${day(-1)}&to=${day(1)}`);
    expect(csv.text.split('\r\n').find((line: string) => line.startsWith(`${long},`))).toMatch(/,Booked,120,{10}$/);
    // The overview counts the call under its tag, by source class and campaign.
    const overview = await owner.get(`/domains/shop.test/reports/overview?from=${day(-1)}&to=${day(1)}`);
    expect(overview.body.tags).toEqual([{ label: 'Booked', calls: 1, sources: { paid: 1 }, campaigns: [{ campaign: 'spring', calls: 1 }] }]);
    // It sums the value beside the counts: in total, by source, campaign and landing page (no keyword here).
    expect(overview.body.campaigns).toEqual([expect.objectContaining({ campaign: 'spring', calls: 2, leads: 1 })]);
    expect(overview.body.values).toEqual({ total: 120, previousTotal: 0, sources: { paid: 120 }, keywords: [], campaigns: [{ campaign: 'spring', value: 120 }], landingPages: [{ path: '/', value: 120 }] });
    // The Google Ads file values the lead as the rule did.
    const file = await owner.get(`/domains/shop.test/reports/google-ads.csv?from=${day(-1)}&to=${day(1)}`);
    expect(file.text.split('\r\n').find((line: string) => line.startsWith('RULES1,'))).toMatch(/^RULES1,[^,]+,[^,]+,120,EUR$/);
  });

  it('never undoes what a person set: a tag taken off, a value, a verdict', async () => {
    const rule = (await owner.get('/domains/shop.test/rules')).body.rules[0];
    const callId = await trackedCall('rules-hand', 120);
    await receiver.waitFor(2, (r) => r.path === '/chat');
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/tags`, { tags: [] })).body.tags).toEqual([]);
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/value`, { value: 80 })).body.value).toBe(80);
    expect((await owner.call('PUT', `/domains/shop.test/calls/${callId}/verdict`, { verdict: 'not-lead' })).body.lead).toBe(false);
    // The preview runs the rule again over the last 30 days: it would change nothing on that call.
    const preview = (await owner.call('POST', `/domains/shop.test/rules/${rule.id}/preview`)).body;
    expect(preview.matches.find((m: { id: number }) => m.id === callId)).toMatchObject({ kind: 'call', actions: [] });
    expect(preview.matched).toBeGreaterThanOrEqual(2);
    expect(preview.checked).toBeGreaterThanOrEqual(3);
    const stored = (await s.t.c.calls.findOne({ _id: callId }))!;
    expect(stored).toMatchObject({ tags: [], value: 80, lead: false, verdict: { value: 'not-lead', by: USER.username } });
    expect(stored.history!.slice(-2).map((h) => `${h.by}: ${h.what}`)).toEqual([`${USER.username}: untagged Booked`, `${USER.username}: value 80`]);
    // The overview's value moves by the person's change: 120 of the first call, 80 of this one.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const overviewPath = `/domains/shop.test/reports/overview?from=${day(-1)}&to=${day(1)}`;
    const overview = (await owner.get(overviewPath)).body;
    expect(overview.values).toMatchObject({ total: 200, campaigns: [{ campaign: 'spring', value: 200 }] });
    // A whole month's tables come from the month counters: the same sums (the domain's month of today).
    const domain = (await s.t.c.domains.findOne({ name: 'shop.test' }))!;
    const month = localTime(new Date(), domain.timeZone).day.slice(0, 7);
    const monthEnd = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).toISOString().slice(0, 10);
    const monthPath = `/domains/shop.test/reports/overview?from=${month}-01&to=${monthEnd}`;
    expect((await owner.get(monthPath)).body.values.campaigns).toEqual([{ campaign: 'spring', value: 200 }]);
    // A recount of the domain's calls (its time zone changed) finds the same sums.
    await new CallSources(s.t.c).rebuild(domain._id, domain.timeZone);
    expect((await owner.get(overviewPath)).body).toEqual(overview);
    expect((await owner.get(monthPath)).body.values.campaigns).toEqual([{ campaign: 'spring', value: 200 }]);
    expect(await owner.call('PUT', `/domains/shop.test/calls/${callId}/tags`, { tags: ['Nope'] })).toMatchObject({ status: 400, body: { error: 'tags: the account has no tag Nope' } });
    expect(await owner.call('PUT', `/domains/shop.test/calls/${callId}/value`, { value: 'lots' })).toMatchObject({ status: 400, body: { error: 'value: must be a number, or null to clear it' } });
  });

  it("loses neither a rule's marks nor a person's value when both write a call at once", async () => {
    const callId = await trackedCall('rules-race', 100);
    await until(async () => (await s.t.c.calls.findOne({ _id: callId }))?.value === 120, "the rule's value");
    const { writes, forms, rules: runner } = wireWrites(s.t.c, { publicUrl: s.collector.baseUrl });
    const marks = new HandMarks(s.t.c, writes, forms);
    const domain = (await s.t.c.domains.findOne({ name: 'shop.test' }))!;
    for (let round = 0; round < 10; round++) {
      await s.t.c.calls.updateOne({ _id: callId }, { $set: { tags: [], value: null, byHand: {}, verdict: null }, $inc: { rev: 1 } });
      const call = (await s.t.c.calls.findOne({ _id: callId }))!;
      // The rule's run at the call's end and a person's value, at the same moment.
      await Promise.all([runner.callChanged(null, call), marks.valueCall(domain, callId, 80 + round, USER.username)]);
      const after = (await s.t.c.calls.findOne({ _id: callId }))!;
      expect({ tags: after.tags, value: after.value, verdict: after.verdict?.value }, `round ${round}`).toEqual({ tags: ['Booked'], value: 80 + round, verdict: 'lead' });
    }
  });

  it('applies a rule to past calls in the background, recorded, and undoes only what it still holds', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await owner.call('POST', '/domains/shop.test/rules', { name: 'Past', moment: 'call-ended', conditions: [{ field: 'duration', op: 'atLeast', value: 60 }], actions: [{ type: 'tag', tag: 'Price shopper' }, { type: 'value', amount: 55 }], enabled: false });
    const path = `/domains/shop.test/rules/${created.body.id}`;
    const yearAndMonthAgo = new Date(Date.now() - 390 * 86_400_000).toISOString().slice(0, 10);
    expect(await owner.call('POST', `${path}/apply`, { from: yearAndMonthAgo, to: today })).toMatchObject({ status: 400, body: { error: 'a run covers at most 366 days' } });
    const started = await owner.call('POST', `${path}/apply`, { from: today, to: today });
    expect(started).toMatchObject({ status: 202, body: { state: 'running', ruleName: 'Past', by: USER.username } });
    await until(async () => (await owner.get(`${path}/runs`)).body.runs[0].state === 'done', 'the run done');
    const [run] = (await owner.get(`${path}/runs`)).body.runs;
    const long = (await s.t.c.calls.findOne({ callRef: 'rules-long' }))!;
    const hand = (await s.t.c.calls.findOne({ callRef: 'rules-hand' }))!;
    expect(long).toMatchObject({ tags: ['Booked', 'Price shopper'], value: 55 });
    expect(hand).toMatchObject({ tags: ['Price shopper'], value: 80 }); // the person's value stays
    expect(run).toMatchObject({ checked: await s.t.c.calls.countDocuments({ status: { $ne: null } }), capped: false });
    expect(run.changed).toBeGreaterThanOrEqual(2);
    // A person takes the run's tag off one call; the undo leaves that call as the person left it.
    await owner.call('PUT', `/domains/shop.test/calls/${hand._id}/tags`, { tags: [] });
    expect((await owner.call('POST', `${path}/runs/${run.id}/undo`)).status).toBe(202);
    await until(async () => (await owner.get(`${path}/runs`)).body.runs[0].state === 'undone', 'the run undone');
    expect(await s.t.c.calls.findOne({ _id: long._id })).toMatchObject({ tags: ['Booked'], value: 120 });
    expect(await s.t.c.calls.findOne({ _id: hand._id })).toMatchObject({ tags: [], value: 80 });
    expect((await owner.call('POST', `${path}/runs/${run.id}/undo`)).body.error).toBe(`run ${run.id} is undone: only a finished run is undone`);
    expect((await owner.call('DELETE', path)).status).toBe(204);
  });

  it('tags and values a form sent, and the overview sums its value by campaign', async () => {
    const created = await owner.call('POST', '/domains/shop.test/rules', { name: 'Quote', moment: 'form-sent', conditions: [{ field: 'formField', op: 'contains', name: 'message', value: 'QUOTE' }], actions: [{ type: 'tag', tag: 'Price shopper' }, { type: 'value', amount: 40.5 }] });
    expect(created.status).toBe(201);
    const post = (path: string, fields: Record<string, string | number>) => browserPost(s.collector.baseUrl, path, fields);
    const visit = (await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/?utm_source=newsletter&utm_medium=email&utm_campaign=autumn', page_title: 'Home', referer_url: '', phones: '', unique_visitor_id: 'rules-form-visitor' })).json()).visitId;
    const send = async (message: string) => (await (await post('/t/form', { key: 'pk-test-key', visit_id: visit, url: 'https://shop.test/contact', fields: JSON.stringify({ email: 'ada@example.com', message }), elapsed_ms: 8000 })).json()).formId as number;
    const quote = await send('A quote for a boiler, please');
    const other = await send('When are you open?');
    // The counters are written after the form (its reactions): wait for the overview itself.
    const today = new Date().toISOString().slice(0, 10);
    const overview = async () => (await owner.get(`/domains/shop.test/reports/overview?from=${today}&to=${today}`)).body;
    await until(async () => (await overview()).values.campaigns.some((r: { campaign: string; value: number }) => r.campaign === 'autumn' && r.value === 40.5), 'the value summed by campaign');
    const { campaigns, values } = await overview();
    expect(campaigns.find((r: { campaign: string }) => r.campaign === 'autumn')).toMatchObject({ calls: 0, formLeads: 2 });
    // Each value is credited to one source class: they add up to the total.
    expect(Object.values(values.sources as Record<string, number>).reduce((a, b) => a + b, 0)).toBeCloseTo(values.total, 6);
    expect(values.campaigns).toContainEqual({ campaign: 'autumn', value: 40.5 });
    expect(await s.t.c.forms.findOne({ _id: quote })).toMatchObject({ tags: ['Price shopper'], value: 40.5 });
    expect((await s.t.c.forms.findOne({ _id: other }))?.tags ?? []).toEqual([]);
    expect((await owner.call('DELETE', `/domains/shop.test/rules/${created.body.id}`)).status).toBe(204);
  });

  it('is switched off without being deleted, then deleted', async () => {
    const rule = (await owner.get('/domains/shop.test/rules')).body.rules[0];
    const { id, createdAt: _c, updatedAt: _u, updatedBy: _b, position: _p, ...body } = rule;
    expect((await owner.call('PUT', `/domains/shop.test/rules/${id}`, { ...body, enabled: false })).body.enabled).toBe(false);
    const callId = await trackedCall('rules-off', 100);
    expect((await owner.get(`/domains/shop.test/calls/${callId}`)).body.call.tags).toEqual([]);
    expect((await owner.call('DELETE', `/domains/shop.test/rules/${id}`)).status).toBe(204);
    expect((await owner.get('/domains/shop.test/rules')).body.rules).toEqual([]);
    expect((await owner.call('DELETE', `/domains/shop.test/rules/${id}`)).status).toBe(404);
  });
});

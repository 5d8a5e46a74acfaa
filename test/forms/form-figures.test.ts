// Form leads and people who became leads in the overview (issue 43): a form lead counts beside the
// call leads by source, keyword and campaign, spam apart, moved by a verdict; a person counts once
// however many contacts they make, joined later or arriving at once, under each touch model; an
// erase keeps the count, and a change of time zone counts them all again.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { addDays } from '../../collector/src/domains/time-zone.ts';

const ORIGIN = 'https://shop.test';
const OWNER = { username: 'owner@shop.test', password: 'form figures owner password' };
const OFFLINE = '0100000001';

describe('form leads and lead people in the overview', () => {
  const s = useSeededCollector('form_figures', trackingFixture({ users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } }), { telephonyApiKey: TELEPHONY_KEY });
  let owner: ManageClient;
  beforeAll(async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    // An offline number, assigned: its calls keep the status reported (a lead: answered, a minute).
    await s.collector.get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', phone_number: '0155555555', description: 'Flyer', type: 6 });
  });

  const post = (path: string, fields: Record<string, string | number>) => browserPost(s.collector.baseUrl, path, fields);
  const view = async (query: string, visitor: string) => (await (await post('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/${query}`, page_title: 'Home', referer_url: '', phones: '', unique_visitor_id: visitor })).json()).visitId as number;
  const form = async (visitId: number, fields: Record<string, string>, elapsed = 8000) => (await (await post('/t/form', { key: 'pk-test-key', visit_id: visitId, url: `${ORIGIN}/contact`, fields: JSON.stringify(fields), elapsed_ms: elapsed })).json()).formId as number;
  let refs = 0;
  // Started a second on: a carrier reports whole seconds, so a call of this second could come before a form just sent.
  const call = (caller: string) => reportCall(s.collector.baseUrl, { callRef: `figures-${++refs}`, trackingNumber: OFFLINE, startDate: new Date(Date.now() + 1000), callerPhone: caller, duration: 60 });
  const today = () => new Date().toISOString().slice(0, 10);
  const overview = async (model = 'last-touch', from = today(), to = today()) => (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}&model=${model}`)).body;
  const source = (o: { sources: { source: string }[] }, name: string) => o.sources.find((r) => r.source === name) as unknown as Record<string, number>;

  it('counts form leads beside call leads, by source, keyword and campaign, spam apart; a verdict moves one', async () => {
    const visitId = await view('?utm_source=google&utm_medium=cpc&utm_term=boiler&utm_campaign=winter', 'visitor-ann');
    const lead = await form(visitId, { name: 'Ann', email: 'ann@example.com' });
    await form(visitId, { email: 'robot@example.com' }, 500); // too fast: spam
    const o = await overview();
    expect(o.totals).toMatchObject({ formLeads: 1, forms: 1, formSpam: 1, leads: 0, leadPeople: 1 });
    expect(source(o, 'paid')).toMatchObject({ formLeads: 1, leadPeople: 1 });
    expect(o.keywords.find((r: { keyword: string }) => r.keyword === 'boiler')).toMatchObject({ formLeads: 1 });
    expect(o.campaigns.find((r: { campaign: string }) => r.campaign === 'winter')).toMatchObject({ formLeads: 1 });
    expect(o.days.at(-1)).toMatchObject({ formLeads: 1, leadPeople: 1 });

    const verdict = (value: string | null) => owner.call('PUT', `/domains/shop.test/forms/${lead}/verdict`, { verdict: value });
    expect((await verdict('not-lead')).status).toBe(200);
    expect((await overview()).totals).toMatchObject({ formLeads: 0, forms: 1, formSpam: 1, leadPeople: 0 });
    await verdict('spam');
    expect((await overview()).totals).toMatchObject({ formLeads: 0, forms: 0, formSpam: 2, leadPeople: 0 });
    await verdict(null);
    expect((await overview()).totals).toMatchObject({ formLeads: 1, forms: 1, formSpam: 1, leadPeople: 1 });
  });

  it('counts one lead person for a form and three calls of one person, credited as the first lead is', async () => {
    const before = await overview();
    const firstBefore = await overview('first-touch');
    const visitId = await view('?utm_source=facebook&utm_medium=social&utm_campaign=spring', 'visitor-bea');
    await form(visitId, { name: 'Bea', phone: '06 33 44 55 66' });
    for (let i = 0; i < 3; i++) expect((await call('0633445566')).status).toBe(200);
    const after = await overview();
    expect(after.totals.leads - before.totals.leads).toBe(3);
    expect(after.totals.formLeads - before.totals.formLeads).toBe(1);
    expect(after.totals.leadPeople - before.totals.leadPeople).toBe(1);
    const social = (o: typeof after) => source(o, 'social')?.leadPeople ?? 0;
    expect(social(after) - social(before)).toBe(1);
    const firstAfter = await overview('first-touch');
    expect(firstAfter.totals.leadPeople - firstBefore.totals.leadPeople).toBe(1);
    expect(social(firstAfter) - social(firstBefore)).toBe(1);
  });

  it('counts two people joined by a later contact once, and leads of one address arriving at once once', async () => {
    const start = (await overview()).totals.leadPeople;
    await form(0, { email: 'cid@example.com' });
    await call('0644556677');
    expect((await overview()).totals.leadPeople).toBe(start + 2);
    // A form naming both joins no one (issue 52): kept as a person of its own, a third lead person.
    await form(0, { email: 'CID@example.com', phone: '+33 6 44 55 66 77' });
    expect((await overview()).totals.leadPeople).toBe(start + 3);
    // Merged by hand, the two count once.
    const [byEmail, byPhone] = await Promise.all([owner.get('/domains/shop.test/people?email=cid@example.com'), owner.get('/domains/shop.test/people?phone=0644556677')]);
    expect((await owner.call('POST', `/domains/shop.test/people/${byEmail.body.personId}/merge`, { with: byPhone.body.personId })).status).toBe(200);
    expect((await overview()).totals.leadPeople).toBe(start + 2);
    await Promise.all(Array.from({ length: 8 }, () => form(0, { email: 'dee@example.com' })));
    expect((await overview()).totals.leadPeople).toBe(start + 3);
  });

  it('moves a person out when their only lead is judged not a lead, and keeps an erased person counted', async () => {
    const start = (await overview()).totals.leadPeople;
    const { body } = await call('0655667788');
    expect((await overview()).totals.leadPeople).toBe(start + 1);
    expect((await owner.call('PUT', `/domains/shop.test/calls/${body.callId}/verdict`, { verdict: 'not-lead' })).status).toBe(200);
    expect((await overview()).totals.leadPeople).toBe(start);
    await call('0655667788');
    const { personId } = (await owner.get('/domains/shop.test/people?phone=0655667788')).body;
    expect((await overview()).totals.leadPeople).toBe(start + 1);
    expect((await owner.call('DELETE', `/domains/shop.test/people/${personId}`)).status).toBe(200);
    expect((await overview()).totals.leadPeople).toBe(start + 1);
  });

  it('counts form leads and lead people again after a change of time zone', async () => {
    const wide = () => overview('last-touch', addDays(today(), -2), addDays(today(), 2));
    const before = (await wide()).totals;
    expect((await owner.call('PATCH', '/domains/shop.test', { timeZone: 'Pacific/Kiritimati' })).status).toBe(200);
    const after = (await wide()).totals;
    expect({ formLeads: after.formLeads, forms: after.forms, formSpam: after.formSpam, leadPeople: after.leadPeople, leads: after.leads }).toEqual({ formLeads: before.formLeads, forms: before.forms, formSpam: before.formSpam, leadPeople: before.leadPeople, leads: before.leads });
  });
});

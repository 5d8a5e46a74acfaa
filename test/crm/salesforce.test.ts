// A domain's calls and forms in Salesforce (issue 67), through `jsforce` pointed at the OAuth and
// REST stand-in (SALESFORCE_LOGIN_URL): the JWT bearer flow checked (a key the connected app does not
// know keeps nothing) and sealed; a first-time caller makes one Lead (its LeadSource the first touch)
// and one completed Task, the same caller a second Task on the same Lead; a retry after a lost answer
// makes nothing twice; a verdict later updates the same Task; a known Contact takes the Task; the
// owner mapped by the answerer's e-mail; a campaign member added only when the Campaign exists; an
// expired session renewed; a 429 waits its Retry-After; a revoked refresh token breaks the connection,
// and its test mends it once the grant is back.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { wireWrites } from '../../collector/src/house/writes.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { startSalesforce } from '../helpers/salesforce-stand-in.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { browserPost } from '../helpers/site-page.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';

const sf = await startSalesforce();
afterAll(() => sf.close());
const OWNER = { username: 'ada@acme.example', password: 'crm salesforce password' };
const s = useSeededCollector('crm_salesforce', trackingFixture({ users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } }), {
  telephonyApiKey: TELEPHONY_KEY,
  secretsKey: randomBytes(32),
  salesforceLoginUrl: sf.base,
  delivery: { pollMs: 50, firstRetryMs: 100, maxRetryMs: 200, publicOnly: false },
});
const DEFAULT_OWNER = '0055g0000022222AAA';
const JWT = { flow: 'jwt', clientId: sf.app.clientId, username: sf.app.username, privateKey: sf.app.privateKey };

let owner: ManageClient;
let calls = 0;
let ip = 0;
/** A call from `callerPhone`, after a visit from `url` when given (its campaign then the call's). */
async function call(callerPhone: string, url?: string, duration = 95): Promise<number> {
  let trackingNumber = '0100000001';
  if (url) {
    const view = await s.collector.post('/ospView', viewParams({ url, referer_url: '', direct_display: true, ip: `198.51.100.${++ip}` }));
    trackingNumber = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  }
  const { body } = await reportCall(s.collector.baseUrl, { callRef: `sf-${++calls}`, trackingNumber, startDate: new Date(), status: 'SUCCESS', duration, callerPhone });
  return body.callId as number;
}
const settled = () => until(async () => (await s.t.c.outbox.countDocuments({ kind: 'crm' })) === 0, 'the CRM deliveries done');
const delivery = (kind: string, id: number) => s.t.c.crmDeliveries.findOne({ _id: `salesforce|shop.test|${kind}:${id}` });
const tasksOf = (kind: string, id: number) => sf.records.Task!.filter((t) => t.CallObject === `shop.test:${kind}:${id}`);
const leadsWith = (phone: string) => sf.records.Lead!.filter((l) => l.Phone === phone);

describe('Salesforce', () => {
  it('refuses credentials Salesforce refuses, with its words, and keeps nothing; takes the JWT bearer flow, sealed', async () => {
    owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const refused = await owner.call('PUT', '/domains/shop.test/crm/salesforce', { credentials: { ...JWT, privateKey: stranger } });
    expect(refused).toMatchObject({ status: 400, body: { error: 'Salesforce refuses the credentials (400): invalid_grant: invalid assertion; nothing was stored' } });
    const notApproved = await owner.call('PUT', '/domains/shop.test/crm/salesforce', { credentials: { ...JWT, username: 'someone@acme.example' } });
    expect(notApproved.body.error).toContain("user hasn't approved this consumer");
    const notAKey = await owner.call('PUT', '/domains/shop.test/crm/salesforce', { credentials: { ...JWT, privateKey: 'not a key' } });
    expect(notAKey).toMatchObject({ status: 400, body: { error: expect.stringContaining('credentials.privateKey') } });
    expect(await s.t.c.crmConnections.countDocuments()).toBe(0);

    const connected = await owner.call('PUT', '/domains/shop.test/crm/salesforce', { credentials: JWT, defaultOwner: DEFAULT_OWNER });
    expect(connected).toMatchObject({ status: 200, body: { crm: 'salesforce', connected: true, account: 'Salesforce org Acme Corp (00D5g000000AcmeEAA)', credentials: 'JWT bearer flow as integration@acme.example, connected app …rail', defaultOwner: DEFAULT_OWNER, broken: null } });
    const shown = JSON.stringify((await owner.get('/domains/shop.test/crm/salesforce')).body);
    expect(shown).not.toContain('PRIVATE KEY');
    expect((await s.t.c.crmConnections.findOne({}))!.secret).not.toContain('PRIVATE KEY');
    // The JWT was signed for this login host, as the connected app's user.
    expect(sf.sessions.length).toBeGreaterThan(0);
  });

  it('makes one Lead and one completed Task for a first-time caller, and a second Task on the same Lead when they call again', async () => {
    const first = await call('0612121212');
    await settled();
    const leads = leadsWith('+33612121212');
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ LastName: '+33612121212', Company: '[not provided]', LeadSource: 'Phone Inquiry', OwnerId: DEFAULT_OWNER });
    expect(tasksOf('call', first)).toEqual([expect.objectContaining({ WhoId: leads[0]!.Id, Status: 'Completed', TaskSubtype: 'Call', Type: 'Call', CallType: 'Inbound', CallDurationInSeconds: 95, CallDisposition: 'Answered', OwnerId: DEFAULT_OWNER, Subject: expect.stringContaining(`RingTrail call ${first}: answered`) })]);
    expect(tasksOf('call', first)[0]!.Description).toContain('Source: unattributed');
    const task = tasksOf('call', first)[0]!;
    expect(await delivery('call', first)).toMatchObject({ state: 'sent', records: [{ object: 'lead', id: leads[0]!.Id, link: `${sf.base}/${leads[0]!.Id}` }, { object: 'task', id: task.Id, link: `${sf.base}/${task.Id}` }] });
    const person = await s.t.c.people.findOne({ _id: (await s.t.c.calls.findOne({ _id: first }))!.personId! });
    expect(person!.crmRefs).toEqual({ salesforce: leads[0]!.Id });

    const again = await call('0612121212', undefined, 30);
    await settled();
    expect(leadsWith('+33612121212')).toHaveLength(1);
    expect(tasksOf('call', again)).toEqual([expect.objectContaining({ WhoId: leads[0]!.Id, CallDurationInSeconds: 30 })]);

    // A salesperson converts the Lead: the next call goes on its Contact, kept from then on.
    sf.records.Contact!.push({ Id: '0035g0000055555AAA', CreatedDate: new Date().toISOString(), LastName: 'Converted', Phone: '+33612121212' });
    Object.assign(leads[0]!, { IsConverted: true, ConvertedContactId: '0035g0000055555AAA' });
    const afterConversion = await call('0612121212', undefined, 20);
    await settled();
    expect(tasksOf('call', afterConversion)).toEqual([expect.objectContaining({ WhoId: '0035g0000055555AAA' })]);
    expect((await s.t.c.people.findOne({ _id: person!._id }))!.crmRefs).toEqual({ salesforce: '0035g0000055555AAA' });
    expect(await delivery('call', afterConversion)).toMatchObject({ records: [{ object: 'contact', id: '0035g0000055555AAA' }, { object: 'task' }] });
    sf.records.Contact!.pop();
  });

  it('makes nothing twice when an answer is lost, and updates the same Task when a verdict comes later', async () => {
    sf.faults.push({ when: 'POST /services/data/v62.0/sobjects/Lead', fault: { kind: 'drop' } }, { when: 'POST /services/data/v62.0/sobjects/Task', fault: { kind: 'drop' } });
    const lost = await call('0699887766');
    await settled();
    expect(sf.faults).toEqual([]);
    expect(leadsWith('+33699887766')).toHaveLength(1);
    expect(tasksOf('call', lost)).toHaveLength(1);

    expect((await owner.call('PUT', `/domains/shop.test/calls/${lost}/verdict`, { verdict: 'not-lead' })).status).toBe(200);
    await settled();
    expect(tasksOf('call', lost)).toHaveLength(1);
    expect(tasksOf('call', lost)[0]!.Description).toContain('Verdict: not-lead');
    expect(await delivery('call', lost)).toMatchObject({ state: 'updated' });
    // The update sends no field Salesforce takes at insert only.
    expect(sf.requests.filter((r) => r.method === 'PATCH').every((r) => !('TaskSubtype' in (r.body as object)))).toBe(true);
  });

  it("puts the Task on a Contact Salesforce already has, the owner who answered by e-mail, and adds them to an existing Campaign only", async () => {
    sf.records.Contact!.push({ Id: '0035g0000044444AAA', CreatedDate: new Date().toISOString(), LastName: 'Hopper', MobilePhone: '+33655443322' });
    const withCampaign = await call('0655443322', 'https://shop.test/offers?utm_source=newsletter&utm_medium=email&utm_campaign=spring-sale');
    await wireWrites(s.t.c, { publicUrl: s.collector.baseUrl }).writes.change(withCampaign, () => ({ answeredBy: { member: OWNER.username, number: '0611111111', name: 'Ada' } }));
    await settled();
    expect(leadsWith('+33655443322')).toHaveLength(0);
    expect(tasksOf('call', withCampaign)).toEqual([expect.objectContaining({ WhoId: '0035g0000044444AAA', OwnerId: '0055g0000011111AAA' })]);
    expect(sf.records.CampaignMember).toEqual([expect.objectContaining({ CampaignId: '7015g0000033333AAA', ContactId: '0035g0000044444AAA' })]);
    expect(await delivery('call', withCampaign)).toMatchObject({ records: [{ object: 'contact', id: '0035g0000044444AAA' }, { object: 'task' }, { object: 'campaignMember', id: sf.records.CampaignMember![0]!.Id }] });

    const campaigns = sf.records.Campaign!.length;
    const noCampaign = await call('0644556677', 'https://shop.test/offers?utm_source=newsletter&utm_medium=email&utm_campaign=autumn-sale');
    await settled();
    expect(tasksOf('call', noCampaign)).toHaveLength(1);
    expect(sf.records.Campaign).toHaveLength(campaigns);
    expect(sf.records.CampaignMember).toHaveLength(1);
  });

  it('puts a form then a call of one person on one Lead, named by the form, the form as a Task; a LeadSource the org does not take left out', async () => {
    sf.restrictedLeadSources = ['Partner Referral'];
    const sent = await (await browserPost(s.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify({ name: 'Grace Hopper', email: 'grace@example.com', phone: '06 55 44 33 99', message: 'Please call me back' }), elapsed_ms: 9000 })).json();
    await settled();
    sf.restrictedLeadSources = null;
    const lead = sf.records.Lead!.find((l) => l.Email === 'grace@example.com')!;
    expect(lead).toMatchObject({ LastName: 'Grace Hopper', Phone: '+33655443399', Company: '[not provided]' });
    expect(lead.LeadSource).toBeUndefined();
    expect(tasksOf('form', sent.formId)).toEqual([expect.objectContaining({ WhoId: lead.Id, TaskSubtype: 'Task', Status: 'Completed', Description: expect.stringContaining('message: Please call me back') })]);
    const leads = sf.records.Lead!.length;
    const later = await call('0655443399');
    await settled();
    expect(sf.records.Lead).toHaveLength(leads);
    expect(tasksOf('call', later)).toEqual([expect.objectContaining({ WhoId: lead.Id })]);
  });

  it('renews an expired session and sends again, and waits a 429 out', async () => {
    const sessions = sf.sessions.length;
    sf.faults.push({ when: 'GET /services/data/v62.0/query', fault: { kind: 'expired' } });
    const renewed = await call('0633221100');
    await settled();
    expect(sf.sessions.length).toBe(sessions + 1);
    expect(await delivery('call', renewed)).toMatchObject({ state: 'sent' });
    expect((await s.t.c.crmConnections.findOne({}))!.broken).toBeNull();

    sf.faults.push({ when: 'POST /services/data/v62.0/sobjects/Task', fault: { kind: '429', retryAfter: 30 } });
    const limited = await call('0633221101');
    await until(async () => Boolean(await s.t.c.outbox.findOne({ kind: 'crm', attempts: { $gte: 1 } })), 'the first attempt refused');
    const waiting = (await s.t.c.outbox.findOne({ kind: 'crm' }))!;
    expect(waiting.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(25_000);
    expect(waiting.lastError).toContain("Salesforce's rate limit (429)");
    await s.t.c.outbox.updateOne({ _id: waiting._id }, { $set: { nextAttemptAt: new Date() } });
    await settled();
    expect(tasksOf('call', limited)).toHaveLength(1);

    sf.faults.push({ when: 'POST /services/data/v62.0/sobjects/Task', fault: { kind: '500' } });
    const unavailable = await call('0633221102');
    await settled();
    expect(tasksOf('call', unavailable)).toHaveLength(1);
  });

  it('keeps a Task Salesforce refuses for good as failed, with its words', async () => {
    sf.faults.push({ when: 'POST /services/data/v62.0/sobjects/Task', fault: { kind: '400', errorCode: 'FIELD_CUSTOM_VALIDATION_EXCEPTION', message: 'Calls need a region' } });
    const refused = await call('0622334455');
    await until(async () => Boolean((await s.t.c.calls.findOne({ _id: refused }))!.crmRecords?.some((r) => r.state === 'failed')), 'the call marked failed');
    expect(await delivery('call', refused)).toMatchObject({ state: 'failed', error: 'Salesforce answered 400: FIELD_CUSTOM_VALIDATION_EXCEPTION: Calls need a region' });
  });

  it('connects with a refresh token, breaks when it is revoked, and mends when a test finds the grant back', async () => {
    const [refreshToken] = sf.refreshTokens;
    const connected = await owner.call('PUT', '/domains/shop.test/crm/salesforce', { credentials: { flow: 'refresh-token', clientId: sf.app.clientId, clientSecret: sf.app.clientSecret, refreshToken }, defaultOwner: DEFAULT_OWNER });
    expect(connected).toMatchObject({ status: 200, body: { credentials: `refresh token …${refreshToken!.slice(-4)}, connected app …rail`, broken: null } });

    sf.refreshTokens.delete(refreshToken!);
    sf.expireSessions();
    const waiting = await call('0677665545');
    await until(async () => Boolean((await s.t.c.crmConnections.findOne({}))?.broken), 'the connection broken');
    expect((await owner.get('/domains/shop.test/crm/salesforce')).body.broken).toMatchObject({ error: 'Salesforce refuses the credentials (400): invalid_grant: expired access/refresh token' });
    expect(await owner.call('POST', '/domains/shop.test/crm/salesforce/test')).toMatchObject({ status: 400 });

    sf.refreshTokens.add(refreshToken!);
    expect((await owner.call('POST', '/domains/shop.test/crm/salesforce/test')).body).toMatchObject({ connected: true, broken: null });
    await s.t.c.outbox.updateMany({ kind: 'crm' }, { $set: { nextAttemptAt: new Date() } });
    await settled();
    expect(await delivery('call', waiting)).toMatchObject({ state: 'sent' });
    expect(tasksOf('call', waiting)).toHaveLength(1);
  });
});

// The back end's settings API over HTTP: domains, keys, pools and numbers, webhooks, install
// check, sign-up; and every route scoped to the signed-in account.
import { describe, expect, it } from 'vitest';
import { AgentService } from '../../collector/src/agent/service.ts';
import { LiveCalls } from '../../collector/src/agent/live-calls.ts';
import { createLogger } from '../../collector/src/logger.ts';
import { manageRoutes } from '../../collector/src/manage/routes.ts';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimit } from '../../collector/src/team/sign-in-limit.ts';
import { OfflineNumbers } from '../../collector/src/offline/service.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { wireCallWrites, wireFormWrites } from '../../collector/src/house/writes.ts';
import { startCollector, useSeededCollector } from '../helpers/collector.ts';
import { API_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { inOneWindow } from '../helpers/windows.ts';

const PASSWORD = 'owner password 1';
const base = trackingFixture();
const fixture = {
  accounts: [
    { ...base.accounts[0]!, users: [{ username: 'owner@shop.test', password: PASSWORD }] },
    {
      name: 'Rival account',
      users: [{ username: 'rival@other.test', password: PASSWORD }],
      domains: [{ name: 'other.test', apiKey: 'rival-api-key', pools: [{ type: 1, usage: 'online', numbers: ['0800000009'] }] }],
    },
  ],
};

describe('back end settings', () => {
  const s = useSeededCollector('manage_settings', fixture, { signInLimits: { perIp: 1000, perUsernameAndIp: 1000, signUpsPerIp: 1000 } });
  let owner: ManageClient;
  let rival: ManageClient;
  /** The domain's api key: the rotation test changes it. */
  let apiKey = API_KEY;
  const signIn = async () => {
    owner ??= await signedInClient(s.collector.baseUrl, 'owner@shop.test', PASSWORD);
    rival ??= await signedInClient(s.collector.baseUrl, 'rival@other.test', PASSWORD);
  };

  /** Every route that names a domain, as another account would call it on shop.test. */
  const DOMAIN_ROUTES: [string, string, unknown?][] = [
    ['GET', '/domains/shop.test'],
    ['PATCH', '/domains/shop.test', { timeZone: 'Europe/Paris' }],
    ['POST', '/domains/shop.test/keys/api'],
    ['GET', '/domains/shop.test/install'],
    ['POST', '/domains/shop.test/pools', { type: 2, usage: 'online' }],
    ['POST', '/domains/shop.test/pools/1/numbers', { numbers: ['0800000077'] }],
    ['DELETE', '/domains/shop.test/numbers/0800000001'],
    ['POST', '/domains/shop.test/pools/1/numbers/import', { numbers: ['0800000077'] }],
    ['GET', '/domains/shop.test/pools/1/numbers/available'],
    ['GET', '/domains/shop.test/reports/forms'],
    ['GET', '/domains/shop.test/forms/1'],
    ['PUT', '/domains/shop.test/forms/1/verdict', { verdict: 'lead' }],
    ['GET', '/domains/shop.test/people?phone=0611111111'],
    ['GET', '/domains/shop.test/people/1'],
    ['GET', '/domains/shop.test/people/1/export'],
    ['DELETE', '/domains/shop.test/people/1'],
    ['POST', '/domains/shop.test/people/1/merge', { with: 2 }],
    ['POST', '/domains/shop.test/pools/1/numbers/buy', { count: 1 }],
    ['GET', '/domains/shop.test/numbers/0800000001/release'],
    ['POST', '/domains/shop.test/numbers/0800000001/release'],
    ['POST', '/domains/shop.test/numbers/0800000001/fix'],
    ['POST', '/domains/shop.test/offline-numbers/0100000001/assign', { destination: '0155555555', description: 'Flyer' }],
    ['POST', '/domains/shop.test/offline-numbers/0100000001/unassign'],
    ['POST', '/domains/shop.test/offline-numbers/0100000001/redirect', { allowRedirect: true }],
    ['POST', '/domains/shop.test/offline-numbers/0100000001/recording', { recording: false }],
    ['GET', '/domains/shop.test/blocked-callers'],
    ['POST', '/domains/shop.test/blocked-callers', { number: '0611111111' }],
    ['DELETE', '/domains/shop.test/blocked-callers/0611111111'],
    ['POST', '/domains/shop.test/calls/1/block-caller'],
    ['DELETE', '/domains/shop.test/calls/1/block-caller'],
    ['PUT', '/domains/shop.test/calls/1/verdict', { verdict: 'spam' }],
    ['GET', '/domains/shop.test/calls/1'],
    ['GET', '/domains/shop.test/calls/1/recording'],
    ['DELETE', '/domains/shop.test/calls/1/recording'],
    ['GET', '/domains/shop.test/calls/1/transcript'],
    ['GET', '/domains/shop.test/transcription'],
    ['GET', '/domains/shop.test/rules'],
    ['POST', '/domains/shop.test/rules', { name: 'x', moment: 'call-ended', actions: [{ type: 'push' }] }],
    ['PUT', '/domains/shop.test/rules/rule_x', { name: 'x', moment: 'call-ended', actions: [{ type: 'push' }] }],
    ['DELETE', '/domains/shop.test/rules/rule_x'],
    ['POST', '/domains/shop.test/rules/rule_x/preview'],
    ['POST', '/domains/shop.test/rules/rule_x/apply', { from: '2026-01-01', to: '2026-01-02' }],
    ['GET', '/domains/shop.test/rules/rule_x/runs'],
    ['POST', '/domains/shop.test/rules/rule_x/runs/run_x/undo'],
    ['PUT', '/domains/shop.test/calls/1/tags', { tags: [] }],
    ['PUT', '/domains/shop.test/calls/1/value', { value: 1 }],
    ['PUT', '/domains/shop.test/forms/1/tags', { tags: [] }],
    ['GET', '/domains/shop.test/reports/overview'],
    ['GET', '/domains/shop.test/reports/calls'],
    ['GET', '/domains/shop.test/reports/calls.csv'],
    ['GET', '/domains/shop.test/reports/forms.csv'],
    ['GET', '/domains/shop.test/reports/google-ads.csv'],
    ['GET', '/domains/shop.test/reports/microsoft-ads.csv'],
    ['GET', '/domains/shop.test/reports/pools'],
    ['GET', '/domains/shop.test/activity'],
    ['GET', '/domains/shop.test/shared-links'],
    ['POST', '/domains/shop.test/shared-links', { label: 'Rival' }],
    ['DELETE', '/domains/shop.test/shared-links/abc'],
    ['PUT', '/domains/shop.test/alerts', { weekly: true }],
    ['GET', '/domains/shop.test/ads'],
    ['GET', '/domains/shop.test/ads/google'],
    ['PUT', '/domains/shop.test/ads/google', { operatingAccountId: '1', conversionActionId: '2', serviceAccountKey: '{}' }],
    ['DELETE', '/domains/shop.test/ads/google'],
    ['POST', '/domains/shop.test/ads/google/test'],
    ['GET', '/domains/shop.test/flows'],
    ['POST', '/domains/shop.test/flows', { name: 'x', start: 'a', steps: { a: { kind: 'hangup' } } }],
    ['PUT', '/domains/shop.test/flows/flow_x', { name: 'x', start: 'a', steps: { a: { kind: 'hangup' } } }],
    ['DELETE', '/domains/shop.test/flows/flow_x'],
    ['POST', '/domains/shop.test/flows/flow_x/simulate'],
    ['GET', '/domains/shop.test/reports/flows'],
    ['POST', '/domains/shop.test/flow-audio'],
    ['PUT', '/domains/shop.test/calls/1/analysis/outcomes/spam', { answer: 'no' }],
    ['GET', '/domains/shop.test/analysis'],
    ['POST', '/domains/shop.test/analysis/try'],
    ['GET', '/domains/shop.test/crm/hubspot'],
    ['PUT', '/domains/shop.test/crm/hubspot', { accessToken: 'pat-na1-xxxxxxxxxxxx' }],
    ['DELETE', '/domains/shop.test/crm/hubspot'],
    ['POST', '/domains/shop.test/crm/hubspot/test'],
    ['POST', '/domains/shop.test/crm/hubspot/resend/call:1'],
    ['GET', '/domains/shop.test/conversations'],
    ['GET', '/domains/shop.test/conversations/cv_x'],
    ['POST', '/domains/shop.test/conversations/cv_x/messages', { body: 'Hello' }],
    ['PUT', '/domains/shop.test/conversations/cv_x', { read: true }],
    ['GET', '/domains/shop.test/texting'],
    ['POST', '/domains/shop.test/people/1/call', {}],
    ['PUT', '/domains/shop.test/texting', { helpText: null }],
    // Issue 81.
    ['GET', '/domains/shop.test/conversations/cv_x/texts/in:1/media/0'],
    ['POST', '/domains/shop.test/conversations/cv_x/notes', { text: 'A note' }],
    ['GET', '/domains/shop.test/crm/hubspot/owners'],
    ['GET', '/domains/shop.test/crm/hubspot/preview'],
    ['GET', '/domains/shop.test/pools/1/numbers/price'],
    ['GET', '/domains/shop.test/texting/us-registration'],
    ['POST', '/domains/shop.test/texting/us-registration/campaign', {}],
  ];

  it('answers 404 to another account for every route that names a domain, and changes nothing', async () => {
    await signIn();
    const before = await s.t.c.domains.findOne({ _id: 'shop.test' });
    for (const [method, path, body] of DOMAIN_ROUTES) {
      const res = await rival.call(method, path, body);
      expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 404, body: { error: 'No such domain' } });
    }
    expect(await s.t.c.domains.findOne({ _id: 'shop.test' })).toEqual(before);
    expect(await s.t.c.blockedCallers.countDocuments()).toBe(0);
    expect(await s.t.c.sharedLinks.countDocuments()).toBe(0);
    expect(await s.t.c.alertChoices.countDocuments()).toBe(0);
    expect(await s.t.c.trackingNumbers.findOne({ _id: '0800000001' })).toMatchObject({ domainId: 'shop.test' });
    // Another account's number through one's own domain is not found either.
    expect(await rival.call('DELETE', '/domains/other.test/numbers/0800000001')).toMatchObject({ status: 404, body: { error: 'No number 0800000001 in this domain' } });
    expect((await rival.get('/domains')).body.map((d: { name: string }) => d.name)).toEqual(['other.test']);
  });

  it('lists every route that names a domain in the isolation test above', async () => {
    const c = s.t.c;
    const services = { outbox: new Outbox(c), agents: new AgentService(c, new LiveCalls(c)), offline: new OfflineNumbers(c), callWrites: wireCallWrites(c), formWrites: wireFormWrites(c) };
    const router = manageRoutes(c, new SignInLimit(c, DEFAULT_SIGN_IN_LIMITS), services, { signUp: true, publicWebhooksOnly: true, mail: {}, publicUrl: 'http://127.0.0.1:8080' }, createLogger('silent'));
    const served = router.stack.filter((layer) => String(layer.path).includes(':domain')).flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`));
    const tested = DOMAIN_ROUTES.map(([method, path]) => `${method} /manage/api${path}`);
    const pattern = (route: string) => route.replace('shop.test', ':domain').replace(/keys\/api$/, 'keys/:kind').replace(/pools\/1\//, 'pools/:type/').replace(/numbers\/0800000001(\/|$)/, 'numbers/:number$1').replace(/offline-numbers\/0100000001\//, 'offline-numbers/:number/').replace(/blocked-callers\/0611111111$/, 'blocked-callers/:entry').replace(/calls\/1(\/|$)/, 'calls/:callId$1').replace(/shared-links\/abc$/, 'shared-links/:id').replace(/people\?.*$/, 'people').replace(/people\/1(\/|$)/, 'people/:personId$1').replace(/forms\/1(\/|$)/, 'forms/:formId$1').replace(/rules\/rule_x(\/|$)/, 'rules/:ruleId$1').replace(/runs\/run_x\//, 'runs/:runId/').replace(/ads\/google(\/|$)/, 'ads/:platform$1').replace(/flows\/flow_x(\/|$)/, 'flows/:flowId$1').replace(/outcomes\/spam$/, 'outcomes/:name').replace(/crm\/hubspot(\/|$)/, 'crm/:crm$1').replace(/resend\/call:1$/, 'resend/:deliveryId').replace(/conversations\/cv_x(\/|$)/, 'conversations/:conversationId$1').replace(/texts\/in:1\/media\/0$/, 'texts/:textId/media/:index');
    expect(tested.map(pattern).sort()).toEqual(served.sort());
  });

  it('refuses a change without the CSRF token', async () => {
    await signIn();
    const login = await fetch(`${s.collector.baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'owner@shop.test', password: PASSWORD }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const res = await fetch(`${s.collector.baseUrl}/manage/api/domains/shop.test`, { method: 'PATCH', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ currency: 'USD' }) });
    expect(res.status).toBe(403);
    expect((await s.t.c.domains.findOne({ _id: 'shop.test' }))!.currency).toBe('EUR');
  });

  it('creates a domain, validates every setting with a clear error, and changes only what is sent', async () => {
    await signIn();
    const created = await owner.call('POST', '/domains', { name: 'New-Site.test', allowedOrigins: ['https://new-site.test'], sitePhones: ['01 23 45 67 00'], timeZone: 'Europe/Paris' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'new-site.test', sitePhones: ['0123456700'], timeZone: 'Europe/Paris', currency: 'EUR', displayMode: 'direct', pools: [], keys: { api: false, public: true } }); // the tag's key comes with the domain
    expect(await rival.call('POST', '/domains', { name: 'new-site.test' })).toMatchObject({ status: 409, body: { error: 'new-site.test is not available' } });
    // One name, one domain: the trailing dot of a fully qualified name and the case change nothing.
    expect(await rival.call('POST', '/domains', { name: 'NEW-SITE.test.' })).toMatchObject({ status: 409, body: { error: 'new-site.test is not available' } });
    expect((await owner.get('/domains/New-Site.Test.')).body.name).toBe('new-site.test');
    // An internationalized name is kept in its ASCII (punycode) form, as DNS and browsers use it.
    expect((await owner.call('POST', '/domains', { name: 'Bücher.test', allowedOrigins: ['https://xn--bcher-kva.test/'] })).body).toMatchObject({ name: 'xn--bcher-kva.test', allowedOrigins: ['https://xn--bcher-kva.test'] });

    const refused: [unknown, string][] = [
      [{ name: 'bad name!' }, 'name: must be a host name (letters, digits, dots and dashes)'],
      [{ name: 'a.test', allowedOrigins: ['ftp://a.test'] }, 'allowedOrigins.0: must be an http or https URL'],
      [{ name: 'a.test', allowedOrigins: ['https://a.test/shop'] }, 'allowedOrigins.0: "https://a.test/shop" must be an origin, scheme://host[:port], with no path'],
      [{ name: 'a.test', allowedOrigins: ['https://a.test?x=1'] }, 'allowedOrigins.0: "https://a.test?x=1" must be an origin, scheme://host[:port], with no path'],
      [{ name: 'a..test' }, 'name: must be a host name (letters, digits, dots and dashes)'],
      [{ name: 'a.test', sitePhones: ['call us'] }, 'sitePhones.0: "call us" is not a phone number'],
      [{ name: 'a.test', timeZone: 'Mars/Olympus' }, 'timeZone: is not an IANA time zone'],
      [{ name: 'a.test', currency: 'euro' }, 'currency: must be an ISO 4217 code'],
      [{ name: 'a.test', displayMode: 'sometimes' }, 'displayMode: Invalid option: expected one of "direct"|"click"'],
      [{ name: 'a.test', antiFlickerMs: 99999 }, 'antiFlickerMs: Too big: expected number to be <=5000'],
      [{ name: 'a.test', callerPrivacy: 'some' }, 'callerPrivacy: Invalid option: expected one of "none"|"partial"|"full"'],
      [{ name: 'a.test', ga4MeasurementId: 'UA-1' }, 'ga4MeasurementId: must be a GA4 measurement id (G-XXXXXXX)'],
      // A site's domain: a name under a public suffix, never an address (issue 37).
      [{ name: '127.0.0.1' }, 'name: must be a domain name, not an address'],
      // The name's problem is the one said, before the origins the back end proposed from it.
      [{ name: '127.0.0.1', allowedOrigins: ['https://127.0.0.1', 'https://www.127.0.0.1'] }, 'name: must be a domain name, not an address'],
      [{ name: 'shop.nosuchsuffix' }, 'name: must end with a public suffix (.com, .co.uk, .fr…): .nosuchsuffix is none'],
      [{ name: 'co.uk' }, 'name: must name a site under .co.uk, not the suffix itself'],
      [{ name: `${'a'.repeat(64)}.test` }, 'name: must be a host name with at most 63 characters between two dots'],
      // A number of the domain's country: no French number has fifteen digits.
      [{ name: 'a.test', sitePhones: ['012345678901234'] }, 'sitePhones.0: "012345678901234" is not a phone number'],
      [{ name: 'a.test', allowedOrigins: Array.from({ length: 101 }, (_, i) => `https://s${i}.a.test`) }, 'allowedOrigins: at most 100 origins'],
    ];
    for (const [body, error] of refused) expect(await owner.call('POST', '/domains', body)).toMatchObject({ status: 400, body: { error } });
    expect(await s.t.c.domains.findOne({ _id: 'a.test' })).toBeNull();

    const patched = await owner.call('PATCH', '/domains/new-site.test', { currency: 'USD', orderStatuses: [{ name: 'paid', isSale: true }] });
    expect(patched.body).toMatchObject({ currency: 'USD', timeZone: 'Europe/Paris', allowedOrigins: ['https://new-site.test'], orderStatuses: [{ name: 'paid', isSale: true }] });
    expect(await owner.call('PATCH', '/domains/new-site.test', { nonsense: 1 })).toMatchObject({ status: 400, body: { error: 'Unrecognized key: "nonsense"' } });
  });

  it('rotates a key: shown once, stored hashed; the old key stops working and the new one works', async () => {
    await signIn();
    const view = (apiKey: string) => s.collector.post('/ospView', viewParams({ api_key: apiKey, direct_display: false }));
    expect((await view(API_KEY)).body.status).toBe('OK');
    const rotated = await owner.call('POST', '/domains/shop.test/keys/api');
    expect(rotated).toMatchObject({ status: 200, body: { kind: 'api', key: expect.stringMatching(/^rt_api_[\w-]{40,}$/) } });
    expect(rotated.headers.get('cache-control')).toBe('no-store'); // a secret shown once is kept by no cache
    expect(JSON.stringify(await s.t.c.domains.findOne({ _id: 'shop.test' }))).not.toContain(rotated.body.key);
    expect((await view(API_KEY)).body.status).toBe('AUTHENTICATION_ERROR');
    expect((await view(rotated.body.key)).body.status).toBe('OK');
    apiKey = rotated.body.key;
    expect(JSON.stringify((await owner.get('/domains/shop.test')).body)).not.toContain(rotated.body.key);
    for (const kind of ['master', 'toString', 'constructor']) expect(await owner.call('POST', `/domains/shop.test/keys/${kind}`)).toMatchObject({ status: 404 });

    const pub = await owner.call('POST', '/domains/shop.test/keys/public');
    const install = await owner.get('/domains/shop.test/install');
    expect(install.body.scriptTag).toBe(`<script async src="${s.collector.baseUrl}/tracker.js" data-key="${pub.body.key}"></script>`);
  });

  it('says when the last view arrived', async () => {
    await signIn();
    const domain = await owner.call('POST', '/domains', { name: 'fresh.test' });
    expect(domain.status).toBe(201);
    // Its public key is made with it: the tag is ready to copy.
    expect(domain.body.publicKey).toMatch(/^rt_public_[\w-]+$/);
    expect((await owner.get('/domains/fresh.test/install')).body).toEqual({
      scriptTag: `<script async src="${s.collector.baseUrl}/tracker.js" data-key="${domain.body.publicKey}"></script>`,
      allowedOrigins: [],
      lastViewAt: null,
      refusedOrigins: [],
    });
    const before = Date.now();
    await s.collector.post('/ospView', viewParams({ api_key: apiKey, direct_display: false }));
    const last = Date.parse((await owner.get('/domains/shop.test/install')).body.lastViewAt);
    expect(last).toBeGreaterThanOrEqual(before - 1000);
    expect(last).toBeLessThanOrEqual(Date.now());
  });

  it('adds a pool and numbers; refuses a wrong prefix or another domain number; keeps a held number until it is free', async () => {
    await signIn();
    expect(await owner.call('POST', '/domains/shop.test/pools', { type: 1, usage: 'online' })).toMatchObject({ status: 409, body: { error: 'The domain already has a pool of type 1' } });
    expect(await owner.call('POST', '/domains/shop.test/pools', { type: 36, usage: 'offline' })).toMatchObject({ status: 400, body: { error: 'type: offline pools take the offline reference types, 1 to 34, or ours, 100 to 102' } });
    // A pool with its overflow number: kept apart, never claimed.
    const withOverflow = await owner.call('POST', '/domains/shop.test/pools', { type: 2, usage: 'online', overflowNumber: '0810000099' });
    expect(withOverflow.body.pools).toContainEqual({ type: 2, usage: 'online', codeDigits: 0, overflowNumber: '0810000099' });
    expect(await s.t.c.trackingNumbers.findOne({ _id: '0810000099' })).toMatchObject({ domainId: 'shop.test', type: 2, overflow: true });
    expect(await owner.call('POST', '/domains/shop.test/pools', { type: 3, usage: 'online', overflowNumber: '0800000009' })).toMatchObject({ status: 409, body: { error: '0800000009 does not start with 09, the prefix of type 3' } });
    expect(await owner.call('POST', '/domains/shop.test/pools/1/numbers', { numbers: ['0900000001'] })).toMatchObject({ status: 409, body: { error: '0900000001 does not start with 0800, the prefix of type 1' } });
    expect(await owner.call('POST', '/domains/shop.test/pools/1/numbers', { numbers: ['0800000009'] })).toMatchObject({ status: 409, body: { error: '0800000009 is not available' } });
    const added = await owner.call('POST', '/domains/shop.test/pools/1/numbers', { numbers: ['08 00 00 00 04'] });
    expect(added.body).toContainEqual({ number: '0800000004', type: 1, usage: 'online', inUse: false, description: null });

    // Take every number of pool 1, then try to remove one.
    const held: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await s.collector.post('/ospView', viewParams({ api_key: apiKey, ip: `198.51.100.${i + 1}`, expiration: 2 }));
      held.push(Object.values(res.body.surtaxPhones as Record<string, { surtaxPhoneNumber: string }>)[0]!.surtaxPhoneNumber.replace(/\./g, ''));
    }
    expect(await owner.call('DELETE', `/domains/shop.test/numbers/${held[0]}`)).toMatchObject({ status: 409, body: { error: `${held[0]} is in use: it can be removed once it is free` } });
    expect((await owner.get('/domains/shop.test')).body.numbers).toContainEqual(expect.objectContaining({ number: held[0], inUse: true }));
    await new Promise((r) => setTimeout(r, 2100));
    expect((await owner.call('DELETE', `/domains/shop.test/numbers/${held[0]}`)).status).toBe(204);
    expect(await s.t.c.trackingNumbers.findOne({ _id: held[0] })).toBeNull();
    expect(await s.t.c.slots.findOne({ _id: held[0] })).toBeNull();
    // The pool lost one number: three visitors get one, the fourth is refused.
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await s.collector.post('/ospView', viewParams({ api_key: apiKey, ip: `198.51.100.${i + 20}` }))).body.status);
    expect(answers).toEqual(['OK', 'OK', 'OK', 'WARNING']);
  });

  it('assigns an offline number to a campaign and unassigns it, with the offline API\'s rules', async () => {
    await signIn();
    const path = '/domains/shop.test/offline-numbers/0100000001';
    expect(await owner.call('POST', `${path}/assign`, { destination: 'nowhere', description: 'Flyer' })).toMatchObject({ status: 400, body: { error: 'destination: "nowhere" is not a phone number' } });
    const assigned = await owner.call('POST', `${path}/assign`, { destination: '01 55 55 55 55', description: 'Spring flyer' });
    expect(assigned.body).toContainEqual({ number: '0100000001', type: 6, usage: 'offline', inUse: true, description: 'Spring flyer', redirect: { allowRedirect: false, timetable: [] }, recording: true });
    expect(await s.t.c.offlineAssignments.findOne({ _id: '0100000001' })).toMatchObject({ destination: '0155555555', description: 'Spring flyer' });
    expect(await owner.call('POST', `${path}/assign`, { destination: '0155555556', description: 'Other' })).toMatchObject({ status: 409, body: { error: 'Tracking number already assigned' } });
    expect(await owner.call('DELETE', '/domains/shop.test/numbers/0100000001')).toMatchObject({ status: 409, body: { error: '0100000001 is assigned: unassign it first' } });
    expect(await owner.call('POST', '/domains/shop.test/offline-numbers/0800000002/assign', { destination: '0155555555', description: 'x' })).toMatchObject({ status: 404 });
    expect((await owner.call('POST', `${path}/unassign`)).body).toContainEqual(expect.objectContaining({ number: '0100000001', inUse: false, description: null }));
    // Ours: recording off for a number is kept while it is assigned; an unassigned one has nothing to switch.
    expect(await owner.call('POST', `${path}/recording`, { recording: false })).toMatchObject({ status: 409, body: { error: '0100000001 is not assigned: assign it first' } });
  });

  it('sets the webhook URL (its secret answered once), rotates the secret and the call-center key', async () => {
    await signIn();
    expect(await owner.call('PUT', '/account/webhook', { url: 'ftp://hooks.test' })).toMatchObject({ status: 400, body: { error: 'url: must be an http or https URL' } });
    const set = await owner.call('PUT', '/account/webhook', { url: 'https://hooks.test/ringtrail' });
    expect(set.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect((await owner.call('PUT', '/account/webhook', { url: 'https://hooks.test/v2' })).body).toEqual({ secret: null });
    const rotated = await owner.call('POST', '/account/webhook/secret');
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body.secret).not.toBe(set.body.secret);
    expect((await s.t.c.accounts.findOne({ _id: 'Test account' }))!.webhookSecret).toBe(rotated.body.secret);
    expect((await owner.get('/account')).body).toEqual({ name: 'Test account', webhookUrl: 'https://hooks.test/v2', webhookSecretSet: true, webhookEvents: [], callCenterKeySet: true });

    const cc = await owner.call('POST', '/account/keys/call-center');
    expect(cc.headers.get('cache-control')).toBe('no-store');
    const stats = (key: string) => fetch(`${s.collector.baseUrl}/agent-api/agentStats`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: key }) }).then((r) => r.json());
    expect((await stats('cc-test-key')).status).toBe('NOK');
    expect((await stats(cc.body.key)).status).toBe('OK');
  });

  it('refuses a webhook URL of a loopback or private address at once, unless private webhooks are allowed', async () => {
    await signIn();
    // This suite's collector refuses private addresses (ALLOW_PRIVATE_WEBHOOKS off); nothing is sent to them.
    for (const [url, host, address] of [
      ['http://127.0.0.1:9/hook', '127.0.0.1', '127.0.0.1'],
      ['http://localhost:9/hook', 'localhost', '127.0.0.1'],
      ['https://10.1.2.3/hook', '10.1.2.3', '10.1.2.3'],
      ['http://[::1]:9/hook', '[::1]', '::1'],
      // The same host in other spellings (issue 37: `localhost.` passed).
      ['http://LocalHost.:9/hook', 'localhost.', '127.0.0.1'],
      ['http://hooks.localhost/hook', 'hooks.localhost', '127.0.0.1'],
    ]) {
      expect(await owner.call('PUT', '/account/webhook', { url })).toMatchObject({ status: 400, body: { error: `url: ${host} is ${address}, a private address: webhooks go to public addresses only (ALLOW_PRIVATE_WEBHOOKS)` } });
    }
    expect((await s.t.c.accounts.findOne({ _id: 'Test account' }))!.webhookUrl).not.toMatch(/127\.0\.0\.1|localhost|10\.1\.2\.3|::1/);
    const allowing = await startCollector(s.t.db, { delivery: { run: false, publicOnly: false } });
    try {
      const local = await signedInClient(allowing.baseUrl, 'owner@shop.test', PASSWORD);
      expect((await local.call('PUT', '/account/webhook', { url: 'http://127.0.0.1:9/hook' })).status).toBe(200);
      expect((await local.call('PUT', '/account/webhook', { url: 'https://hooks.test/v2' })).status).toBe(200);
    } finally {
      await allowing.close();
    }
  });

  it('shows the delivery log and sends a push again, to this account only', async () => {
    await signIn();
    await s.t.c.deliveryLog.insertOne({ _id: 'msg_1#1', messageId: 'msg_1', accountId: 'Test account', stream: 'call:1', kind: 'webhook', label: 'view', attempt: 1, at: new Date(), httpStatus: 500, error: null, outcome: 'abandoned', body: 'realtimeData=%7B%7D' });
    const log = await owner.get('/account/deliveries');
    expect(log.body).toContainEqual(expect.objectContaining({ id: 'msg_1#1', outcome: 'abandoned', httpStatus: 500, body: 'realtimeData=%7B%7D' }));
    expect(await rival.get('/account/deliveries')).toMatchObject({ status: 200, body: [] });
    expect(await rival.call('POST', '/account/deliveries/msg_1%231/resend')).toMatchObject({ status: 404, body: { error: 'No such delivery' } });
    const resent = await owner.call('POST', '/account/deliveries/msg_1%231/resend');
    expect(resent.status).toBe(202);
    expect(await s.t.c.outbox.findOne({ _id: resent.body.id })).toMatchObject({ accountId: 'Test account', url: 'https://hooks.test/v2', body: 'realtimeData=%7B%7D', stream: 'resend:msg_1', signed: true });
  });
});

describe('back end sign-up', () => {
  const s = useSeededCollector('manage_signup', { accounts: [] });

  it('makes an account and its first user, signed in at once; a taken name or e-mail is refused', async () => {
    const signUp = (body: unknown) => fetch(`${s.collector.baseUrl}/manage/api/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await (await fetch(`${s.collector.baseUrl}/manage/api/config`)).json()).toEqual({ signUp: true, mail: false });
    const res = await signUp({ account: 'Bakery', username: 'Baker@Bread.test', password: 'rye and wheat' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ username: 'baker@bread.test', account: 'Bakery' });
    expect(res.headers.get('set-cookie')).toMatch(/^rt_session=/);
    expect((await signUp({ account: 'Bakery', username: 'other@bread.test', password: 'rye and wheat' })).status).toBe(409);
    const taken = await signUp({ account: 'Bakery 2', username: 'baker@bread.test', password: 'rye and wheat' });
    expect(taken.status).toBe(409);
    expect(await s.t.c.accounts.findOne({ _id: 'Bakery 2' })).toBeNull();
    expect(await (await signUp({ account: 'Mill', username: 'miller@mill.test', password: 'short' })).json()).toEqual({ error: 'password: must be at least 12 characters' });
    await signedInClient(s.collector.baseUrl, 'baker@bread.test', 'rye and wheat');
  });

  it('limits sign-ups per ip, not for everyone at once', async () => {
    await inOneWindow(900); // all the test's requests in one window of the limit
    // Behind a proxy of ours, the client's address comes from X-Forwarded-For.
    const limited = await startCollector(s.t.db, { proxyHops: 1, signInLimits: { perIp: 100, perUsernameAndIp: 100, signUpsPerIp: 2 }, delivery: { run: false } });
    try {
      const signUp = (n: number, ip: string) =>
        fetch(`${limited.baseUrl}/manage/api/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({ account: `Shop ${ip} ${n}`, username: `owner${n}@shop${n}.test`, password: 'long enough pw' }),
        }).then((r) => r.status);
      expect([await signUp(1, '192.0.2.1'), await signUp(2, '192.0.2.1'), await signUp(3, '192.0.2.1')]).toEqual([201, 201, 429]);
      expect(await s.t.c.accounts.findOne({ _id: 'Shop 192.0.2.1 3' })).toBeNull();
      expect(await signUp(4, '192.0.2.2')).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('is off when the server says so', async () => {
    const off = await startCollector(s.t.db, { signUp: false, delivery: { run: false } });
    try {
      const res = await fetch(`${off.baseUrl}/manage/api/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'Sneaky', username: 'x@y.test', password: 'long enough pw' }) });
      expect(res.status).toBe(403);
      expect(await s.t.c.accounts.findOne({ _id: 'Sneaky' })).toBeNull();
    } finally {
      await off.close();
    }
  });
});

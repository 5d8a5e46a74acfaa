// A domain's country (issue 24, first part): set with the domain, FR by default, validated; our pool
// types 100 (geographic), 101 (toll-free) and 102 (mobile) take the numbers of that type in the
// domain's country, as libphonenumber defines them, whatever their prefix.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';

const PASSWORD = 'country owner password';
const s = useSeededCollector('manage_country', {
  accounts: [{ name: 'Agency', users: [{ username: 'owner@agency.test', password: PASSWORD }], domains: [
    { name: 'paris.test', apiKey: 'paris-api-key', pools: [{ type: 1, usage: 'online', numbers: ['0800000001'] }] },
    // The fixture takes the country and our types too.
    { name: 'boston.test', apiKey: 'boston-api-key', country: 'US', pools: [{ type: 1, usage: 'online', numbers: ['0800000031'] }, { type: 100, usage: 'online', numbers: ['6175550100'] }] },
  ] }],
});

describe("a domain's country", () => {
  it("reads /ospView's, /ospClick's and /ospExpiration's numbers in the domain's country and answers in its own national format (not the spec's French dots)", async () => {
    const call = (path: string, fields: Record<string, string | number>) =>
      s.collector.post(path, { api_key: 'boston-api-key', visit_id: 0, ip: '203.0.113.9', url: 'https://boston.test/', page_title: 'Home', is_mobile: false, referer_url: '', nr_phones: 1, direct_display: true, ...fields });
    const view = await call('/ospView', { phones: '(617) 555-0199:100' });
    expect(view.body.surtaxPhones).toEqual({ '(617) 555-0199': { surtaxPhoneNumber: '(617) 555-0100', surtaxPhoneCode: null } });
    // Stored in the one canonical form: the number as dialled from France (E.164 one to one).
    expect(await s.t.c.leases.findOne({ visitId: view.body.visitId })).toMatchObject({ number: '0016175550100', phone: '0016175550199' });
    expect(await s.t.c.views.findOne({ _id: view.body.viewId })).toMatchObject({ phones: ['0016175550199'] });
    expect((await call('/ospExpiration', { surtax_phone: '(617) 555-0100', expiration: 600 })).body).toMatchObject({ status: 'OK', surtaxPhone: '(617) 555-0100' });
    // The same phone written the other ways: another visitor finds the one number held; the visit
    // holding it gets it again.
    expect((await call('/ospView', { phones: '+1 617-555-0199', type: '100' })).body).toMatchObject({ status: 'WARNING' });
    expect((await call('/ospClick', { phone: '1-617-555-0199', type: '100', view_id: view.body.viewId })).body).toMatchObject({ status: 'OK', surtaxPhone: { surtaxPhoneNumber: '(617) 555-0100' } });
  });

  let owner: ManageClient;
  const signIn = async () => (owner ??= await signedInClient(s.collector.baseUrl, 'owner@agency.test', PASSWORD));

  it('is FR unless the domain says otherwise, is kept in upper case, and must be a country code', async () => {
    await signIn();
    expect((await owner.get('/domains/paris.test')).body.country).toBe('FR'); // seeded without one
    const chicago = await owner.call('POST', '/domains', { name: 'chicago.test', country: 'us', timeZone: 'America/Chicago', sitePhones: ['(312) 555-0199', '+33 1 23 45 67 89'] });
    expect(chicago.status).toBe(201);
    // Its own numbers shown in its national form, another country's with its country code; stored canonical.
    expect(chicago.body).toMatchObject({ country: 'US', sitePhones: ['3125550199', '0033123456789'] });
    expect((await s.t.c.domains.findOne({ _id: 'chicago.test' }))!.sitePhones).toEqual(['0013125550199', '0123456789']);
    // What the back end shows reads back to the same numbers.
    expect((await owner.call('PATCH', '/domains/chicago.test', { sitePhones: chicago.body.sitePhones })).body.sitePhones).toEqual(['3125550199', '0033123456789']);
    expect((await s.t.c.domains.findOne({ _id: 'chicago.test' }))!.sitePhones).toEqual(['0013125550199', '0123456789']);
    expect(await owner.call('POST', '/domains', { name: 'nowhere.test', country: 'XX' })).toMatchObject({ status: 400, body: { error: 'country: must be an ISO 3166-1 alpha-2 country code, such as FR, US or GB' } });
    expect(await owner.call('PATCH', '/domains/chicago.test', { country: 'France' })).toMatchObject({ status: 400 });
    expect((await owner.call('PATCH', '/domains/paris.test', { country: 'FR' })).body.country).toBe('FR');
  });

  it("takes numbers of each of our types by their type in the domain's country, and refuses the others with the reason", async () => {
    await signIn();
    await owner.call('POST', '/domains', { name: 'london.test', country: 'GB' });
    const add = (domain: string, type: number, numbers: string[]) => owner.call('POST', `/domains/${domain}/pools/${type}/numbers`, { numbers });
    for (const [domain, type] of [['chicago.test', 100], ['chicago.test', 101], ['london.test', 100], ['london.test', 102]] as const) {
      expect((await owner.call('POST', `/domains/${domain}/pools`, { type, usage: 'online' })).status).toBe(201);
    }
    // Chicago: a geographic number and a toll-free one; the US tells no mobile from a fixed line.
    expect((await add('chicago.test', 100, ['(312) 555-0142'])).status).toBe(200);
    expect((await add('chicago.test', 101, ['1-800-555-0100'])).body.error).toBeUndefined();
    expect(await add('chicago.test', 100, ['(800) 555-0101'])).toMatchObject({ status: 409, body: { error: '8005550101 is not a geographic number of US (type 100)' } });
    expect(await add('chicago.test', 101, ['020 7946 0000'])).toMatchObject({ status: 400, body: { error: 'numbers.0: "020 7946 0000" is not a phone number of US: write another country\'s number with its country code (+33 1 23 45 67 89)' } });
    expect(await add('chicago.test', 101, ['+44 20 7946 0000'])).toMatchObject({ status: 409, body: { error: '00442079460000 is a number of GB, not of US, the domain\'s country' } });
    // London: a London number for 100, a mobile for 102, and not the other way round.
    expect((await add('london.test', 100, ['020 7946 0001'])).status).toBe(200);
    expect((await add('london.test', 102, ['07400 123456'])).status).toBe(200);
    expect(await add('london.test', 102, ['020 7946 0002'])).toMatchObject({ status: 409, body: { error: '02079460002 is not a mobile number of GB (type 102)' } });
    // A number is removed by the number the back end lists, or as the domain's country writes it.
    expect((await owner.call('DELETE', '/domains/chicago.test/numbers/3125550142')).status).toBe(204);
    expect((await owner.get('/domains/chicago.test')).body.numbers.map((n: { number: string }) => n.number)).not.toContain('0013125550142');
    // The spec's types keep their French prefixes, whatever the country: an offline number of a US domain.
    expect((await owner.call('POST', '/domains/chicago.test/pools', { type: 6, usage: 'offline' })).status).toBe(201);
    expect((await add('chicago.test', 6, ['0100000077'])).status).toBe(200);
    const assigned = await owner.call('POST', '/domains/chicago.test/offline-numbers/0100000077/assign', { destination: '(312) 555-0199', description: 'Radio' });
    expect(assigned.status).toBeLessThan(300);
    expect(await s.t.c.trackingNumbers.findOne({ _id: '0100000077' })).toMatchObject({ domainId: 'chicago.test', type: 6 });
    expect((await owner.call('POST', '/domains/paris.test/pools/1/numbers', { numbers: ['0800000002'] })).status).toBe(200);
    expect(await owner.call('POST', '/domains/paris.test/pools/1/numbers', { numbers: ['0900000002'] })).toMatchObject({ status: 409, body: { error: '0900000002 does not start with 0800, the prefix of type 1' } });
  });
});

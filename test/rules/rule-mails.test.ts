// A rule's mail action (issue 55), read from a real SMTP server on loopback: chosen members and an
// address outside the team are mailed about each matching call, a burst gathered like the alerts; a
// member or address that is wrong is refused naming the field; the mail's unsubscribe link stops
// that rule's mails to that address and nothing else.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { alertingOptions, useMailedCollector } from '../helpers/mailed-collector.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { until } from '../helpers/until.ts';

const OWNER = { username: 'owner@shop.test', password: 'rule mails owner password' };
const ANALYST = { username: 'analyst@shop.test', password: 'rule mails analyst password', role: 'analyst', domains: ['shop.test'] };
const ADDRESS = 'sales@elsewhere.example';
const PUBLIC_URL = 'https://calls.shop.test';

const m = useMailedCollector('rule_mails', trackingFixture({ users: [OWNER, ANALYST], exclusive: ['0800000001', '0800000002', '0800000003', '0800000004', '0800000005', '0800000006'] }), alertingOptions(PUBLIC_URL));
let owner: ManageClient;
beforeAll(async () => {
  owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
});

let ref = 0;
/** A visitor from a Google search calls the number they were shown, and talks two minutes. */
async function longCall(caller = '0611223344'): Promise<number> {
  const n = ++ref;
  const view = await m.collector.post('/ospView', viewParams({ url: 'https://shop.test/', referer_url: 'https://www.google.com/search?q=boiler+repair', ip: `198.51.100.${n}` }));
  const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  const { body } = await reportCall(m.collector.baseUrl, { callRef: `rule-mail-${n}`, trackingNumber: number, startDate: new Date(), status: 'SUCCESS', duration: 120, callerPhone: caller });
  return body.callId as number;
}

const to = (recipient: string) => m.inbox.messages.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === recipient);
const callsIn = (mail: ParsedMail) => (mail.text ?? '').split('\n').filter((line) => line.startsWith('The call: ')).length;
const listed = (recipient: string) => to(recipient).reduce((n, mail) => n + callsIn(mail), 0);
const RULE = { name: 'Long calls', moment: 'call-ended', conditions: [{ field: 'duration', op: 'atLeast', value: 60 }] };

describe("a rule's mails", () => {
  it('refuses members who are not the account\'s, or an address that is not one, naming the field; stores nothing', async () => {
    const refused = async (action: object) => (await owner.call('POST', '/domains/shop.test/rules', { ...RULE, actions: [{ type: 'tag', tag: 'x' }, action].slice(1) })).body;
    expect(await refused({ type: 'mail', members: ['stranger@elsewhere.example'] })).toEqual({ error: 'actions.0.members: stranger@elsewhere.example is not a member of the account' });
    expect(await refused({ type: 'mail', address: 'not an address' })).toEqual({ error: 'actions.0.address: must be an e-mail address' });
    expect(await refused({ type: 'mail' })).toEqual({ error: 'actions.0.members: needs members or an address' });
    expect((await owner.get('/domains/shop.test/rules')).body.rules).toEqual([]);
  });

  it('mails the chosen member and the address about each matching call, a burst gathered into few mails', async () => {
    const created = await owner.call('POST', '/domains/shop.test/rules', { ...RULE, actions: [{ type: 'mail', members: ['Analyst@shop.test'], address: 'Sales@Elsewhere.example' }] });
    expect(created.status).toBe(201);
    expect(created.body.actions).toEqual([{ type: 'mail', members: [ANALYST.username], address: ADDRESS }]);
    // Three long calls at once.
    const callIds = await Promise.all([longCall('0611223344'), longCall('0622334455'), longCall('0633445566')]);
    await until(async () => listed(ANALYST.username) === 3 && listed(ADDRESS) === 3, 'the three calls mailed to each');
    for (const recipient of [ANALYST.username, ADDRESS]) {
      const mails = to(recipient);
      // The first mail at once, the rest gathered a minute (here 1.5 s) later: never one per call.
      expect(mails.length, recipient).toBeLessThanOrEqual(2);
      expect(mails[0]!.subject).toMatch(/^Rule Long calls matched: (06 \d\d \d\d \d\d \d\d|[23]) \(shop\.test\)$/);
      const text = mails.map((m) => m.text).join('\n');
      for (const callId of callIds) expect(text).toContain(`The call: ${PUBLIC_URL}/manage/#/shop.test/call?id=${callId}`);
      expect(text).toContain('You receive this because the rule Long calls on shop.test mails you');
    }
    expect(await m.t.c.pendingAlerts.countDocuments()).toBe(0);
  });

  it("stops the rule's mails to an address by the mail's one-click unsubscribe link, and nothing else", async () => {
    const [mail] = to(ADDRESS);
    const link = mail!.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.match(/<([^>]+)>/)![1]!;
    const local = link.replace(PUBLIC_URL, m.collector.baseUrl);
    expect((await fetch(local)).status).toBe(200); // a scanner's visit changes nothing
    expect((await owner.get('/domains/shop.test/rules')).body.rules[0].unsubscribed).toBeUndefined();
    const page = await fetch(local, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await page.text()).toContain(`${ADDRESS} will no longer receive the mails of the rule Long calls for shop.test`);
    expect((await owner.get('/domains/shop.test/rules')).body.rules[0].unsubscribed).toEqual([ADDRESS]);
    const before = { analyst: listed(ANALYST.username), address: to(ADDRESS).length };
    const callId = await longCall('0644556677');
    await until(async () => listed(ANALYST.username) === before.analyst + 1, 'the member still mailed');
    expect(to(ANALYST.username).at(-1)!.text).toContain(`call?id=${callId}`);
    expect(to(ADDRESS).length).toBe(before.address);
    expect(await m.t.c.pendingAlerts.countDocuments({ username: ADDRESS })).toBe(0);
  });
});

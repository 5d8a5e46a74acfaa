// Rule mails are no relay (issue 70), written as the attack was: one anonymous form set off mails to
// ten outside addresses, the form's e-mail field in their subject. Now a rule names at most three
// addresses outside the team, an outside address gets at most ten matches an hour, no subject
// carries a visitor's words, and an unsubscribe outlives the rule (deleted and made again).
// Read from a real SMTP server on loopback.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { OUTSIDE_PER_ADDRESS } from '../../collector/src/alerts/rule-mails.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { alertingOptions, useMailedCollector } from '../helpers/mailed-collector.ts';
import { browserPost } from '../helpers/site-page.ts';
import { until } from '../helpers/until.ts';

const OWNER = { username: 'owner@shop.test', password: 'rule relay owner password' };
const PARTNER = 'leads@partner.example';
const PUBLIC_URL = 'https://calls.shop.test';

const m = useMailedCollector('rule_mail_relay', trackingFixture({ users: [OWNER], settings: { formTracking: { enabled: true, fields: [] } } }), alertingOptions(PUBLIC_URL));
let owner: ManageClient;
beforeAll(async () => {
  owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
});

/** An anonymous form, as anyone may send one: its fields chosen by the sender. */
async function anonymousForm(fields: Record<string, string>): Promise<number> {
  const answer = await (await browserPost(m.collector.baseUrl, '/t/form', { key: 'pk-test-key', visit_id: 0, url: 'https://shop.test/contact', fields: JSON.stringify(fields), elapsed_ms: 9000 })).json();
  return answer.formId as number;
}

const to = (recipient: string) => m.inbox.messages.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === recipient);
const formsIn = (mail: ParsedMail) => (mail.text ?? '').split('\n').filter((line) => line.startsWith('When: ')).length;
const listed = (recipient: string) => to(recipient).reduce((n, mail) => n + formsIn(mail), 0);
const RULE = { name: 'Every form', moment: 'form-sent', conditions: [] };
const mailTo = (address: string) => ({ type: 'mail', address });

describe('rule mails', () => {
  it('name at most three addresses outside the team; members given as addresses do not count', async () => {
    const outside = ['a@one.example', 'b@two.example', 'c@three.example', 'd@four.example'].map(mailTo);
    const refused = await owner.call('POST', '/domains/shop.test/rules', { ...RULE, actions: outside });
    expect(refused).toMatchObject({ status: 400, body: { error: 'actions: a rule mails at most 3 addresses outside the team (this one 4); mail members instead, or a team address that forwards' } });
    expect((await owner.get('/domains/shop.test/rules')).body.rules).toEqual([]);
    const made = await owner.call('POST', '/domains/shop.test/rules', { ...RULE, actions: [mailTo(PARTNER), mailTo('b@two.example'), mailTo('c@three.example'), mailTo(OWNER.username)] });
    expect(made.status).toBe(201);
    // Two only, for the rest of the test.
    expect((await owner.call('PUT', `/domains/shop.test/rules/${made.body.id}`, { ...RULE, actions: [mailTo(PARTNER), mailTo(OWNER.username)] })).status).toBe(200);
  });

  it("never puts a visitor's words in a subject", async () => {
    // The hour's limit counts by the clock's hours: this test and the next fall in one (they take
    // seconds), not across its end.
    await until(async () => Date.now() % 3_600_000 < 3_570_000, 'not the last 30 s of an hour', { timeoutMs: 31_000, everyMs: 500 });
    await anonymousForm({ email: 'victim@target.example', message: 'Cheap pills at http://spam.example' });
    await until(async () => to(PARTNER).length === 1 && to(OWNER.username).length === 1, 'the partner and the owner mailed');
    for (const mail of [to(PARTNER)[0]!, to(OWNER.username)[0]!]) {
      expect(mail.subject).toBe('Rule Every form matched: a form (shop.test)');
      expect(mail.subject).not.toMatch(/victim|pills|spam/i);
    }
  });

  it(`mails an outside address about at most ${OUTSIDE_PER_ADDRESS} matches an hour; the team is not limited`, async () => {
    const before = { partner: listed(PARTNER), owner: listed(OWNER.username) };
    for (let i = 0; i < OUTSIDE_PER_ADDRESS + 4; i++) await anonymousForm({ email: `sender${i}@anywhere.example`, message: `form ${i}` });
    await until(async () => listed(OWNER.username) === before.owner + OUTSIDE_PER_ADDRESS + 4, 'the owner mailed about every form');
    // Every mail queued (no alert pending) and handed to the SMTP sink (the outbox empty: the sink
    // keeps a message before it accepts it). The partner's mail is its own: the owner's arriving says
    // nothing of it.
    await until(async () => (await m.t.c.pendingAlerts.countDocuments()) === 0 && (await m.t.c.outbox.countDocuments()) === 0, 'every mail sent');
    // The first form of the hour was mailed above: nine more, then nothing.
    expect(listed(PARTNER)).toBe(OUTSIDE_PER_ADDRESS);
  });

  it('keeps an unsubscribe when the rule is deleted and made again', async () => {
    const [mail] = to(PARTNER);
    const link = mail!.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.match(/<([^>]+)>/)![1]!.replace(PUBLIC_URL, m.collector.baseUrl);
    const page = await fetch(link, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await page.text()).toContain(`${PARTNER} will no longer receive the mails of the rule Every form for shop.test, nor any other rule mail of this account`);
    const [rule] = (await owner.get('/domains/shop.test/rules')).body.rules;
    expect((await owner.call('DELETE', `/domains/shop.test/rules/${rule.id}`)).status).toBe(204);
    const again = await owner.call('POST', '/domains/shop.test/rules', { ...RULE, name: 'Every form again', actions: [mailTo(PARTNER), mailTo(OWNER.username)] });
    expect(again.status).toBe(201);
    expect((await owner.get('/domains/shop.test/rules')).body.rules[0].unsubscribed).toEqual([PARTNER]);
    const before = { partner: to(PARTNER).length, owner: listed(OWNER.username) };
    await anonymousForm({ email: 'later@anywhere.example' });
    await until(async () => listed(OWNER.username) === before.owner + 1, 'the owner mailed');
    expect(await m.t.c.pendingAlerts.countDocuments({ username: PARTNER })).toBe(0);
    expect(to(PARTNER).length).toBe(before.partner);
  });
});

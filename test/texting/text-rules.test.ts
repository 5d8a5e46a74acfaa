// The rules moment `text-received` (issue 68): a rule on texts is tested on the text's words, the
// number texted, the texter's number and who led to the text (the visit holding the number, as for a
// call), and tells by chat, push and mail only; refused where it could never work; previewed over the
// last 30 days of texts; never applied to past texts; a report sent again tells nothing twice.
// Texts come from a PBX through /telephony/sms; mail is read from a real SMTP server on loopback.
import { formatUtcDateTime } from '@ringtrail/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conditionHolds } from '../../collector/src/rules/conditions.ts';
import { neverMatches, type RuleCondition } from '../../collector/src/rules/rule-input.ts';
import { textSubject, type RuleText } from '../../collector/src/rules/subject.ts';
import { commerceFixture, viewParams, WEBHOOK_SECRET } from '../helpers/fixtures.ts';
import { alertingOptions, useMailedCollector } from '../helpers/mailed-collector.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { startReceiver, verifiedPush, type Receiver } from '../helpers/receiver.ts';
import { TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'text rules owner password' };
const PUBLIC_URL = 'https://calls.shop.test';
const f = commerceFixture({ ga4: false, webhookUrl: 'https://hooks.example/ringtrail', tracking: { users: [OWNER] } });
const m = useMailedCollector('text_rules', { accounts: [{ ...f.accounts[0]!, webhookEvents: ['rule'] }] }, alertingOptions(PUBLIC_URL));
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

let refs = 0;
/** A text through the PBX's report; `smsRef` again: the same report sent again. */
async function textIn(trackingNumber: string, caller: string, message: string, smsRef = `pbx-rule-text-${++refs}`): Promise<number> {
  const res = await fetch(`${m.collector.baseUrl}/telephony/sms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ smsRef, trackingNumber, callerPhone: caller, sentDate: formatUtcDateTime(new Date()), message }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

const PRICE_RULE = (chatUrl: string) => ({
  name: 'Price question',
  moment: 'text-received',
  conditions: [
    { field: 'words', op: 'contains', value: 'Price' },
    { field: 'campaign', op: 'is', value: 'spring' },
  ],
  actions: [{ type: 'chat', url: chatUrl }, { type: 'push' }, { type: 'mail', members: [OWNER.username] }],
});

describe('the rules moment text-received', () => {
  let owner: ManageClient;
  beforeAll(async () => {
    owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('PUT', '/account/webhook', { url: receiver.url() })).status).toBe(200);
    // The owner's mails are the rule's only: their new-text alerts off.
    expect((await owner.call('PUT', '/domains/shop.test/alerts', { newText: 'off' })).status).toBe(200);
  });

  it('refuses what a text cannot have or do, naming the field, and stores nothing', async () => {
    const base = PRICE_RULE(receiver.url('/chat'));
    const refusals: [unknown, string][] = [
      [{ ...base, actions: [{ type: 'push' }, { type: 'tag', tag: 'Booked' }] }, 'actions.1.type: a text keeps no tags, value or verdict: a text-received rule may chat, push or mail'],
      [{ ...base, actions: [{ type: 'verdict', verdict: 'lead' }] }, 'actions.0.type: a text keeps no tags, value or verdict'],
      [{ ...base, conditions: [{ field: 'duration', op: 'atLeast', value: 60 }] }, "conditions.0.field: duration is a call's, and this rule runs when a text is received"],
      [{ ...base, conditions: [{ field: 'formField', op: 'contains', name: 'message', value: 'boiler' }] }, "conditions.0.field: formField is a form's, and this rule runs when a text is received"],
      [{ ...base, moment: 'call-ended', actions: [{ type: 'push' }] }, "conditions.0.field: words are a text's: use the moment text-received"],
      [{ ...base, conditions: [{ field: 'words', op: 'matches', value: '.*' }] }, 'conditions.0.op: must be is or contains'],
    ];
    for (const [body, error] of refusals) {
      const answer = await owner.call('POST', '/domains/shop.test/rules', body);
      expect(answer.status, error).toBe(400);
      expect(answer.body.error).toContain(error);
    }
    expect(await m.t.c.rules.countDocuments()).toBe(0);
  });

  it('tells the chat, the push and the mail of a matching text, once, with its words and a link to its conversation', async () => {
    const created = await owner.call('POST', '/domains/shop.test/rules', PRICE_RULE(receiver.url('/chat')));
    expect(created.status).toBe(201);
    const view = await m.collector.post('/ospView', viewParams({ url: 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_campaign=spring', ip: '198.51.100.68' }));
    const held = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const other = ['0800000001', '0800000002', '0800000003'].find((n) => n !== held)!;

    // Words but no campaign (a number nobody held), a campaign but no words, then both.
    await textIn(other, '0698765432', 'What price for a boiler?');
    await textIn(held, '0612345678', 'Hello, are you open on Saturday?');
    const matchRef = 'pbx-rule-text-match';
    const smsId = await textIn(held, '0612345678', 'And what is the PRICE of the <b>boiler</b>?', matchRef);
    const conversation = (await m.t.c.conversations.findOne({ phone: '0612345678' }))!;
    expect((await m.t.c.textMessages.findOne({ _id: `in:${smsId}` }))!).toMatchObject({ source: 'paid:google', lastTouch: expect.objectContaining({ campaign: 'spring' }) });

    const [chat] = await receiver.waitFor(1, (r) => r.path === '/chat');
    const { text } = JSON.parse(chat!.body) as { text: string };
    expect(text).toContain('rule *Price question* matched a text from 0612345678, "And what is the PRICE of the &lt;b&gt;boiler&lt;/b&gt;?", source paid:google.');
    expect(text).toContain(`<${PUBLIC_URL}/manage/#/shop.test/inbox?id=${conversation._id}|Open it>`);
    const [push] = await receiver.waitFor(1, (r) => r.path === '/hook' && verifiedPush(r, WEBHOOK_SECRET).type === 'rule');
    const ids = { textId: `in:${smsId}`, conversationId: conversation._id };
    expect(verifiedPush(push!, WEBHOOK_SECRET)).toEqual({ ...ids, type: 'rule', view: null, cart: null, order: null, rule: { name: 'Price question', ruleId: created.body.id, ...ids, actions: [], at: expect.any(String) } });
    const [mail] = await m.inbox.received(1);
    expect(mail!.subject).toBe('Rule Price question matched: 06 12 34 56 78 (shop.test)');
    expect(mail!.text).toContain('Text: And what is the PRICE of the <b>boiler</b>?');
    expect(mail!.text).toContain(`${PUBLIC_URL}/manage/#/shop.test/inbox?id=${conversation._id}`);

    // The same report again tells nothing; the next matching text, its own (waited for, then counted).
    await textIn(held, '0612345678', 'And what is the PRICE of the <b>boiler</b>?', matchRef);
    await textIn(held, '0611111111', 'price list please');
    await receiver.waitFor(2, (r) => r.path === '/chat');
    await receiver.waitFor(2, (r) => r.path === '/hook' && verifiedPush(r, WEBHOOK_SECRET).type === 'rule');
    expect((await m.inbox.received(2))[1]!.text).toContain('Text: price list please');
    expect(receiver.received.filter((r) => r.path === '/chat').map((r) => (JSON.parse(r.body) as { text: string }).text.match(/a text from (\d+)/)![1])).toEqual(['0612345678', '0611111111']);
    expect(receiver.received.filter((r) => r.path === '/hook' && verifiedPush(r, WEBHOOK_SECRET).type === 'rule')).toHaveLength(2);
  });

  it('previews a text rule over the texts received, and is never applied to past texts', async () => {
    const [rule] = (await owner.get('/domains/shop.test/rules')).body.rules;
    const preview = await owner.call('POST', `/domains/shop.test/rules/${rule.id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ checked: 4, matched: 2 });
    expect(preview.body.matches).toEqual([
      // Newest first; texts of one second, the later first.
      expect.objectContaining({ kind: 'text', phone: '06 11 11 11 11', source: 'paid:google', actions: ['chat', 'push', 'mail'] }),
      expect.objectContaining({ kind: 'text', phone: '06 12 34 56 78', conversationId: expect.stringMatching(/^cv_/) }),
    ]);
    const day = new Date().toISOString().slice(0, 10);
    const apply = await owner.call('POST', `/domains/shop.test/rules/${rule.id}/apply`, { from: day, to: day });
    expect(apply).toMatchObject({ status: 400, body: { error: 'a text-received rule only chats, pushes or mails, as each text comes: there is nothing it could change on past texts' } });
    expect(await m.t.c.ruleRuns.countDocuments()).toBe(0);
  });
});

describe("a text's conditions", () => {
  const text: RuleText = { id: 'in:7', smsId: 7, conversationId: 'cv_x', domainId: 'shop.test', personId: null, at: new Date('2026-11-27T09:30:00Z'), from: '0612345678', trackingNumber: '0800000001', body: '  Price?  ', source: 'offline', keyword: null, lastTouch: null };
  const subject = textSubject(text, { timeZone: 'Europe/Paris', country: 'FR', pool: 1, firstLeadAt: null });
  const holds = (condition: RuleCondition) => conditionHolds(condition, subject);

  it("reads the words, the numbers, the source and the domain's clock", () => {
    expect(holds({ field: 'words', op: 'contains', value: 'price' })).toBe(true);
    expect(holds({ field: 'words', op: 'is', value: 'price?' })).toBe(true);
    expect(holds({ field: 'words', op: 'is', value: 'price' })).toBe(false);
    expect(holds({ field: 'trackingNumber', op: 'is', value: '0800000001' })).toBe(true);
    expect(holds({ field: 'pool', op: 'is', value: 1 })).toBe(true);
    expect(holds({ field: 'callerCountry', op: 'is', value: 'FR' })).toBe(true);
    expect(holds({ field: 'callerArea', op: 'startsWith', value: '06' })).toBe(true);
    expect(holds({ field: 'sourceClass', op: 'is', value: 'offline' })).toBe(true);
    expect(holds({ field: 'timeOfDay', op: 'between', value: { from: '10:00', to: '11:00' } })).toBe(true);
    expect(holds({ field: 'dayOfWeek', op: 'in', value: ['fri'] })).toBe(true);
  });

  it('says why a text rule could never match', () => {
    const rule = (conditions: RuleCondition[]) => neverMatches({ moment: 'text-received', match: 'all', conditions });
    expect(rule([{ field: 'answered', op: 'is', value: true }])).toBe("conditions.0.field: answered is a call's, and this rule runs when a text is received");
    expect(rule([{ field: 'trackingNumber', op: 'is', value: '0800000001' }, { field: 'trackingNumber', op: 'is', value: '0800000002' }])).toBe('conditions: trackingNumber is 0800000001 and 0800000002 at once, which can never match');
    expect(rule([{ field: 'words', op: 'contains', value: 'price' }, { field: 'hadLead', op: 'is', value: true }])).toBeNull();
  });
});

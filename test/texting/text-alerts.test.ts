// A text received raises the alert mail `newText` (issue 68), gathered like missed calls: the first at
// once, a burst after it in one mail a minute later; each text with its number, the number texted, its
// words and a link to its conversation in the inbox. Read from a real SMTP server on loopback; the
// texts come from a PBX through /telephony/sms.
import { formatUtcDateTime } from '@ringtrail/shared';
import { describe, expect, it } from 'vitest';
import { trackingFixture } from '../helpers/fixtures.ts';
import { alertingOptions, useMailedCollector } from '../helpers/mailed-collector.ts';
import { TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'text alerts owner password' };
const PUBLIC_URL = 'https://calls.shop.test';
const m = useMailedCollector('text_alerts', trackingFixture({ users: [OWNER] }), alertingOptions(PUBLIC_URL));

let refs = 0;
async function textIn(caller: string, message: string): Promise<number> {
  const res = await fetch(`${m.collector.baseUrl}/telephony/sms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ smsRef: `pbx-text-${++refs}`, trackingNumber: '0800000001', callerPhone: caller, sentDate: formatUtcDateTime(new Date()), message }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { smsId: number }).smsId;
}

describe('new-text alerts', () => {
  it('mails the owner about a text at once, with its words and a link to its conversation, and gathers a burst', async () => {
    await textIn('0612345678', 'Hello, <b>is</b> the boiler still on sale?');
    const [first] = await m.inbox.received(1);
    expect(first!.subject).toBe('New text from 06 12 34 56 78 (shop.test)');
    const conversation = (await m.t.c.conversations.findOne({ phone: '0612345678' }))!;
    expect(first!.text).toContain('Text: Hello, <b>is</b> the boiler still on sale?');
    expect(first!.text).toContain('Number texted: 08 00 00 00 01');
    expect(first!.text).toContain(`${PUBLIC_URL}/manage/#/shop.test/inbox?id=${conversation._id}`);
    // The HTML part escapes the texter's words.
    expect(first!.html).toContain('Hello, &#60;b&#62;is&#60;/b&#62; the boiler still on sale?');

    await textIn('0612345678', 'And on Saturdays?');
    await textIn('0698765432', 'Do you deliver?');
    const [, burst] = await m.inbox.received(2);
    expect(burst!.subject).toBe('New texts: 2 (shop.test)');
    expect(burst!.text).toContain('And on Saturdays?');
    expect(burst!.text).toContain('Do you deliver?');
  });
});

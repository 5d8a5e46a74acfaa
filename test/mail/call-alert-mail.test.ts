// The mail of gathered call alerts stays readable whatever the burst: 50 calls listed at most, the
// rest counted with a link to the calls log; every value escaped in its HTML.
import { describe, expect, it } from 'vitest';
import { callAlertMail } from '../../collector/src/alerts/call-alert-mail.ts';
import type { CallDoc } from '../../collector/src/telephony/documents.ts';

const call = (i: number, extra: Partial<CallDoc> = {}) =>
  ({ _id: i, caller: `06000000${String(i % 100).padStart(2, '0')}`, trackingNumber: '0800000001', startedAt: new Date(Date.UTC(2026, 10, 25, 9, 0, i)), status: 'NORESPONSE', duration: 0, source: 'organic:www.google.com', keyword: 'boiler repair', offlineDescription: null, ...extra }) as CallDoc;
const domain = { _id: 'shop.test', timeZone: 'Europe/Paris', country: 'FR', callerPrivacy: 'none' };

describe('a call alert mail', () => {
  it('lists 50 calls of a burst of 120, and says how many more', () => {
    const mail = callAlertMail({ alert: 'missedCall', to: 'owner@shop.test', domain, calls: Array.from({ length: 120 }, (_, i) => call(i + 1)), publicUrl: 'https://calls.shop.test', unsubscribeUrl: 'https://calls.shop.test/mail/unsubscribe/x' });
    expect(mail.subject).toBe('Missed calls: 120 (shop.test)');
    expect(mail.text.split('\n').filter((line) => line.startsWith('The call: '))).toHaveLength(50);
    expect(mail.text).toContain('And 70 more: https://calls.shop.test/manage/#/shop.test/calls');
    expect(mail.html).toContain('And 70 more: see the calls log.');
  });

  it('escapes what a visitor wrote, and hides the caller as the domain says', () => {
    const mail = callAlertMail({ alert: 'newLead', to: 'owner@shop.test', domain: { ...domain, callerPrivacy: 'partial' }, calls: [call(1, { keyword: '<script>alert(1)</script>', status: 'SUCCESS', duration: 95 })], publicUrl: 'https://calls.shop.test', unsubscribeUrl: 'https://calls.shop.test/mail/unsubscribe/x' });
    expect(mail.subject).toBe('New lead: 060000XXXX (shop.test)');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('keyword &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(mail.text).toContain('Outcome: Answered, 95 s');
  });

  it('says an unattributed call came from nobody knows where, not from the website (issue 69)', () => {
    const mail = callAlertMail({ alert: 'missedCall', to: 'owner@shop.test', domain, calls: [call(1, { source: null, keyword: null })], publicUrl: 'https://calls.shop.test', unsubscribeUrl: 'https://calls.shop.test/mail/unsubscribe/x' });
    expect(mail.text).toContain('Came from: unknown: no visit led to this call');
    expect(mail.text).not.toContain('the website');
  });
});

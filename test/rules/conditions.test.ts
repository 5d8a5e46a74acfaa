// A rule's conditions on a call or form read once (rules/subject.ts, rules/conditions.ts): each
// field as a person means it, in the domain's time zone, and the reasons a rule can never match.
import { describe, expect, it } from 'vitest';
import { ruleMatches } from '../../collector/src/rules/conditions.ts';
import { neverMatches, ruleBody, type RuleCondition } from '../../collector/src/rules/rule-input.ts';
import { callSubject, formSubject, type SubjectContext } from '../../collector/src/rules/subject.ts';
import type { CallDoc } from '../../collector/src/telephony/documents.ts';
import type { FormDoc } from '../../collector/src/forms/documents.ts';

const context: SubjectContext = { timeZone: 'Europe/Paris', country: 'FR', pool: 9, firstLeadAt: Date.UTC(2026, 10, 1) };
// Tuesday 24 November 2026, 23:30 in Paris (22:30 UTC).
const startedAt = new Date(Date.UTC(2026, 10, 24, 22, 30));
const touch = { visitId: 1, at: startedAt, source: 'paid:google', keyword: 'Boiler Repair', landingUrl: 'https://shop.test/boilers?utm_medium=CPC&utm_campaign=Winter', campaign: 'Winter', content: null, gclid: 'G', msclkid: null, fbclid: null };
const call = {
  _id: 5, domainId: 'shop.test', startedAt, source: 'paid:google', keyword: 'Boiler Repair', lastTouch: touch, trackingNumber: '0400000001', caller: '0144556677',
  status: 'SUCCESS', outcome: 'SUCCESS', duration: 95, firstCall: true, personId: 3,
  transcript: { status: 'ready', keyPhrases: ['booked', 'price'], heardBy: { caller: ['booked'], agent: ['price'] }, at: startedAt },
} as unknown as CallDoc;
const subject = callSubject(call, context);
const holds = (...conditions: RuleCondition[]) => ruleMatches({ match: 'all', conditions }, subject);

describe("a rule's conditions", () => {
  it('read the attribution in lower case, the source by its label or its name', () => {
    expect(holds({ field: 'source', op: 'is', value: 'Google' }, { field: 'source', op: 'is', value: 'paid:google' }, { field: 'sourceClass', op: 'is', value: 'paid' })).toBe(true);
    expect(holds({ field: 'keyword', op: 'contains', value: 'REPAIR' }, { field: 'medium', op: 'is', value: 'cpc' }, { field: 'campaign', op: 'is', value: 'winter' }, { field: 'landingPage', op: 'contains', value: '/boilers' })).toBe(true);
    expect(holds({ field: 'keyword', op: 'is', value: 'boiler' })).toBe(false);
  });

  it("read the call: number, pool, duration, outcome, first call, the caller's country and area", () => {
    expect(holds({ field: 'trackingNumber', op: 'is', value: '0400000001' }, { field: 'pool', op: 'is', value: 9 }, { field: 'duration', op: 'atLeast', value: 95 }, { field: 'duration', op: 'atMost', value: 95 })).toBe(true);
    expect(holds({ field: 'answered', op: 'is', value: true }, { field: 'firstCall', op: 'is', value: true }, { field: 'callerCountry', op: 'is', value: 'FR' }, { field: 'callerArea', op: 'startsWith', value: '01' })).toBe(true);
    expect(holds({ field: 'callerArea', op: 'startsWith', value: '04' })).toBe(false);
    expect(holds({ field: 'duration', op: 'atLeast', value: 96 })).toBe(false);
  });

  it("read the day and time in the domain's time zone, over midnight too", () => {
    expect(holds({ field: 'dayOfWeek', op: 'in', value: ['tue'] }, { field: 'timeOfDay', op: 'between', value: { from: '22:00', to: '06:00' } })).toBe(true);
    expect(holds({ field: 'timeOfDay', op: 'between', value: { from: '09:00', to: '23:30' } })).toBe(false); // 23:30 is not before 23:30
    expect(holds({ field: 'dayOfWeek', op: 'in', value: ['wed'] })).toBe(false);
    // 22:30 in UTC, 23:30 in Paris: the domain's clock is read.
    expect(holds({ field: 'timeOfDay', op: 'between', value: { from: '23:00', to: '23:59' } })).toBe(true);
    expect(callSubject(call, { ...context, timeZone: 'UTC' }).minutes).toBe(22 * 60 + 30);
  });

  it('read the key phrases by who said them, and whether the person had a lead before', () => {
    expect(holds({ field: 'keyPhrase', op: 'said', value: 'Booked', speaker: 'caller' }, { field: 'keyPhrase', op: 'said', value: 'price', speaker: 'any' }, { field: 'hadLead', op: 'is', value: true })).toBe(true);
    expect(holds({ field: 'keyPhrase', op: 'said', value: 'booked', speaker: 'agent' })).toBe(false);
    expect(ruleMatches({ match: 'any', conditions: [{ field: 'keyPhrase', op: 'said', value: 'booked', speaker: 'agent' }, { field: 'duration', op: 'atLeast', value: 60 }] }, subject)).toBe(true);
    expect(callSubject(call, { ...context, firstLeadAt: null }).hadLead).toBe(false);
  });

  it("read a form's fields, by their name in any case", () => {
    const form = { _id: 1, domainId: 'shop.test', submittedAt: startedAt, source: null, keyword: null, lastTouch: null, fields: { Message: 'Please call me about a NEW boiler' }, personId: null } as unknown as FormDoc;
    const s = formSubject(form, context);
    expect(ruleMatches({ match: 'all', conditions: [{ field: 'formField', op: 'contains', name: 'message', value: 'new boiler' }, { field: 'sourceClass', op: 'is', value: 'unattributed' }] }, s)).toBe(true);
    expect(ruleMatches({ match: 'all', conditions: [{ field: 'formField', op: 'contains', name: 'phone', value: '06' }] }, s)).toBe(false);
  });

  it('refuse a rule that can never match, with the reason', () => {
    const rule = (conditions: unknown[], moment = 'call-ended') => neverMatches(ruleBody.parse({ name: 'r', moment, conditions, actions: [{ type: 'push' }] }));
    expect(rule([{ field: 'answered', op: 'is', value: true }, { field: 'answered', op: 'is', value: false }])).toBe('conditions: answered is both true and false, which can never match');
    expect(rule([{ field: 'trackingNumber', op: 'is', value: '0400000001' }, { field: 'trackingNumber', op: 'is', value: '0400000002' }])).toBe('conditions: trackingNumber is 0400000001 and 0400000002 at once, which can never match');
    expect(rule([{ field: 'formField', op: 'contains', name: 'x', value: 'y' }])).toBe("conditions.0.field: formField is a form's, and this rule runs for calls");
    expect(rule([{ field: 'duration', op: 'atLeast', value: 60 }, { field: 'duration', op: 'atMost', value: 60 }])).toBeNull();
  });
});

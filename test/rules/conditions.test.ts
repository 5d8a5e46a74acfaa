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

  it("read the language model's reading: outcomes (a person's correction included), lead score, sentiment and the domain's questions", () => {
    const analysed = callSubject({
      ...call,
      analysis: {
        status: 'ready', at: startedAt, leadScore: 72, sentiment: 'positive',
        outcomes: { appointmentBooked: { answer: 'yes', quote: 'see you friday' }, spam: { answer: 'no', by: 'ada@shop.test' }, saleMade: { answer: 'unknown', rejected: 'the quote is not in the transcript' } },
        answers: [{ question: 'Did the caller ask for Emergency service?', answer: 'yes', quote: 'today' }],
      },
    } as CallDoc, context);
    const holdsOn = (...conditions: RuleCondition[]) => ruleMatches({ match: 'all', conditions }, analysed);
    expect(holdsOn({ field: 'outcome', name: 'appointmentBooked', op: 'is', value: 'yes' }, { field: 'outcome', name: 'spam', op: 'is', value: 'no' }, { field: 'leadScore', op: 'atLeast', value: 72 }, { field: 'leadScore', op: 'atMost', value: 72 })).toBe(true);
    expect(holdsOn({ field: 'sentiment', op: 'is', value: 'positive' }, { field: 'answer', question: 'did the caller ask for emergency service?', op: 'is', value: 'yes' })).toBe(true);
    // An unknown is neither yes nor no; a question the analysis did not ask is never answered.
    expect(holdsOn({ field: 'outcome', name: 'saleMade', op: 'is', value: 'no' })).toBe(false);
    expect(holdsOn({ field: 'outcome', name: 'saleMade', op: 'is', value: 'yes' })).toBe(false);
    expect(holdsOn({ field: 'answer', question: 'Was it raining?', op: 'is', value: 'no' })).toBe(false);
    expect(holdsOn({ field: 'leadScore', op: 'atLeast', value: 73 })).toBe(false);
    // A call not analysed (or whose analysis failed) matches none of them.
    expect(holds({ field: 'leadScore', op: 'atMost', value: 100 })).toBe(false);
    expect(callSubject({ ...call, analysis: { status: 'failed', at: startedAt, error: 'the model answered 404' } } as CallDoc, context).call!.analysis).toBeNull();
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
    expect(rule([{ field: 'outcome', name: 'appointmentBooked', op: 'is', value: 'yes' }], 'transcript-ready')).toBe('conditions.0.field: outcome is known once the call is analysed: use the moment analysis-ready');
    expect(rule([{ field: 'leadScore', op: 'atLeast', value: 80 }, { field: 'leadScore', op: 'atMost', value: 50 }], 'analysis-ready')).toBe('conditions: a lead score of at least 80 and at most 50 can never match');
    expect(rule([{ field: 'sentiment', op: 'is', value: 'positive' }, { field: 'sentiment', op: 'is', value: 'negative' }], 'analysis-ready')).toBe('conditions: sentiment is positive and negative at once, which can never match');
    expect(rule([{ field: 'keyPhrase', op: 'said', value: 'booked' }, { field: 'answer', question: 'Emergency?', op: 'is', value: 'yes' }], 'analysis-ready')).toBeNull();
    expect(rule([{ field: 'sentiment', op: 'is', value: 'positive' }], 'form-sent')).toBe("conditions.0.field: sentiment is a call's, and this rule runs when a form is sent");
    expect(() => ruleBody.parse({ name: 'r', moment: 'analysis-ready', conditions: [{ field: 'outcome', name: 'booked', op: 'is', value: 'yes' }], actions: [{ type: 'push' }] })).toThrow(/must be one of appointmentBooked/);
  });
});

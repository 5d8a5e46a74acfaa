// "Try before it runs": a rule over the domain's last 30 days of calls (or forms, or texts), listing
// what it would have matched and done, changing nothing. Bounded: the newest PREVIEW_SCAN calls,
// forms or texts are tested, the pools and people they need read once for all, at most PREVIEW_LIST
// listed.
import { callsAtMoment } from './rule-input.ts';
import { wallClock } from '../agent/shapes.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { callerWritten } from '../domains/phone-display.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import { ruleMatches } from './conditions.ts';
import type { RuleDoc } from './documents.ts';
import { applyRule } from './marks.ts';
import { callMarkState, formMarkState } from './rule-runner.ts';
import { callSubject, formSubject, textSubject, type RuleText } from './subject.ts';
import { subjectContexts, type ContextCollections } from './subject-context.ts';

export const PREVIEW_DAYS = 30;
const PREVIEW_SCAN = 5_000;
const PREVIEW_LIST = 100;

export interface PreviewMatch {
  kind: 'call' | 'form' | 'text';
  /** A text's: the spec's SMS id. */
  id: number;
  /** A text's conversation (ours, issue 68). */
  conversationId?: string;
  /** When, at the domain's clock (YYYY-MM-DD HH:MM:SS; the screen writes it in the domain's locale). */
  at: string;
  /** The caller or the form's phone, as the domain's privacy shows it and its country writes it. */
  phone: string | null;
  source: string | null;
  /** What the rule would have done (nothing: it matched, and everything was already so, or set by a person). */
  actions: string[];
}

export interface Preview {
  from: Date;
  to: Date;
  /** Calls or forms tested (the newest PREVIEW_SCAN of the period at most). */
  checked: number;
  matched: number;
  /** The newest matches, PREVIEW_LIST at most. */
  matches: PreviewMatch[];
}

/** The newest texts a domain received in [from, to), `limit` at most (the texting family reads them). */
export type PastTexts = (domainId: string, from: Date, to: Date, limit: number) => Promise<RuleText[]>;

export async function previewRule(c: DomainCollections & TelephonyCollections & FormCollections & ContextCollections, domain: DomainDoc, rule: RuleDoc, pastTexts: PastTexts, now = new Date()): Promise<Preview> {
  const from = new Date(now.getTime() - PREVIEW_DAYS * 86_400_000);
  const shown = (phone: string | null) => (phone ? callerWritten(phone, domain) : null);
  const matches: PreviewMatch[] = [];
  let checked = 0;
  if (rule.moment === 'text-received') {
    // A text's rule changes nothing: what it would have done is to tell, by each of its actions.
    const told = rule.actions.map((a) => a.type);
    const texts = await pastTexts(domain._id, from, now, PREVIEW_SCAN);
    const contextOf = await subjectContexts(c, domain, [rule], texts);
    checked = texts.length;
    for (const text of texts) {
      if (!ruleMatches(rule, textSubject(text, contextOf(text.trackingNumber, text.personId)))) continue;
      matches.push({ kind: 'text', id: text.smsId, conversationId: text.conversationId, at: wallClock(text.at, domain.timeZone), phone: shown(text.from), source: text.source, actions: told });
    }
  } else if (rule.moment === 'form-sent') {
    const forms = await c.forms.find({ domainId: domain._id, submittedAt: { $gte: from, $lt: now }, spam: null }, { sort: { submittedAt: -1 }, limit: PREVIEW_SCAN }).toArray();
    const contextOf = await subjectContexts(c, domain, [rule], forms.map((f) => ({ trackingNumber: null, personId: f.personId })));
    checked = forms.length;
    for (const form of forms) {
      if (!ruleMatches(rule, formSubject(form, contextOf(null, form.personId)))) continue;
      matches.push({ kind: 'form', id: form._id, at: wallClock(form.submittedAt, domain.timeZone), phone: shown(form.phone), source: form.source, actions: applyRule(formMarkState(form), rule, now).entries.map((e) => e.what) });
    }
  } else {
    const calls = await c.calls.find({ domainId: domain._id, startedAt: { $gte: from, $lt: now }, ...callsAtMoment(rule.moment) }, { sort: { startedAt: -1 }, limit: PREVIEW_SCAN }).toArray();
    const contextOf = await subjectContexts(c, domain, [rule], calls);
    checked = calls.length;
    for (const call of calls) {
      if (!ruleMatches(rule, callSubject(call, contextOf(call.trackingNumber, call.personId)))) continue;
      matches.push({ kind: 'call', id: call._id, at: wallClock(call.startedAt, domain.timeZone), phone: shown(call.caller), source: call.source, actions: applyRule(callMarkState(call), rule, now).entries.map((e) => e.what) });
    }
  }
  return { from, to: now, checked, matched: matches.length, matches: matches.slice(0, PREVIEW_LIST) };
}

// A domain's rules run at their moments: a call ended, its transcript ready, its analysis ready, a
// form sent (the house wires these as call and form reactions), a text received (texting/ tells).
// The enabled rules of the moment are read once, in order; each is tested on the subject (no query
// per condition); the marks of all that matched are written in one compare-and-set of the call or
// form, each change in its history; then each matched rule's chat message and `rule` push are queued
// in the outbox, and its mails as pending alerts, with ids that make a second run send nothing. A
// text keeps no marks: its rules only tell.
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { DEFAULT_LEAD_RULE } from '../domains/lead-rule.ts';
import type { FormCollections, FormDoc } from '../forms/documents.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { leadOf, leadRuleOf } from '../telephony/leads.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import { OptInPushes } from '../webhooks/opt-in-push.ts';
import { Outbox } from '../webhooks/outbox.ts';
import { ruleMatches } from './conditions.ts';
import type { RuleCollections, RuleDoc } from './documents.ts';
import { applyRule, markState, withEntries, type MarkChange, type MarkState } from './marks.ts';
import { chatMessage, chatOutbox, rulePush, screenOf, takenOf, type Matched } from './notices.ts';
import type { RuleMoment } from './rule-input.ts';
import { callSubject, formSubject, textSubject, type RuleText } from './subject.ts';
import { subjectContexts, type ContextCollections } from './subject-context.ts';

type RunnerCollections = RuleCollections & DomainCollections & TelephonyCollections & FormCollections & ContextCollections & TeamCollections & WebhookCollections;

export type QueueRuleMails = (domain: DomainDoc, rule: RuleDoc, about: { callId: number } | { formId: number } | { text: RuleText }, key: string, now: Date) => Promise<void>;

/** Each matched rule and what it changed. */
export interface RuleOutcome {
  rule: RuleDoc;
  change: MarkChange;
}

/** The marks of all `rules` in order, from `state`: the last state and each rule's own change. */
export function markAll(state: MarkState, rules: RuleDoc[], now: Date): { state: MarkState; outcomes: RuleOutcome[] } {
  const outcomes: RuleOutcome[] = [];
  for (const rule of rules) {
    const change = applyRule(state, rule, now);
    state = change.state;
    outcomes.push({ rule, change });
  }
  return { state, outcomes };
}

/** A call's marks as rules see them: a verdict without a rule's id is a person's, and so is one undone. */
export const callMarkState = (call: CallDoc) => ({ ...markState(call, call.verdict ? { value: call.verdict.value, byHand: !call.verdict.rule } : null), ...(call.byHand?.verdict ? { verdictByHand: true } : {}) });
export const formMarkState = (form: FormDoc) => ({ ...markState(form, form.verdict ? { value: form.verdict, byHand: false } : null), verdictByHand: Boolean(form.byHand?.verdict) });

export class RuleRunner {
  private readonly outbox: Outbox;
  private readonly pushes: OptInPushes;

  constructor(
    private readonly c: RunnerCollections,
    private readonly calls: CallWrites,
    private readonly forms: FormWrites,
    private readonly publicUrl: string,
    /** Queues a matched rule's mails (alerts/rule-mails.ts, wired by the house): `key` names the moment. */
    private readonly queueMails: QueueRuleMails = async () => {},
  ) {
    this.outbox = new Outbox(c);
    this.pushes = new OptInPushes(c);
  }

  /** The call reaction: `call-ended` as its outcome becomes known, `transcript-ready` as its
   * transcript is, `analysis-ready` as the language model's reading is. */
  async callChanged(before: CallDoc | null, after: CallDoc): Promise<void> {
    if (after.status !== null && (before === null || before.status === null)) await this.onCall('call-ended', after);
    if (after.transcript?.status === 'ready' && before?.transcript?.status !== 'ready') await this.onCall('transcript-ready', after);
    if (after.analysis?.status === 'ready' && before?.analysis?.status !== 'ready') await this.onCall('analysis-ready', after);
  }

  /** The form reaction: `form-sent` for a new submission that is not spam. */
  async formChanged(before: FormDoc | null, after: FormDoc): Promise<void> {
    if (before === null && after.spam === null) await this.onForm(after);
  }

  /** The texting family's word: a text was received (a report sent again is not told twice). */
  async textReceived(text: RuleText, now = new Date()): Promise<void> {
    const rules = await this.rulesAt(text.domainId, 'text-received');
    if (!rules.length) return;
    const domain = await this.c.domains.findOne({ _id: text.domainId });
    if (!domain) return;
    const subject = textSubject(text, (await subjectContexts(this.c, domain, rules, [text]))(text.trackingNumber, text.personId));
    const matched = rules.filter((rule) => ruleMatches(rule, subject));
    if (!matched.length) return;
    const told: Matched = { kind: 'text', id: text.id, conversationId: text.conversationId, phone: text.from, source: text.source, words: text.body };
    await this.notify(domain, told, { text }, `text-received:text:${text.id}`, matched.map((rule) => ({ rule, taken: [] })), now);
  }

  /** The domain's enabled rules of a moment, in order. */
  rulesAt(domainId: string, moment: RuleMoment): Promise<RuleDoc[]> {
    return this.c.rules.find({ domainId, moment, enabled: true }, { sort: { position: 1 } }).toArray();
  }

  private async onCall(moment: RuleMoment, call: CallDoc, now = new Date()): Promise<void> {
    const rules = await this.rulesAt(call.domainId, moment);
    if (!rules.length) return;
    const domain = await this.c.domains.findOne({ _id: call.domainId });
    if (!domain) return;
    const subject = callSubject(call, (await subjectContexts(this.c, domain, rules, [call]))(call.trackingNumber, call.personId));
    const matched = rules.filter((rule) => ruleMatches(rule, subject));
    if (!matched.length) return;
    let outcomes: RuleOutcome[] = [];
    const leadRule = matched.some((rule) => rule.actions.some((a) => a.type === 'verdict')) ? await leadRuleOf(this.c, domain._id) : DEFAULT_LEAD_RULE;
    await this.calls.change(call._id, (current) => {
      const marked = markAll(callMarkState(current), matched, now);
      outcomes = marked.outcomes;
      return callMarksSet(current, marked.state, outcomes, leadRule, now);
    });
    await this.notify(domain, { kind: 'call', id: call._id, phone: call.caller, source: call.source, duration: call.duration }, { callId: call._id }, `${moment}:call:${call._id}`, told(outcomes), now);
  }

  private async onForm(form: FormDoc, now = new Date()): Promise<void> {
    const rules = await this.rulesAt(form.domainId, 'form-sent');
    if (!rules.length) return;
    const domain = await this.c.domains.findOne({ _id: form.domainId });
    if (!domain) return;
    const subject = formSubject(form, (await subjectContexts(this.c, domain, rules, [{ trackingNumber: null, personId: form.personId }]))(null, form.personId));
    const matched = rules.filter((rule) => ruleMatches(rule, subject));
    if (!matched.length) return;
    let outcomes: RuleOutcome[] = [];
    await this.forms.change(domain, form._id, (current) => {
      const marked = markAll(formMarkState(current), matched, now);
      outcomes = marked.outcomes;
      return formMarksSet(current, marked.state, outcomes);
    });
    await this.notify(domain, { kind: 'form', id: form._id, phone: form.phone, source: form.source, duration: null }, { formId: form._id }, `form-sent:form:${form._id}`, told(outcomes), now);
  }

  /** Each matched rule's chat messages, `rule` push and mails, once per rule and moment. */
  private async notify(domain: DomainDoc, matched: Matched, about: Parameters<QueueRuleMails>[2], key: string, outcomes: { rule: RuleDoc; taken: string[] }[], now: Date): Promise<void> {
    const receiver = outcomes.some(({ rule }) => rule.actions.some((a) => a.type === 'push')) ? await this.pushes.receiverOf(domain.accountId, 'rule') : null;
    const link = `${this.publicUrl}/manage/#/${encodeURIComponent(domain.name)}/${screenOf(matched)}`;
    // A text's pushes keep to its conversation's stream, after the text's own push.
    const stream = matched.kind === 'text' ? `conversation:${matched.conversationId}` : `${matched.kind}:${matched.id}`;
    for (const { rule, taken } of outcomes) {
      for (const [i, action] of rule.actions.entries()) {
        if (action.type === 'chat') await this.outbox.enqueue(chatOutbox(domain.accountId, `rule_${rule._id}_${key}_${i}`, action.url, chatMessage(rule, domain, matched, taken, link)), now);
        if (action.type === 'push' && receiver) await this.pushes.send(receiver, stream, rulePush(rule, matched, taken, now), now);
      }
      if (rule.actions.some((a) => a.type === 'mail')) await this.queueMails(domain, rule, about, key, now);
    }
  }
}

/** What each matched rule did, in words. */
const told = (outcomes: RuleOutcome[]) => outcomes.map(({ rule, change }) => ({ rule, taken: takenOf(change.entries) }));

/** The call's fields for the marks rules made (null: nothing changed): a rule's verdict moves its lead. */
export function callMarksSet(call: CallDoc, state: MarkState, outcomes: RuleOutcome[], leadRule: Parameters<typeof leadOf>[1], now: Date): Partial<CallDoc> | null {
  const entries = outcomes.flatMap((o) => o.change.entries);
  if (!entries.length) return null;
  const set: Partial<CallDoc> = { tags: state.tags, value: state.value, history: withEntries(call.history, entries) };
  const byVerdict = outcomes.filter((o) => o.change.entries.some((e) => e.what.startsWith('verdict '))).at(-1)?.rule;
  if (byVerdict && state.verdict) {
    set.verdict = { value: state.verdict, by: `rule ${byVerdict.name}`, at: now, rule: byVerdict._id };
    set.lead = leadOf({ ...call, verdict: set.verdict }, leadRule);
  }
  return set;
}

/** The form's fields for the marks rules made (null: nothing changed). */
export function formMarksSet(form: FormDoc, state: MarkState, outcomes: RuleOutcome[]): Partial<FormDoc> | null {
  const entries = outcomes.flatMap((o) => o.change.entries);
  if (!entries.length) return null;
  return { tags: state.tags, value: state.value, history: withEntries(form.history, entries), ...(state.verdict !== (form.verdict ?? null) ? { verdict: state.verdict } : {}) };
}

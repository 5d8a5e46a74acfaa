// "Apply to past calls": a person runs a rule over a chosen period's calls (or forms) in the
// background, through the outbox (a batch an attempt, the next batch a message of its own: a restart
// loses nothing), bounded (MAX_PERIOD_DAYS, MAX_APPLIED), recorded (`rule_runs`: who, when, how many
// tested and changed), and undoable: each change it made is in the history with the run's id and
// what the field was before, and the undo puts back only what is still as the run left it. No
// chat message or push goes out for past calls.
import { callsAtMoment } from './rule-input.ts';
import { randomUUID } from 'node:crypto';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormCollections, FormDoc } from '../forms/documents.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CallDoc, CallVerdict, MarkEntry, Marks, TelephonyCollections } from '../telephony/documents.ts';
import { leadOf, leadRuleOf } from '../telephony/leads.ts';
import type { OutboxDoc } from '../webhooks/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { SendResult } from '../webhooks/send.ts';
import { ruleMatches } from './conditions.ts';
import type { RuleCollections, RuleDoc, RuleRunDoc } from './documents.ts';
import { withEntries } from './marks.ts';
import { callMarkState, callMarksSet, formMarkState, formMarksSet, markAll } from './rule-runner.ts';
import { callSubject, formSubject } from './subject.ts';
import { subjectContexts, type ContextCollections } from './subject-context.ts';

export const MAX_PERIOD_DAYS = 366;
/** Calls or forms a run tests at most; past it the run says it stopped (`capped`). */
export const MAX_APPLIED = 20_000;
const BATCH = 200;

type RunCollections = RuleCollections & DomainCollections & TelephonyCollections & FormCollections & ContextCollections;
type Job = { runId: string; action: 'apply' | 'undo'; after: number };

const DONE: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

export class RunRefused extends Error {}

export class RuleRuns {
  constructor(
    private readonly c: RunCollections,
    private readonly calls: CallWrites,
    private readonly forms: FormWrites,
    private readonly outbox: Outbox,
  ) {}

  private enqueue(accountId: string, job: Job): Promise<string> {
    return this.outbox.enqueue({ id: `rules_${job.runId}_${job.action}_${job.after}`, accountId, stream: `rules:${job.runId}`, kind: 'rules', label: job.action, url: 'rules:run', contentType: 'application/json', body: JSON.stringify(job), signed: false });
  }

  /** Starts applying `rule` to [from, to): the run as recorded. */
  async start(domain: DomainDoc, rule: RuleDoc, from: Date, to: Date, by: string, now = new Date()): Promise<RuleRunDoc> {
    if (rule.moment === 'text-received') throw new RunRefused('a text-received rule only chats, pushes or mails, as each text comes: there is nothing it could change on past texts');
    if (!(from < to)) throw new RunRefused('to must be after from');
    if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * 86_400_000) throw new RunRefused(`a run covers at most ${MAX_PERIOD_DAYS} days`);
    const busy = await this.c.ruleRuns.findOne({ domainId: domain._id, ruleId: rule._id, state: { $in: ['running', 'undoing'] } });
    if (busy) throw new RunRefused(`the rule is already being applied or undone (run ${busy._id})`);
    const run: RuleRunDoc = { _id: `run_${randomUUID()}`, domainId: domain._id, ruleId: rule._id, ruleName: rule.name, of: rule.moment === 'form-sent' ? 'forms' : 'calls', from, to, state: 'running', by, startedAt: now, finishedAt: null, checked: 0, changed: 0, capped: false, undoneBy: null, undoneAt: null, restored: 0 };
    await this.c.ruleRuns.insertOne(run);
    await this.enqueue(domain.accountId, { runId: run._id, action: 'apply', after: 0 });
    return run;
  }

  list(domainId: string, ruleId: string): Promise<RuleRunDoc[]> {
    return this.c.ruleRuns.find({ domainId, ruleId }, { sort: { startedAt: -1 }, limit: 20 }).toArray();
  }

  /** Starts undoing a finished run: the run as recorded. */
  async undo(domain: DomainDoc, runId: string, by: string, now = new Date()): Promise<RuleRunDoc | null> {
    const run = await this.c.ruleRuns.findOneAndUpdate({ _id: runId, domainId: domain._id, state: 'done' }, { $set: { state: 'undoing', undoneBy: by, undoneAt: now } }, { returnDocument: 'after' });
    if (!run) {
      const exists = await this.c.ruleRuns.findOne({ _id: runId, domainId: domain._id });
      if (!exists) return null;
      throw new RunRefused(`run ${runId} is ${exists.state}: only a finished run is undone`);
    }
    await this.enqueue(domain.accountId, { runId, action: 'undo', after: 0 });
    return run;
  }

  /** One batch of a run (the outbox's sender of kind `rules`). */
  async fetch(m: OutboxDoc): Promise<SendResult> {
    const job = JSON.parse(m.body) as Job;
    const run = await this.c.ruleRuns.findOne({ _id: job.runId });
    const domain = run && (await this.c.domains.findOne({ _id: run.domainId }));
    if (!run || !domain) return DONE;
    const rule = await this.c.rules.findOne({ _id: run.ruleId });
    const forms = run.of === 'forms';
    const period = { $gte: run.from, $lt: run.to };
    const ids = forms
      ? (await this.c.forms.find({ domainId: domain._id, submittedAt: period, _id: { $gt: job.after }, ...(job.action === 'undo' ? { 'history.run': run._id } : { spam: null }) }, { sort: { _id: 1 }, limit: BATCH, projection: { _id: 1 } }).toArray()).map((d) => d._id)
      : (await this.c.calls.find({ domainId: domain._id, startedAt: period, _id: { $gt: job.after }, ...(job.action === 'undo' ? { 'history.run': run._id } : callsAtMoment(rule?.moment ?? 'call-ended')) }, { sort: { _id: 1 }, limit: BATCH, projection: { _id: 1 } }).toArray()).map((d) => d._id);
    let counted = 0;
    let changed = 0;
    if (job.action === 'apply' && rule) {
      const room = Math.max(0, MAX_APPLIED - run.checked);
      const batch = ids.slice(0, room);
      changed = await this.applyBatch(domain, rule, run, batch, forms);
      counted = batch.length;
      const capped = ids.length > room;
      const finished = ids.length < BATCH || capped;
      await this.c.ruleRuns.updateOne({ _id: run._id }, { $inc: { checked: counted, changed }, $set: finished ? { state: 'done', finishedAt: new Date(), capped } : {} });
      if (!finished) await this.enqueue(domain.accountId, { ...job, after: ids.at(-1)! });
      return DONE;
    }
    if (job.action === 'apply') {
      // The rule was deleted meanwhile: the run ends with what it did.
      await this.c.ruleRuns.updateOne({ _id: run._id }, { $set: { state: 'done', finishedAt: new Date() } });
      return DONE;
    }
    const restored = await this.undoBatch(domain, run, ids, forms);
    const finished = ids.length < BATCH;
    await this.c.ruleRuns.updateOne({ _id: run._id }, { $inc: { restored }, $set: finished ? { state: 'undone' } : {} });
    if (!finished) await this.enqueue(domain.accountId, { ...job, after: ids.at(-1)! });
    return DONE;
  }

  private async applyBatch(domain: DomainDoc, rule: RuleDoc, run: RuleRunDoc, ids: number[], forms: boolean): Promise<number> {
    const now = new Date();
    let changed = 0;
    if (forms) {
      const docs = await this.c.forms.find({ _id: { $in: ids } }).toArray();
      const contextOf = await subjectContexts(this.c, domain, [rule], docs.map((d) => ({ trackingNumber: null, personId: d.personId })));
      for (const doc of docs) {
        if (!ruleMatches(rule, formSubject(doc, contextOf(null, doc.personId)))) continue;
        const after = await this.forms.change(domain, doc._id, (current) => {
          const marked = markAll(formMarkState(current), [rule], now);
          const set = formMarksSet(current, marked.state, marked.outcomes);
          return set && { ...set, history: withEntries(current.history, ranEntries(marked.outcomes[0]!.change.entries, run._id, current, current.verdict ?? null)) };
        });
        if (after) changed++;
      }
      return changed;
    }
    const docs = await this.c.calls.find({ _id: { $in: ids } }).toArray();
    const contextOf = await subjectContexts(this.c, domain, [rule], docs);
    const leadRule = await leadRuleOf(this.c, domain._id);
    for (const doc of docs) {
      if (!ruleMatches(rule, callSubject(doc, contextOf(doc.trackingNumber, doc.personId)))) continue;
      const after = await this.calls.change(doc._id, (current) => {
        const marked = markAll(callMarkState(current), [rule], now);
        const set = callMarksSet(current, marked.state, marked.outcomes, leadRule, now);
        return set && { ...set, history: withEntries(current.history, ranEntries(marked.outcomes[0]!.change.entries, run._id, current, current.verdict ?? null)) };
      });
      if (after) changed++;
    }
    return changed;
  }

  private async undoBatch(domain: DomainDoc, run: RuleRunDoc, ids: number[], forms: boolean): Promise<number> {
    const now = new Date();
    const by = run.undoneBy ?? 'a person';
    let restored = 0;
    if (forms) {
      for (const id of ids) if (await this.forms.change(domain, id, (form) => undoneMarks(form, run._id, by, now, (verdict) => ({ verdict: (verdict as FormDoc['verdict']) ?? null })))) restored++;
      return restored;
    }
    const leadRule = await leadRuleOf(this.c, domain._id);
    for (const id of ids) {
      const after = await this.calls.change(id, (call) =>
        undoneMarks(call, run._id, by, now, (verdict) => {
          const previous = (verdict as CallVerdict | null) ?? null;
          return { verdict: previous, lead: leadOf({ ...call, verdict: previous }, leadRule) } as Partial<CallDoc>;
        }),
      );
      if (after) restored++;
    }
    return restored;
  }
}

/** A run's entries, each with the run's id and what its field was before. */
function ranEntries(entries: MarkEntry[], runId: string, doc: Marks, verdict: CallVerdict | string | null): MarkEntry[] {
  return entries.map((e) => ({ ...e, run: runId, ...(e.what.startsWith('value ') ? { before: { value: doc.value ?? null } } : e.what.startsWith('verdict ') ? { before: { verdict } } : {}) }));
}

/** What undoing a run's entries makes of a call or form: each put back while it is still as the run
 * left it (a tag still on and not put on or off again since, the value and verdict not set since by a
 * rule or a person). */
function undoneMarks<T extends Marks & { verdict?: unknown }>(doc: T, runId: string, by: string, now: Date, verdictSet: (before: unknown) => Partial<T>): Partial<T> | null {
  const history = doc.history ?? [];
  const ran = history.filter((e) => e.run === runId);
  if (!ran.length) return null;
  const laterOf = (entry: MarkEntry) => history.slice(history.indexOf(entry) + 1);
  let set: Partial<T> = {};
  const undone: MarkEntry[] = [];
  let tags = doc.tags ?? [];
  for (const entry of ran) {
    const later = laterOf(entry);
    if (entry.what.startsWith('tagged ')) {
      const tag = entry.what.slice('tagged '.length);
      if (tags.includes(tag) && !later.some((e) => e.what === `tagged ${tag}` || e.what === `untagged ${tag}`)) {
        tags = tags.filter((t) => t !== tag);
        set = { ...set, tags };
        undone.push({ at: now, by, what: `untagged ${tag}, undoing run of rule ${entry.by.replace(/^rule /, '')}` });
      }
    } else if (entry.what.startsWith('value ') && entry.before && !later.some((e) => e.what.startsWith('value '))) {
      set = { ...set, value: entry.before.value ?? null };
      undone.push({ at: now, by, what: `value ${entry.before.value ?? 'cleared'}, undoing run of rule ${entry.by.replace(/^rule /, '')}` });
    } else if (entry.what.startsWith('verdict ') && entry.before && !doc.byHand?.verdict && !later.some((e) => e.what.startsWith('verdict '))) {
      set = { ...set, ...verdictSet(entry.before.verdict ?? null) };
      undone.push({ at: now, by, what: `verdict put back, undoing run of rule ${entry.by.replace(/^rule /, '')}` });
    }
  }
  if (!undone.length) return null;
  return { ...set, history: withEntries(history, undone) } as Partial<T>;
}

// Writes of a form submission, and what follows each: the report counters (reports/form-sources.ts)
// and its person's entries (people/person-contacts.ts) move by exactly the change, and a new lead
// raises its e-mail alerts (alerts/call-alerts.ts). A verdict is one atomic update that answers the
// submission as it was, so two verdicts at once each move the counters from the state the other left.
import type { DomainDoc } from '../domains/documents.ts';
import type { FormDoc, FormCollections, FormVerdict } from './documents.ts';

/** Told of a submission stored (`before` null) or changed, with its domain's time zone. */
export type FormReaction = (before: FormDoc | null, after: FormDoc, timeZone: string) => Promise<unknown>;

export class FormWrites {
  /** `reactions`: the report counters, the person's entries, the alerts, wired by the house
   * (house/writes.ts); forms knows none of those families. */
  constructor(
    private readonly c: FormCollections,
    private readonly reactions: readonly FormReaction[],
  ) {}

  async insert(domain: Pick<DomainDoc, 'timeZone'>, form: FormDoc): Promise<void> {
    await this.c.forms.insertOne(form);
    await this.changed(null, form, domain.timeZone);
  }

  /** A person's word on a submission (null undoes it): a lead, not a lead, or spam; the signals count again without it. */
  async setVerdict(domain: Pick<DomainDoc, '_id' | 'timeZone'>, formId: number, verdict: FormVerdict | null): Promise<FormDoc | null> {
    const form = await this.c.forms.findOne({ _id: formId, domainId: domain._id }, { projection: { signal: 1 } });
    if (!form) return null;
    const { spam, lead } = judged(form.signal, verdict);
    // A person's verdict (or its undo) is theirs: no rule changes it after (rules/).
    const before = await this.c.forms.findOneAndUpdate({ _id: formId }, { $set: { verdict, lead, spam, 'byHand.verdict': true }, $inc: { rev: 1 } }, { returnDocument: 'before' });
    if (!before) return null;
    const after = { ...before, verdict, lead, spam, byHand: { ...before.byHand, verdict: true }, rev: (before.rev ?? 0) + 1 };
    await this.changed(before, after, domain.timeZone);
    return after;
  }

  /** Sets the fields `next` makes of the submission as it is now (null: no change), read again and
   * retried when another write came between; a verdict in them moves its spam and lead. The
   * submission after, or null when it is gone or unchanged. */
  async change(domain: Pick<DomainDoc, '_id' | 'timeZone'>, formId: number, next: (form: FormDoc) => Partial<FormDoc> | null): Promise<FormDoc | null> {
    for (;;) {
      const form = await this.c.forms.findOne({ _id: formId, domainId: domain._id });
      const fields = form && next(form);
      if (!form || !fields) return null;
      const set = 'verdict' in fields ? { ...fields, ...judged(form.signal, fields.verdict ?? null) } : fields;
      const rev = form.rev ?? 0;
      const { matchedCount } = await this.c.forms.updateOne({ _id: formId, ...(form.rev === undefined ? { rev: { $exists: false } } : { rev }) }, { $set: { ...set, rev: rev + 1 } });
      if (matchedCount === 0) continue;
      const after = { ...form, ...set, rev: rev + 1 };
      await this.changed(form, after, domain.timeZone);
      return after;
    }
  }

  private async changed(before: FormDoc | null, after: FormDoc, timeZone: string): Promise<void> {
    await Promise.all(this.reactions.map((react) => react(before, after, timeZone)));
  }
}

/** Spam and lead from the signals and a person's verdict, which wins. */
export function judged(signal: FormDoc['signal'], verdict: FormVerdict | null): Pick<FormDoc, 'spam' | 'lead'> {
  if (verdict === null) return { spam: signal, lead: signal === null };
  return { spam: verdict === 'spam' ? 'verdict' : null, lead: verdict === 'lead' };
}

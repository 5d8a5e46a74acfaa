// Writes of a form submission: the report counters (reports/form-sources.ts) and its person's
// entries (people/person-contacts.ts) move by exactly the change, and a new lead raises its e-mail
// alerts (alerts/call-alerts.ts). A verdict is one atomic update that answers the submission as it
// was, so two verdicts at once each move the counters from the state the other left.
import { CallAlerts } from '../alerts/call-alerts.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { formContact, PersonContacts } from '../people/person-contacts.ts';
import { FormSources } from '../reports/form-sources.ts';
import type { FormDoc, FormCollections } from './documents.ts';
import { judged, type FormVerdict } from './forms-log.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';
import type { AlertCollections } from '../alerts/documents.ts';

export class FormWrites {
  private readonly sources: FormSources;
  private readonly people: PersonContacts;
  private readonly alerts: CallAlerts | null;

  /** `alerts`: new leads raise e-mail alerts (where mail is configured, as call-writes.ts). */
  constructor(
    private readonly c: FormCollections & TeamCollections & DomainCollections & TelephonyCollections & ReportCollections & PeopleCollections & AlertCollections,
    { alerts = false }: { alerts?: boolean } = {},
  ) {
    this.sources = new FormSources(c);
    this.people = new PersonContacts(c);
    this.alerts = alerts ? new CallAlerts(c) : null;
  }

  async insert(domain: Pick<DomainDoc, 'timeZone'>, form: FormDoc): Promise<void> {
    await this.c.forms.insertOne(form);
    await this.changed(null, form, domain.timeZone);
  }

  /** A person's word on a submission (null undoes it): a lead, not a lead, or spam; the signals count again without it. */
  async setVerdict(domain: Pick<DomainDoc, '_id' | 'timeZone'>, formId: number, verdict: FormVerdict | null): Promise<FormDoc | null> {
    const form = await this.c.forms.findOne({ _id: formId, domainId: domain._id }, { projection: { signal: 1 } });
    if (!form) return null;
    const { spam, lead } = judged(form.signal, verdict);
    const before = await this.c.forms.findOneAndUpdate({ _id: formId }, { $set: { verdict, lead, spam }, $inc: { rev: 1 } }, { returnDocument: 'before' });
    if (!before) return null;
    const after = { ...before, verdict, lead, spam, rev: (before.rev ?? 0) + 1 };
    await this.changed(before, after, domain.timeZone);
    return after;
  }

  private async changed(before: FormDoc | null, after: FormDoc, timeZone: string): Promise<void> {
    await Promise.all([this.sources.record(before, after, timeZone), this.people.record(before && formContact(before), formContact(after)), this.alerts?.formChanged(before, after)]);
  }
}

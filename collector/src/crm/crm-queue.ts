// What is queued for a domain's CRM (issue 67), as the house's call and form reaction: a call once its
// outcome is known, and again when what the CRM shows of it changes (its lead, verdict, tags, value,
// recording, transcript, analysis, who answered); a form submission that is not spam, and again when its lead,
// verdict, tags or value change. Each connection's choice applies: calls, forms, only leads, only
// callers' first calls. One indexed read per change of a domain with no CRM.
import type { FormDoc } from '../forms/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { upsertById } from '../db/writes.ts';
import type { CrmCollections } from './documents.ts';
import { crmMessage, deliveryIdOf, type CrmJob } from './crm-sync.ts';

/** Queues an item's delivery, shown `queued` on the CRM card until it is sent or fails (a broken
 * connection's deliveries wait so). */
export async function queueDelivery(c: CrmCollections, outbox: Outbox, accountId: string, job: CrmJob, personId: number | null, now = new Date()): Promise<void> {
  await upsertById(c.crmDeliveries, deliveryIdOf(job), { state: 'queued', error: null, at: now }, { domainId: job.domainId, accountId, crm: job.crm, kind: job.kind, itemId: job.itemId, records: [] });
  await outbox.enqueue(crmMessage(accountId, job, personId));
}

/** Why a CRM is told nothing of this call (null: it is told of it): a call placed from the back end,
 * or one with no outcome yet. "Send again" refuses the same (issue 79). */
export function callNotForCrm(call: Pick<CallDoc, 'direction' | 'status'>): string | null {
  if (call.direction === 'outbound') return 'a call placed from the back end: the CRM is told of calls received';
  return call.status === null ? 'a call with no outcome yet' : null;
}

/** Why a CRM is told nothing of this form (null: it is told of it): one marked spam. */
export function formNotForCrm(form: Pick<FormDoc, 'spam'>): string | null {
  return form.spam !== null ? `a submission marked spam (${form.spam}): the CRM is told of no spam` : null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What the CRM shows of a call changed (or its outcome just became known). */
function callNews(before: CallDoc | null, after: CallDoc): boolean {
  if (callNotForCrm(after)) return false;
  if (!before || before.status === null) return true;
  return !same(before.lead, after.lead) || !same(before.verdict?.value, after.verdict?.value) || !same(before.tags, after.tags) || !same(before.value, after.value) || !same(before.recording?.status, after.recording?.status) || !same(before.transcript?.status, after.transcript?.status) || !same(before.analysis?.status, after.analysis?.status) || !same(before.analysis?.outcomes, after.analysis?.outcomes) || !same(before.answeredBy?.member, after.answeredBy?.member);
}

function formNews(before: FormDoc | null, after: FormDoc): boolean {
  if (formNotForCrm(after)) return false;
  return !before || before.spam !== null || !same(before.lead, after.lead) || !same(before.verdict, after.verdict) || !same(before.tags, after.tags) || !same(before.value, after.value);
}

export class CrmQueue {
  constructor(
    private readonly c: CrmCollections,
    private readonly outbox: Outbox,
  ) {}

  async callChanged(before: CallDoc | null, after: CallDoc): Promise<void> {
    if (!callNews(before, after)) return;
    for (const conn of await this.connectionsOf(after.domainId)) {
      if (!conn.send.calls || (conn.send.onlyLeads && !after.lead) || (conn.send.onlyFirstCallers && !after.firstCall)) continue;
      await queueDelivery(this.c, this.outbox, conn.accountId, { domainId: after.domainId, crm: conn.crm, kind: 'call', itemId: after._id }, after.personId ?? null);
    }
  }

  async formChanged(before: FormDoc | null, after: FormDoc): Promise<void> {
    if (!formNews(before, after)) return;
    for (const conn of await this.connectionsOf(after.domainId)) {
      if (!conn.send.forms || (conn.send.onlyLeads && !after.lead)) continue;
      await queueDelivery(this.c, this.outbox, conn.accountId, { domainId: after.domainId, crm: conn.crm, kind: 'form', itemId: after._id }, after.personId);
    }
  }

  private connectionsOf(domainId: string) {
    return this.c.crmConnections.find({ domainId }, { projection: { crm: 1, accountId: 1, send: 1 } }).toArray();
  }
}

// The outbox job that puts a call or a form submission in a domain's CRM (issue 67), in order per
// person (its stream): the person found or made once (their CRM id kept on our person), the owner
// mapped by the e-mail of who answered (else the connection's default), the activity created once and
// updated ever after by its kept id. Each delivery is kept (the CRM card's list) and marked on the
// call or form through their writes (the data API's `crm`, the pages). An erased person is not sent,
// nor a call from a withheld number (no one to file it under).
// A refused token breaks the connection (it waits, retried with back-off); a 429 waits its Retry-After.
import { upsertById } from '../db/writes.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CrmRecordMark, TelephonyCollections } from '../telephony/documents.ts';
import type { OutboxDoc, OutboxMessage } from '../webhooks/documents.ts';
import type { SendResult } from '../webhooks/send.ts';
import { ACTIVITY_OBJECTS, CrmFailure, type Crm } from './crm-client.ts';
import type { CrmConnections } from './connections.ts';
import type { CrmCollections, CrmConnectionDoc, CrmDeliveryDoc, CrmPersonRefs } from './documents.ts';
import { callItem, formItem, type CrmItem } from './crm-items.ts';
import { CRM_LINK_DAYS, ListenLinks } from '../recordings/listen-links.ts';

const DONE: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

export interface CrmJob {
  domainId: string;
  crm: Crm;
  kind: 'call' | 'form';
  itemId: number;
}

/** The delivery's id: `<crm>|<domainId>|call:<id>`. */
export const deliveryIdOf = (job: CrmJob) => `${job.crm}|${job.domainId}|${job.kind}:${job.itemId}`;

/** The job of an item's delivery: in the stream of its person for that CRM (or of the item, without one): a CRM that waits holds up no other. */
export function crmMessage(accountId: string, job: CrmJob, personId: number | null): OutboxMessage {
  return { accountId, stream: `crm:${job.crm}:${job.domainId}:${personId !== null ? `person:${personId}` : `${job.kind}:${job.itemId}`}`, kind: 'crm', label: job.crm, url: `crm:${job.crm}`, contentType: 'application/json', body: JSON.stringify(job), signed: false, about: job.kind === 'call' ? { callIds: [job.itemId] } : { formIds: [job.itemId] } };
}

/** Told of each delivery's result (the metrics count them). */
export type CrmCounted = (crm: Crm, result: 'sent' | 'updated' | 'failed' | 'retrying') => void;

export class CrmSync {
  private readonly listen: ListenLinks;

  constructor(
    private readonly c: CrmCollections & TelephonyCollections & FormCollections & DomainCollections,
    private readonly refs: CrmPersonRefs,
    private readonly connections: CrmConnections,
    private readonly writes: { calls: CallWrites; forms: FormWrites },
    private readonly publicUrl: string,
    private readonly counted: CrmCounted = () => {},
  ) {
    this.listen = new ListenLinks(c, publicUrl);
  }

  async fetch(m: OutboxDoc): Promise<SendResult> {
    const job = JSON.parse(m.body) as CrmJob;
    const opened = await this.connections.opened(job.domainId, job.crm);
    // Credentials SECRETS_KEY cannot open wait (the connection is shown broken) until it is connected again.
    if (!opened) return (await this.c.crmConnections.countDocuments({ _id: `${job.domainId}|${job.crm}` })) ? { delivered: false, httpStatus: null, error: 'the stored credentials cannot be opened', permanent: false } : this.skipped(job, 'the connection was removed');
    const domain = await this.c.domains.findOne({ _id: job.domainId });
    const item = domain && (await this.itemOf(job, domain));
    if (!domain || !item) return this.skipped(job, 'the call or form is gone');
    // Nobody to file it under: a withheld number, or a contact whose person was erased (its number and
    // person gone with them).
    if (!item.crm.person.phones.length && !item.crm.person.email) return this.skipped(job, 'no number or e-mail to file it under');
    const person = item.personId !== null ? await this.refs.of(item.personId, job.crm) : null;
    if (person?.erased) return this.skipped(job, 'the person was erased');
    const { doc, client } = opened;
    const deliveryId = deliveryIdOf(job);
    try {
      const ownerId = (item.crm.answeredBy ? await client.ownerOf(item.crm.answeredBy) : null) ?? doc.defaultOwner;
      // The kept record as the CRM has it now (a Lead converted since is its Contact; one deleted, none).
      const kept = person?.ref ? await client.personNow(person.ref) : null;
      const personRef = kept ?? (await client.person({ ...item.crm.person, ownerId })).id;
      if (person && item.personId !== null && personRef !== person.ref) {
        await this.refs.keep(item.personId, job.crm, personRef);
      }
      const before = await this.c.crmDeliveries.findOne({ _id: deliveryId });
      const object = ACTIVITY_OBJECTS[job.crm][job.kind];
      const known = before?.records.find((r) => r.object === object)?.id ?? null;
      const activity = await client.activity({ ...item.crm.activity, ownerId }, personRef, known);
      const state = activity.created ? 'sent' : 'updated';
      const records = [{ object: client.objectOf(personRef), id: personRef }, { object, id: activity.id }, ...activity.also];
      await this.delivered(doc, domain, job, deliveryId, state, null, records.map((r) => ({ ...r, link: linkOf(doc, r.object, r.id) })));
      await this.connections.markWorking(doc);
      this.counted(job.crm, state);
      return DONE;
    } catch (err) {
      if (!(err instanceof CrmFailure)) throw err;
      if (err.kind === 'broken') await this.connections.markBroken(doc, err.message);
      // Refused for good: the outbox gives the job up at once, and its giving up marks it (failed()).
      if (err.kind === 'refused') return { delivered: false, httpStatus: null, error: err.message, permanent: true };
      this.counted(job.crm, 'retrying');
      return { delivered: false, httpStatus: null, error: err.message, permanent: false, retryAfterMs: err.retryAfterMs };
    }
  }

  /** The delivery failed for good (refused, or given up after its retries): kept and shown so. The
   * outbox's giving up calls it, once a job. */
  async failed(job: CrmJob, error: string): Promise<void> {
    const [doc, domain] = await Promise.all([this.c.crmConnections.findOne({ _id: `${job.domainId}|${job.crm}` }), this.c.domains.findOne({ _id: job.domainId })]);
    if (!doc || !domain) return;
    const before = await this.c.crmDeliveries.findOne({ _id: deliveryIdOf(job) });
    await this.delivered(doc, domain, job, deliveryIdOf(job), 'failed', error, before?.records ?? []);
    this.counted(job.crm, 'failed');
  }

  /** Not sent, and never will be: said on the card instead of `queued`. */
  private async skipped(job: CrmJob, why: string): Promise<SendResult> {
    await this.c.crmDeliveries.updateOne({ _id: deliveryIdOf(job), state: 'queued' }, { $set: { state: 'skipped', error: `not sent: ${why}`, at: new Date() } });
    return DONE;
  }

  private async itemOf(job: CrmJob, domain: DomainDoc): Promise<{ personId: number | null; crm: CrmItem } | null> {
    if (job.kind === 'call') {
      const call = await this.c.calls.findOne({ _id: job.itemId, domainId: domain._id });
      const recording = call?.recording?.status === 'stored' ? await this.listen.linkOf(call, CRM_LINK_DAYS) : null;
      return call && { personId: call.personId ?? null, crm: callItem(call, domain, this.publicUrl, recording) };
    }
    const form = await this.c.forms.findOne({ _id: job.itemId, domainId: domain._id });
    return form && { personId: form.personId, crm: formItem(form, domain, this.publicUrl) };
  }

  /** Keeps the delivery, and marks its records on the call or form. */
  private async delivered(doc: CrmConnectionDoc, domain: DomainDoc, job: CrmJob, _id: string, state: CrmDeliveryDoc['state'], error: string | null, records: CrmDeliveryDoc['records']): Promise<void> {
    const at = new Date();
    await upsertById(this.c.crmDeliveries, _id, { domainId: job.domainId, accountId: doc.accountId, crm: job.crm, kind: job.kind, itemId: job.itemId, records, state, error, at }, {});
    const marks: CrmRecordMark[] = (records.length ? records : [{ object: ACTIVITY_OBJECTS[job.crm][job.kind], id: null, link: null }]).map((r) => ({ crm: job.crm, object: r.object, id: r.id, state, link: r.link, ...(error ? { error } : {}) }));
    const merged = (current: CrmRecordMark[] | undefined) => ({ crmRecords: [...(current ?? []).filter((m) => m.crm !== job.crm), ...marks] });
    if (job.kind === 'call') await this.writes.calls.change(job.itemId, (call) => merged(call.crmRecords));
    else await this.writes.forms.change(domain, job.itemId, (form) => merged(form.crmRecords));
  }
}

const linkOf = (doc: CrmConnectionDoc, object: string, id: string) => doc.account.links[object]?.replace('{id}', encodeURIComponent(id)) ?? null;

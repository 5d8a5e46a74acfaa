// A domain's people (issue 43): the person of a phone number or an e-mail address (one lookup by
// its key), and a person's timeline. For those who may read the calls log.
import { crmRecordsOfPerson } from '../crm/person-records.ts';
import type { CrmCollections } from '../crm/documents.ts';
import type Router from '@koa/router';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import type { Context } from 'koa';
import { canonicalIn, countryOf } from '../domains/phone-numbers.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import type { People } from '../people/people.ts';
import { timelineOf } from '../people/timeline.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { erasePerson } from '../people/erase.ts';
import { personExport } from '../people/export.ts';
import { keysOfPerson } from '../people/people.ts';
import { eraseTexts, personTexts } from '../texting/person-texts.ts';
import type { TextingCollections } from '../texting/documents.ts';
import { sendFile } from './report-routes.ts';
import type { RecordingStates } from '../recordings/states.ts';
import type { RecordingStore } from '../recordings/store.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import { RULES } from '../team/roles.ts';
import { domainOf } from './settings-routes.ts';
import type { PeopleCollections } from '../people/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { CommerceCollections } from '../commerce/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

export function peopleRoutes(router: Router, c: DomainCollections & TrackingCollections & TelephonyCollections & ReportCollections & FormCollections & PeopleCollections & CommerceCollections & WebhookCollections & TranscriptCollections & CrmCollections & TextingCollections, can: Can, people: People, writes: CallWrites, recordings: { store: RecordingStore; states: RecordingStates } | null): void {
  /** `?phone=` (any form, read in the domain's country) or `?email=`: the person, or 404. */
  router.get('/domains/:domain/people', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const phone = typeof ctx.query.phone === 'string' ? canonicalIn(ctx.query.phone, countryOf(domain)) : null;
    const email = typeof ctx.query.email === 'string' && ctx.query.email.length <= 320 ? ctx.query.email : null;
    if (!phone && !email) throw new ManageFailure(400, 'Give phone (a phone number) or email');
    const personId = await people.byKey(domain._id, phone ? { phone } : { email });
    if (personId === null) throw new ManageFailure(404, 'No person with this phone number or e-mail address in this domain');
    ctx.body = { personId };
  });

  /** A person's timeline: visits, calls, texts and form submissions in time order, and the first touch. */
  router.get('/domains/:domain/people/:personId', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const personId = await personIn(ctx, domain._id, true);
    const [timeline, person] = await Promise.all([timelineOf(c, domain, personId), c.people.findOne({ _id: personId }, { projection: { crmRefs: 1 } })]);
    // Ours (crm/): their records in the domain's CRMs, with links.
    ctx.body = { ...timeline, crm: await crmRecordsOfPerson(c, domain._id, person?.crmRefs ?? {}) };
  });

  /** Everything stored of the person, as a JSON file (their right of access). In the activity log. */
  router.get('/domains/:domain/people/:personId/export', can(RULES.manageDomain, 'person.export'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const personId = await personIn(ctx, domain._id);
    auditing(ctx, { personId });
    sendFile(ctx, `person-${personId}-${domain.name}.json`, 'application/json; charset=utf-8', personExport(c, domain, personId, new Date(), [(id, phones) => personTexts(c, domain, id, phones)]));
  });

  /** Merges another person into this one, or this one into it (the older lives on): a person decided
   * they are one, such as two that a form named at once. In the activity log. */
  router.post('/domains/:domain/people/:personId/merge', can(RULES.manageDomain, 'person.merge'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const personId = await personIn(ctx, domain._id);
    const other = bodyOf(ctx.request).with;
    if (typeof other !== 'number' || !Number.isSafeInteger(other)) throw new ManageFailure(400, 'with: must be the id of another person of this domain');
    const merged = await people.mergeByHand(domain._id, personId, other);
    if (merged === null) throw new ManageFailure(404, `No person ${other} in this domain`);
    auditing(ctx, { personId, with: other, into: merged });
    ctx.body = { personId: merged };
  });

  /** Erases the person on request: their contacts' personal fields and recordings go, the contacts
   * stay (anonymous), and so do the counts. In the activity log. */
  router.delete('/domains/:domain/people/:personId', can(RULES.manageDomain, 'person.erase'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const personId = await personIn(ctx, domain._id);
    auditing(ctx, { personId });
    // What they left in the domain's CRMs, listed for the owner to remove there; they are never sent again.
    const crm = await crmRecordsOfPerson(c, domain._id, (await c.people.findOne({ _id: personId }, { projection: { crmRefs: 1 } }))?.crmRefs ?? {});
    // Their numbers, read before the erase takes them: their conversations and opt-outs (texting/).
    const { phones } = await keysOfPerson(c, personId);
    const erased = await erasePerson(c, writes, recordings, domain._id, personId, memberOf(ctx)._id);
    await c.people.updateOne({ _id: personId }, { $unset: { crmRefs: '' } });
    const conversations = await eraseTexts(c, domain._id, personId, phones);
    ctx.body = { ...erased, conversations, crm };
  });

  /** The person the path names, as they live on after merges; 404 for one of another domain, or
   * erased (unless `erasedToo`: their timeline shows what is left). */
  async function personIn(ctx: Context, domainId: string, erasedToo = false): Promise<number> {
    const asked = Number(ctx.params.personId);
    const person = Number.isSafeInteger(asked) ? await c.people.findOne({ _id: asked, domainId }) : null;
    if (!person || (person.erasedAt && !erasedToo)) throw new ManageFailure(404, `No person ${ctx.params.personId} in this domain`);
    return people.current(person._id);
  }
}

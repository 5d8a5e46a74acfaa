// Click-to-call (issue 68): a member calls a person back from the back end. The carrier rings the
// member's own phone first (their profile's, or one typed once and kept there), says whom they are
// about to call, then dials the person with the tracking number as caller id (twilio-outbound.ts
// answers those steps). The call is kept `direction: outbound`: listed by the data API, the calls log
// and the person's timeline, counted by no report, never a lead nor attributed (house/writes.ts).
import { randomUUID } from 'node:crypto';
import { CarrierError, type Carrier } from '../carriers/carrier.ts';
import { claimRecordId } from '../db/external-refs.ts';
import type { DiallingPolicies } from '../dialling/policies.ts';
import type { IdAllocator } from '../db/ids.ts';
import type { IdCollections } from '../db/documents.ts';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { e164Of } from '../domains/phone-numbers.ts';
import { keysOfPerson } from '../people/people.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { TeamCollections, UserDoc } from '../team/documents.ts';
import type { TextingCollections } from '../texting/documents.ts';
import type { timelineOf } from '../people/timeline.ts';

export class CallRefused extends Error {}

export interface CallBack {
  domain: DomainDoc;
  personId: number;
  member: UserDoc;
  /** The member's phone (canonical), given once: rung and kept on their profile when they have none, else unused. */
  memberPhone?: string;
  /** The tracking number to call from (canonical); absent: the one the person texted or called last. */
  trackingNumber?: string;
}

type Collections = Parameters<typeof timelineOf>[0] & TextingCollections & TeamCollections & IdCollections & TelephonyCollections & DomainCollections;

export class ClickToCall {
  constructor(
    private readonly c: Collections,
    private readonly ids: IdAllocator,
    private readonly writes: CallWrites,
    private readonly carrierOf: (accountId: string) => Promise<Carrier | null>,
    /** The public URL Twilio fetches the call's instructions from. */
    private readonly publicUrl: string,
    private readonly dialling: DiallingPolicies,
  ) {}

  async start({ domain, personId, member, memberPhone, trackingNumber }: CallBack, now = new Date()): Promise<CallDoc> {
    const { phones } = await keysOfPerson(this.c, personId);
    const to = phones[0];
    if (!to) throw new CallRefused('This person has no number to call');
    const from = trackingNumber ?? (await this.lastNumberOf(domain, personId));
    if (!from) throw new CallRefused('trackingNumber: the person never texted nor called a tracking number of the domain: say which one to call from');
    const number = await this.c.trackingNumbers.findOne({ _id: from, domainId: domain._id }, { projection: { usage: 1 } });
    if (!number) throw new CallRefused(`trackingNumber: ${from} is no tracking number of ${domain.name}`);
    // The profile's phone, once kept, is the one rung (issue 79): a phone in the body only fills an
    // empty profile, so a request cannot ring a number of its choosing past the member's own.
    const ringFirst = member.phone ?? memberPhone;
    if (!ringFirst) throw new CallRefused('phone: your own phone, rung first, is not known: give it once (it is kept on your profile)');
    const carrier = await this.carrierOf(domain.accountId);
    if (!carrier) throw new CallRefused('No carrier account is connected: connect Twilio (Account, Carrier) to call from the tracking numbers');
    // Both legs are on the owner's bill: each passes the account's dialling rules, then the hour's limits.
    await this.dialling.placeCall(domain.accountId, member._id, [
      { field: member.phone ? 'your phone (profile)' : 'phone', number: ringFirst },
      { field: "the person's number", number: to },
    ]);
    if (memberPhone && !member.phone) await this.c.users.updateOne({ _id: member._id, phone: { $exists: false } }, { $set: { phone: memberPhone } });

    const callRef = `click-${randomUUID()}`;
    const _id = await claimRecordId(this.c, this.ids, 'call', `call:${callRef}`);
    const call: CallDoc = {
      _id, domainId: domain._id, callRef, trackingNumber: from, code: null, destination: to, caller: to, startedAt: now, status: null, duration: 0, billingDuration: 0, answerTime: 0, triggerType: 0, keypad: null, postcode: null, isRedirect: false, expiredRedirect: false, revenue: 0,
      route: number.usage === 'offline' ? 'offline' : 'online', forcedStatus: null, receivedAt: now, updatedAt: now, rev: 0,
      visitId: null, viewId: null, url: null, referrer: null, source: null, keyword: null, gclid: null, clientData: null, callPath: null, offlineDescription: null,
      firstCall: null, personId, lead: false, direction: 'outbound', outbound: { by: member._id, memberPhone: ringFirst, memberAnswered: null },
    };
    await this.writes.insert(call);
    const base = `${this.publicUrl}/telephony/twilio`;
    try {
      const placed = await carrier.placeCall({ from: e164Of(from), to: e164Of(ringFirst), url: `${base}/outbound?call=${_id}`, statusCallback: `${base}/outbound-status?call=${_id}` });
      return (await this.writes.change(_id, () => ({ callRef: placed.sid }))) ?? call;
    } catch (err) {
      if (err instanceof CarrierError) await this.writes.change(_id, () => ({ status: 'ANOMALY', outcome: 'ANOMALY', updatedAt: new Date() }));
      throw err;
    }
  }

  /** The tracking number the person texted or called last. */
  private async lastNumberOf(domain: DomainDoc, personId: number): Promise<string | null> {
    const [texted, called] = await Promise.all([
      this.c.conversations.findOne({ domainId: domain._id, personId }, { sort: { lastAt: -1 }, projection: { trackingNumber: 1, lastAt: 1 } }),
      this.c.calls.findOne({ domainId: domain._id, personId, direction: { $ne: 'outbound' } }, { sort: { startedAt: -1 }, projection: { trackingNumber: 1, startedAt: 1 } }),
    ]);
    if (texted && (!called || texted.lastAt >= called.startedAt)) return texted.trackingNumber;
    return called?.trackingNumber ?? null;
  }
}

// Calls and SMS as a carrier reports them: routed, attributed and stored once per carrier reference.
// Knows nothing of HTTP.
import type { People } from '../people/people.ts';
import type { CallReport, CallStatus, RouteAnswer, SmsReport } from '@ringtrail/shared';
import { isDuplicateKey, upsertById } from '../db/writes.ts';
import type { CallAttribution, CallDoc, SmsDoc, TelephonyCollections, TextMedia } from './documents.ts';
import { claimRecordId, recordIdOf } from '../db/external-refs.ts';
import type { IdAllocator } from '../db/ids.ts';
import { TelephonyFailure } from '../http/telephony-envelope.ts';
import { BlockedCallers } from './blocked-callers.ts';
import { attributeCall } from './call-attribution.ts';
import { matchOf } from './call-match.ts';
import type { CallRouter, Route } from './routing.ts';
import { FirstCalls } from './first-calls.ts';
import { leadOf, leadRuleOf } from './leads.ts';
import { flowEnd } from './flow-outcome.ts';
import { whisperOf } from './whisper.ts';
import { recordingPlan, type RecordingPlan } from '../domains/recording-settings.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { CallWrites } from './call-writes.ts';
import { countryOf, DEFAULT_COUNTRY, nationalOf } from '../domains/phone-numbers.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { Touch } from '../tracking/touches.ts';
import type { IdCollections } from '../db/documents.ts';

/** A report whose outcome may not be known yet (status null: ringing or going on). */
export type CallInput = Omit<CallReport, 'status' | 'startDate'> & { status: CallStatus | null; startDate: Date };

/** Who led to a text received, as to a call: its source and keyword, and the visit's last touch. */
export type TextCameFrom = Pick<CallAttribution, 'source' | 'keyword' | 'visitId'> & { lastTouch: Touch | null };

/** A report of the same call as the stored one: its route and attribution stand. */
function isSameCall(stored: CallDoc, report: CallInput): boolean {
  return stored.trackingNumber === report.trackingNumber && stored.code === (report.code ?? null) && stored.startedAt.getTime() === report.startDate.getTime();
}

/** The route's status (NOTASSIGNED, EXPIRED) wins over the outcome, once there is one: null is a call
 * still going on. A blocked caller's call is over as soon as it is refused. */
function statusOf(forced: CallStatus | null, reported: CallStatus | null): CallStatus | null {
  if (forced === 'CALLER_PHONE_BLACKLISTED') return forced;
  return reported === null ? null : (forced ?? reported);
}

/** What happened to the call, whatever the route imposed: a blocked caller's call is refused. */
function outcomeOf(forced: CallStatus | null, reported: CallStatus | null): CallStatus | null {
  return forced === 'CALLER_PHONE_BLACKLISTED' ? forced : reported;
}

/** Reports of one call racing each other: each retry follows a change another one made. */
const MAX_WRITE_ATTEMPTS = 20;

const UNKNOWN_NUMBER = 'Unknown tracking number: it is in no pool of any domain';

export class TelephonyService {
  private readonly writes: CallWrites;
  private readonly blocked: BlockedCallers;
  private readonly firstCalls: FirstCalls;

  constructor(
    private readonly c: TelephonyCollections & DomainCollections & TrackingCollections & OfflineCollections & IdCollections,
    private readonly ids: IdAllocator,
    private readonly router: CallRouter,
    /** Told when a call's outcome arrives: the call is over (its live pushes stop). */
    private readonly onOutcome: (callId: number) => Promise<void> = async () => {},
    writes: CallWrites,
    /** Joins each new call to its caller's person (people/); absent: calls are no one's. */
    private readonly people: People | null = null,
    /** Told of each text received from a caller not blocked (texting/: its conversation), with who
     * led to it as to a call to that number at that time. */
    private readonly onText: ((sms: SmsDoc, cameFrom: TextCameFrom) => Promise<void>) | null = null,
  ) {
    this.writes = writes;
    this.blocked = new BlockedCallers(c);
    this.firstCalls = new FirstCalls(c);
  }

  /** Where a call goes and who it is credited to; `answerOf` words it for a PBX. */
  routeOf(trackingNumber: string, code: string | null, at = new Date(), caller: string | null = null): Promise<Route> {
    return this.router.route(trackingNumber, code, at, caller);
  }

  /** The numbers in the national form of the domain's country, as a PBX there dials them (a French domain's as stored). */
  async answerOf(trackingNumber: string, route: Route, at: Date): Promise<RouteAnswer> {
    const country = route.domain ? countryOf(route.domain) : DEFAULT_COUNTRY;
    const shown = (n: string) => nationalOf(n, country);
    return {
      status: 'OK',
      trackingNumber: shown(trackingNumber),
      destination: route.destination && shown(route.destination),
      reason: route.reason,
      forcedStatus: route.forcedStatus,
      ...(route.reason === 'code-required' ? { codeDigits: route.number!.codeDigits } : {}),
      ...(route.lease ? { visitId: route.lease.visitId } : {}),
      redirect: route.redirect && { ...route.redirect, destination: shown(route.redirect.destination) },
      whisper: route.domain?.whisper && route.destination ? whisperOf(await attributeCall(this.c, route, at)) : null,
      recording: recordingPlan(route.domain, Boolean(route.destination), route.offline),
    };
  }

  /** The country a domain writes its numbers in. */
  async countryOfDomain(domainId: string): Promise<string> {
    const domain = await this.c.domains.findOne({ _id: domainId }, { projection: { country: 1 } });
    return domain ? countryOf(domain) : DEFAULT_COUNTRY;
  }

  /** A stored call's recording plan (for its redirect leg): its domain's, unless its offline number records nothing. */
  async recordingPlanFor(call: Pick<CallDoc, 'domainId' | 'trackingNumber'>): Promise<RecordingPlan | null> {
    const [domain, offline] = await Promise.all([this.c.domains.findOne({ _id: call.domainId }), this.c.offlineAssignments.findOne({ _id: call.trackingNumber }, { projection: { recording: 1 } })]);
    return recordingPlan(domain, true, offline);
  }

  /** Whether the domain's whisper is on. */
  async whispers(domainId: string): Promise<boolean> {
    return Boolean((await this.c.domains.findOne({ _id: domainId }, { projection: { whisper: 1 } }))?.whisper);
  }

  /** The whisper of a stored call, or null when its domain's whisper is off. */
  async whisperFor(call: CallDoc | null): Promise<string | null> {
    return call && (await this.whispers(call.domainId)) ? whisperOf(call) : null;
  }

  /** Creates the call of a new `callRef`, or updates the one it created; answers its callId.
   * Route and attribution are decided at the first report of a call; later reports bring the outcome.
   * `fallback`: the report's outcome is only for a call that has none yet; a call that has one takes
   * just its billing duration (a carrier's summary arriving beside a truer report of the outcome).
   * `callEnded`: the carrier's word that the whole call is over: for a call in a flow, what happened
   * in the flow decides its outcome (flow-outcome.ts), not the carrier's `completed`. */
  async recordCall(report: CallInput, now = new Date(), routed?: Route, { fallback = false, callEnded = false } = {}): Promise<number> {
    const callId = await claimRecordId(this.c, this.ids, 'call', `call:${report.callRef}`);
    const outcome = {
      caller: report.callerPhone,
      duration: report.duration,
      billingDuration: report.billingDuration ?? report.duration,
      answerTime: report.answerTime,
      triggerType: report.triggerType,
      keypad: report.keypad ?? null,
      postcode: report.postcode ?? null,
      isRedirect: report.isRedirect,
      revenue: report.revenue,
      updatedAt: now,
    };
    // Compare-and-set on the call's revision: the stored call a change was made from is known
    // exactly, so its summaries move by exactly that change even when reports race.
    let status: CallStatus | null;
    for (let attempt = 0; ; attempt++) {
      if (attempt === MAX_WRITE_ATTEMPTS) throw new Error(`call ${callId}: too many simultaneous reports`);
      const existing = await this.c.calls.findOne({ _id: callId });
      if (existing && isSameCall(existing, report)) {
        const ended = callEnded && report.status !== null ? flowEnd(existing, report.status, report.duration) : null;
        const closed = fallback && existing.status !== null && !ended;
        const reported = ended?.status ?? report.status;
        status = closed ? existing.status : statusOf(existing.forcedStatus, reported);
        const set = closed
          ? { billingDuration: outcome.billingDuration, updatedAt: now }
          : { ...outcome, ...(ended ? { duration: ended.duration, answerTime: 0, abandoned: ended.abandoned } : {}), status, outcome: outcomeOf(existing.forcedStatus, reported) };
        if (await this.writes.update(existing, { ...set, lead: leadOf({ ...existing, ...set }, await leadRuleOf(this.c, existing.domainId)) })) break;
        continue;
      }
      const decided = await this.decide(callId, report, routed);
      status = statusOf(decided.forcedStatus, report.status);
      const fields = { ...decided, ...outcome, callRef: report.callRef, status, outcome: outcomeOf(decided.forcedStatus, report.status) };
      const lead = leadOf({ ...fields, verdict: existing?.verdict ?? null }, await leadRuleOf(this.c, decided.domainId));
      if (existing ? await this.writes.update(existing, { ...fields, lead }) : await this.writes.insert({ ...fields, lead, _id: callId, receivedAt: now, rev: 0 })) break;
    }
    if (status !== null) await this.onOutcome(callId);
    return callId;
  }

  callById(callId: number): Promise<CallDoc | null> {
    return this.c.calls.findOne({ _id: callId });
  }

  async callByRef(callRef: string): Promise<CallDoc | null> {
    const id = await recordIdOf(this.c, `call:${callRef}`);
    return id === null ? null : this.c.calls.findOne({ _id: id });
  }

  /** `media`: an MMS's pictures and files, as the carrier's webhook gives them (ours). */
  async recordSms(report: SmsReport, now = new Date(), media: TextMedia[] = []): Promise<number> {
    const number = await this.c.trackingNumbers.findOne({ _id: report.trackingNumber });
    if (!number) throw new TelephonyFailure(404, UNKNOWN_NUMBER);
    const id = await claimRecordId(this.c, this.ids, 'sms', `sms:${report.smsRef}`);
    const message = report.parts ?? report.message!;
    const blocked = await this.blocked.isBlocked(number.domainId, report.callerPhone);
    const sms = { domainId: number.domainId, smsRef: report.smsRef, trackingNumber: report.trackingNumber, caller: report.callerPhone, sentAt: report.sentDate, message, ...(blocked ? { blocked } : {}), ...(media.length ? { media } : {}) };
    await upsertById(this.c.sms, id, sms, { receivedAt: now });
    // An anonymous text cannot be answered: no conversation, no need to find who led to it.
    if (!blocked && this.onText && report.callerPhone) await this.onText({ _id: id, ...sms, receivedAt: now }, await this.textCameFrom(report));
    return id;
  }

  /** Who led to a text: the visit holding the number when it came (or the offline campaign), as for a call. */
  private async textCameFrom(report: SmsReport): Promise<TextCameFrom> {
    const { source, keyword, lastTouch, visitId } = await attributeCall(this.c, await this.router.route(report.trackingNumber, null, report.sentDate, report.callerPhone), report.sentDate);
    return { source, keyword, visitId, lastTouch: lastTouch ?? null };
  }

  /** `routed`: the route the caller already found for this report's number, code and start. */
  private async decide(callId: number, report: CallInput, routed?: Route) {
    const route = routed ?? (await this.router.route(report.trackingNumber, report.code ?? null, report.startDate, report.callerPhone));
    if (!route.domain) throw new TelephonyFailure(404, UNKNOWN_NUMBER);
    const { visitor, ...attribution } = await attributeCall(this.c, route, report.startDate);
    const match = await matchOf(this.c, route, report.code ?? null, report.startDate);
    return {
      firstCall: await this.firstCalls.isFirst(route.domain._id, report.callerPhone, callId, report.startDate),
      ...attribution,
      // The caller's person: their number, and the visitor of the visit that led to the call unless
      // the match is below certain (a pool number shared or passed between visitors proves nothing).
      // Its visitor's person takes at most one caller number it did not give itself (people.ts).
      personId: this.people ? await this.people.join(route.domain._id, { phone: report.callerPhone, visitor: match.matchConfidence === null || match.matchConfidence === 'certain' ? visitor : null }, report.startDate, { oneCallerPerVisitor: true, contact: { kind: 'call', id: callId } }) : null,
      ...match,
      domainId: route.domain._id,
      trackingNumber: report.trackingNumber,
      code: report.code ?? null,
      startedAt: report.startDate,
      route: route.reason,
      destination: route.destination,
      forcedStatus: route.forcedStatus,
      expiredRedirect: route.reason === 'expired',
      redirect: route.redirect,
    };
  }
}

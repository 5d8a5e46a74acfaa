// Writes of a stored call, as a compare-and-set on its revision: the summaries (data API rollups,
// page buckets, report counters) move by exactly the change from the call that was read, the
// accounts that asked for it get the `call` push (webhooks/call-push.ts), a new lead goes to the
// domain's GA4 (lead-events.ts), and, when mail is configured, the people who chose to hear of a
// missed call or a new lead are told (alerts/call-alerts.ts).
import { CallAlerts } from '../alerts/call-alerts.ts';
import { isDuplicateKey } from '../db/writes.ts';
import { CallSummaries } from '../data/call-summaries.ts';
import { CallPush } from '../webhooks/call-push.ts';
import { DEFAULT_GA4_ENDPOINT } from '../analytics/ga4.ts';
import { LeadEvents } from './lead-events.ts';
import type { CallDoc, TelephonyCollections } from './documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AlertCollections } from '../alerts/documents.ts';

export class CallWrites {
  private readonly summaries: CallSummaries;
  private readonly pushes: CallPush;
  private readonly leadEvents: LeadEvents;
  private readonly alerts: CallAlerts | null;

  constructor(
    private readonly c: TelephonyCollections & TeamCollections & DomainCollections & TrackingCollections & DataCollections & ReportCollections & FormCollections & PeopleCollections & WebhookCollections & AlertCollections,
    { ga4Endpoint = DEFAULT_GA4_ENDPOINT, alerts = false, publicUrl }: { ga4Endpoint?: string; alerts?: boolean; publicUrl?: string } = {},
  ) {
    this.summaries = new CallSummaries(c);
    this.pushes = new CallPush(c, publicUrl);
    this.leadEvents = new LeadEvents(c, ga4Endpoint);
    this.alerts = alerts ? new CallAlerts(c) : null;
  }

  private async changed(before: CallDoc | null, after: CallDoc): Promise<void> {
    await this.summaries.record(before, after);
    await Promise.all([this.pushes.changed(before, after), this.leadEvents.changed(before, after), this.alerts?.changed(before, after)]);
  }

  /** Stores a new call; false when a simultaneous first report of its callRef stored it first. */
  async insert(call: CallDoc): Promise<boolean> {
    try {
      await this.c.calls.insertOne(call);
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    await this.changed(null, call);
    return true;
  }

  /** Sets fields of the call as it was read; false when another write changed it meanwhile. */
  async update(stored: CallDoc, set: Partial<CallDoc>): Promise<boolean> {
    const { matchedCount } = await this.c.calls.updateOne({ _id: stored._id, rev: stored.rev }, { $set: set, $inc: { rev: 1 } });
    if (matchedCount === 0) return false;
    await this.changed(stored, { ...stored, ...set, rev: stored.rev + 1 });
    return true;
  }
}

// The back end's offline numbers: assign one to a campaign (where it forwards, what it is for) and
// unassign it, through the offline numbers service, so the rules are the API's own.
import type { TimetableEntry } from '@ringtrail/shared';
import { OfflineFailure } from '../http/offline-envelope.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { OfflineNumbers } from '../offline/service.ts';
import type { OfflineCollections } from '../offline/documents.ts';

export interface RedirectRule {
  allowRedirect?: boolean;
  timetable?: TimetableEntry[];
}

export async function assignOffline(c: DomainCollections, offline: OfflineNumbers, domain: DomainDoc, number: string, destination: string, description: string, redirect: RedirectRule = {}): Promise<void> {
  const stored = await c.trackingNumbers.findOne({ _id: number });
  if (!stored || stored.domainId !== domain._id || stored.usage !== 'offline') throw new ManageFailure(404, `No offline number ${number} in this domain`);
  await asManageFailure(offline.run(domain, { action: 'assign', tracking_number: number, phone_number: destination, description, type: stored.type, ...asRequest(redirect) }));
}

/** Whether an assigned number's calls may be recorded (false: never, whatever the domain says). */
export async function setOfflineRecording(c: OfflineCollections, domain: DomainDoc, number: string, recording: boolean): Promise<void> {
  const { matchedCount } = await c.offlineAssignments.updateOne({ _id: number, domainId: domain._id }, { $set: { recording } });
  if (matchedCount === 0) throw new ManageFailure(409, `${number} is not assigned: assign it first`);
}

/** `redirect_setup` of an assigned number. */
export async function setOfflineRedirect(offline: OfflineNumbers, domain: DomainDoc, number: string, redirect: Required<RedirectRule>): Promise<void> {
  await asManageFailure(offline.run(domain, { action: 'redirect_setup', tracking_number: number, ...asRequest(redirect) }));
}

function asRequest({ allowRedirect, timetable }: RedirectRule) {
  return { ...(allowRedirect === undefined ? {} : { allow_redirect: allowRedirect ? ('1' as const) : ('0' as const) }), ...(timetable ? { timetable } : {}) };
}

export async function unassignOffline(offline: OfflineNumbers, domain: DomainDoc, number: string): Promise<void> {
  await asManageFailure(offline.run(domain, { action: 'unassign', tracking_number: number }));
}

/** The service's refusals (`Tracking number already assigned`...) are conflicts here. */
async function asManageFailure<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof OfflineFailure) throw new ManageFailure(409, err.message);
    throw err;
  }
}

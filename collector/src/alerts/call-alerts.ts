// What a call's change raises for the people who chose to hear of it: a missed call (busy or no
// answer, after the redirect if any), a new lead (by the rule or a verdict), a first-time caller, a
// blocked caller's call; and a form submission that is a lead, a new lead too. Each becomes one
// pending alert per person (alert-mailer.ts gathers and mails them); a missed call outside the
// domain's timetable is left out unless the person asked.
import type { CallStatus } from '@ringtrail/shared';
import { isDuplicateKey } from '../db/writes.ts';
import type { CallDoc } from '../telephony/documents.ts';
import { inTimetable } from '../telephony/redirects.ts';
import { callOutcome } from '../telephony/outcome.ts';
import { AlertChoicesStore } from './choices.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { FormDoc } from '../forms/documents.ts';
import type { AlertChoices, AlertText, CallAlert, PendingAlertDoc, AlertCollections } from './documents.ts';
import type { TeamCollections } from '../team/documents.ts';

const MISSED: readonly (CallStatus | null)[] = ['BUSY', 'NORESPONSE'];
/** How long a voicemail's missed-call mail waits at most for its recording. */
const VOICEMAIL_HOLD_MS = 60_000;

/** The alerts a call raises: a call alert, or ours, a voicemail's transcript. */
type Raised = CallAlert | 'voicemailTranscript';

const isStored = (call: CallDoc) => call.recording?.status === 'stored';
/** Its recording is stored, or could not be: a mail held for it waits no more. */
const recordingSettled = (call: CallDoc) => isStored(call) || call.recording?.status === 'failed';

/** A voicemail's transcript was just made, or could not be: its second mail (when the first went without it). */
export const transcriptSettled = (before: CallDoc | null, after: CallDoc): boolean => Boolean(after.voicemail) && (after.transcript?.status === 'ready' || after.transcript?.status === 'failed') && before?.transcript?.status !== after.transcript?.status;
const BLOCKED: CallStatus = 'CALLER_PHONE_BLACKLISTED';

/** The alerts a change of a call raises: each when it first becomes true. */
export function alertsRaised(before: CallDoc | null, after: CallDoc): CallAlert[] {
  const raised: CallAlert[] = [];
  // Missed whatever the route made of it: a call to a number nobody held is missed like any other.
  if (MISSED.includes(callOutcome(after)) && !MISSED.includes(before ? callOutcome(before) : null)) raised.push('missedCall');
  if (after.lead && !before?.lead) raised.push('newLead');
  const known = (call: CallDoc | null) => Boolean(call && call.status !== null && call.status !== BLOCKED && call.firstCall);
  if (known(after) && !known(before)) raised.push('firstCaller');
  if (after.status === BLOCKED && before?.status !== BLOCKED) raised.push('spamBlocked');
  return raised;
}

/** A text as an alert keeps it: its first 500 characters (the inbox has it whole). */
export const alertText = ({ id, conversationId, personId, at, from, trackingNumber, body }: AlertText): AlertText => ({ id, conversationId, personId, at, from, trackingNumber, body: body.slice(0, 500) });

/** The start of the next hour: an hourly digest's time. */
export function nextHour(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 + 3_600_000);
}

export class CallAlerts {
  private readonly choices: AlertChoicesStore;

  constructor(private readonly c: AlertCollections & TeamCollections & DomainCollections) {
    this.choices = new AlertChoicesStore(c);
  }

  async changed(before: CallDoc | null, after: CallDoc, now = new Date()): Promise<void> {
    if (after.voicemail && recordingSettled(after) && !(before && recordingSettled(before))) await this.recordingStored(after, now);
    const raised: Raised[] = [...alertsRaised(before, after), ...(transcriptSettled(before, after) && !(await this.missedMailWaits(after)) ? ['voicemailTranscript' as const] : [])];
    if (!raised.length) return;
    const domain = await this.c.domains.findOne({ _id: after.domainId });
    if (!domain) return;
    const inHours = inTimetable(domain.redirect?.timetable ?? [], after.startedAt, domain.timeZone);
    // A voicemail's missed-call mail waits for its recording (a link that plays it), a minute at most.
    const hold = after.voicemail && !isStored(after) ? new Date(now.getTime() + VOICEMAIL_HOLD_MS) : null;
    await this.raise(domain, raised, { callId: after._id }, `${after._id}`, now, (alert, choices) => (alert !== 'missedCall' && alert !== 'voicemailTranscript') || inHours || choices.missedOutsideHours, hold);
  }

  /** The recording of a voicemail is stored (or failed): its missed-call mail, held for it, may go. */
  private async recordingStored(call: CallDoc, now: Date): Promise<void> {
    await this.c.pendingAlerts.updateMany({ callId: call._id, alert: 'missedCall', batch: null, delivery: 'immediate', dueAt: { $gt: now } }, { $set: { dueAt: now } });
  }

  /** Whether the call's missed-call mail is still to be made (it will say the transcript itself); one
   * being made already may have read the call before the transcript, so the second mail goes. */
  private async missedMailWaits(call: CallDoc): Promise<boolean> {
    return (await this.c.pendingAlerts.findOne({ callId: call._id, alert: 'missedCall', batch: null }, { projection: { _id: 1 } })) !== null;
  }

  /** A form submission that became a lead (sent as one, or by a verdict): the people who chose new leads hear of it. */
  async formChanged(before: FormDoc | null, after: FormDoc, now = new Date()): Promise<void> {
    if (!after.lead || before?.lead) return;
    const domain = await this.c.domains.findOne({ _id: after.domainId });
    if (domain) await this.raise(domain, ['newLead'], { formId: after._id }, `form:${after._id}`, now, () => true);
  }

  /** A text received (texting/): the people who chose new texts hear of it. */
  async textReceived(domain: DomainDoc, text: AlertText, now = new Date()): Promise<void> {
    await this.raise(domain, ['newText'], { text: alertText(text) }, `text:${text.id}`, now, () => true);
  }

  private async raise(domain: DomainDoc, raised: Raised[], about: Pick<PendingAlertDoc, 'callId' | 'formId' | 'text'>, key: string, now: Date, wanted: (alert: Raised, choices: AlertChoices) => boolean, hold: Date | null = null): Promise<void> {
    const recipients = await this.choices.recipients(domain);
    const pending: PendingAlertDoc[] = [];
    for (const alert of raised) {
      for (const { user, choices } of recipients) {
        // Texts follow the missed calls' choice until the person makes one for them; a voicemail's transcript always does.
        const delivery = (alert === 'voicemailTranscript' ? undefined : choices[alert]) ?? choices.missedCall;
        if (delivery === 'off' || !wanted(alert, choices)) continue;
        pending.push({ _id: `${key}|${alert}|${user._id}`, username: user._id, accountId: domain.accountId, domainId: domain._id, alert, ...about, at: now, delivery, dueAt: delivery === 'hourly' ? nextHour(now) : (hold ?? now), batch: null });
      }
    }
    await insertPending(this.c, pending);
  }
}

/** Stores pending alerts; one stored already (raised twice by simultaneous reports) is kept once. */
export async function insertPending(c: AlertCollections, pending: PendingAlertDoc[]): Promise<void> {
  if (!pending.length) return;
  try {
    await c.pendingAlerts.insertMany(pending, { ordered: false });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

// The `call` push (ours, opt-in by the account's `webhookEvents`): the call as the data API shows it,
// with its callId, sent when its outcome is known, again whenever it becomes a lead or stops
// being one (a verdict, the rule at a later report), again when its recording is stored (the
// record's `recording` then links to it), again when its transcript is made (`transcript`), and
// again when the language model has read it (`analysis`). The `analysis` push (opt-in of its own)
// carries only the call's id and the model's answers, once they are ready.
// Signed, ordered per call and retried like the call center's pushes (webhooks/opt-in-push.ts); a
// client written to those sees none unless it asks.
import { analysisFields, callRecord, hasStoredRecording, transcribedLabels } from './records.ts';
import { transcriptTexts } from './transcript-texts.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import { DEFAULT_PUBLIC_URL } from '../http/collector-address.ts';
import type { CallDoc } from '../telephony/documents.ts';
import { OptInPushes } from '../webhooks/opt-in-push.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';

export class CallPush {
  private readonly pushes: OptInPushes;

  /** `publicUrl`: where the collector is reached, for the recording's link. */
  constructor(
    private readonly c: TeamCollections & DomainCollections & WebhookCollections & TranscriptCollections,
    private readonly publicUrl = DEFAULT_PUBLIC_URL,
  ) {
    this.pushes = new OptInPushes(c);
  }

  /** A call was stored (`before` null) or changed: push it if its outcome just became known, its
   * lead changed, its recording was just stored, its transcript made or its analysis ready; and its
   * `analysis` push then. */
  async changed(before: CallDoc | null, after: CallDoc, now = new Date()): Promise<void> {
    if (after.status === null) return;
    const recordingStored = hasStoredRecording(after) && !(before && hasStoredRecording(before));
    const transcribed = transcribedLabels(after) !== null && !(before && transcribedLabels(before) !== null);
    const analysed = after.analysis?.status === 'ready' && before?.analysis?.status !== 'ready';
    const news = !(before && before.status !== null && (before.lead ?? null) === (after.lead ?? null) && !recordingStored && !transcribed && !analysed);
    if (!news) return;
    // The domain and the account's receivers read once for both pushes.
    const domain = await this.c.domains.findOne({ _id: after.domainId });
    if (!domain) return;
    const receivers = await this.pushes.receiversOf(domain.accountId, analysed ? ['analysis', 'call'] : ['call']);
    // The `analysis` push: the call's id and the data API's `analysis`.
    if (receivers.analysis) await this.pushes.send(receivers.analysis, `call:${after._id}`, { callId: after._id, type: 'analysis', view: null, cart: null, order: null, ...analysisFields(after) }, now);
    if (!receivers.call) return;
    const text = transcribedLabels(after) ? ((await transcriptTexts(this.c, [after._id])).get(after._id) ?? null) : null;
    const data = { callId: after._id, type: 'call', view: null, cart: null, order: null, call: { callId: after._id, ...callRecord(after, domain, this.publicUrl, text) } };
    await this.pushes.send(receivers.call, `call:${after._id}`, data, now);
  }
}

// How a call's recording arrives: a carrier says where it is (Twilio's callback, or our `recordingUrl`
// in a call report) and the collector fetches it through the outbox (fetcher.ts); or a carrier sends
// the audio itself, streamed into the store. Either way once per call.
import type { Readable } from 'node:stream';
import type { CallDoc } from '../telephony/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { recordingMessage, type RecordingJob } from './fetcher.ts';
import type { RecordingInfo, RecordingStates } from './states.ts';
import type { RecordingStore, StoredRecording } from './store.ts';
import type { DomainCollections } from '../domains/documents.ts';

export class Recordings {
  constructor(
    private readonly c: DomainCollections,
    private readonly outbox: Outbox,
    private readonly store: RecordingStore,
    private readonly states: RecordingStates,
  ) {}

  /** The carrier says the recording is at `job.url`: the call says it is being fetched, then the
   * fetch is queued (its id is the recording's, so a second word of it queues nothing while it
   * waits). In that order: a fetch that fails at once (a private source) must find the call
   * fetching, or the failure would be written over. A second word of a recording still `fetching`
   * queues its fetch again, so a process that died between the two loses nothing. False when the
   * call has a recording (or one on its way) already. */
  async ready(call: CallDoc, id: string, info: Omit<RecordingInfo, 'sid'>, job: Pick<RecordingJob, 'url' | 'twilioAccountSid'>): Promise<boolean> {
    const recording = { sid: id.startsWith('call-') ? null : id, ...info };
    const again = call.recording?.status === 'fetching' && call.recording.sid === recording.sid;
    if (call.recording && call.recording.status !== 'failed' && !again) return false;
    const domain = await this.c.domains.findOne({ _id: call.domainId }, { projection: { accountId: 1, 'recording.deleteAtCarrier': 1 } });
    if (!domain) return false;
    const deleteAtCarrier = domain.recording?.deleteAtCarrier === true;
    const taken = await this.states.take(call._id, recording);
    await this.outbox.enqueue(recordingMessage(domain.accountId, id, { callId: call._id, ...job, ...recording, ...(deleteAtCarrier ? { deleteAtCarrier } : {}) }));
    return taken !== null;
  }

  /** The audio itself, streamed in; null when the call has a recording already. */
  async upload(call: Pick<CallDoc, '_id'>, audio: Readable, contentType: string): Promise<StoredRecording | null> {
    const info = { sid: null, duration: null, channels: null };
    if (!(await this.states.take(call._id, info))) {
      audio.resume();
      return null;
    }
    try {
      const stored = await this.store.save(call._id, audio, contentType);
      await this.states.stored(call._id, stored, info);
      return stored;
    } catch (err) {
      await this.states.failed(call._id, `recording could not be stored: ${(err as Error).message}`);
      throw err;
    }
  }
}

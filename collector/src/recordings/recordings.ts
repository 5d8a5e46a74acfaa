// How a call's recording arrives: a carrier says where it is (Twilio's callback, or our `recordingUrl`
// in a call report) and the collector fetches it through the outbox (fetcher.ts); or a carrier sends
// the audio itself, streamed into the store. Either way once per call.
import type { Readable } from 'node:stream';
import type { Collections } from '../db/collections.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { recordingMessage, type RecordingJob } from './fetcher.ts';
import type { RecordingStore, StoredRecording } from './store.ts';

/** A call that has, or is getting, a recording: none may be taken again (a failed one may). */
const TAKEN = { $or: [{ recording: { $exists: false } }, { 'recording.status': 'failed' }] };

export class Recordings {
  constructor(
    private readonly c: Collections,
    private readonly outbox: Outbox,
    private readonly store: RecordingStore,
  ) {}

  /** The carrier says the recording is at `job.url`: the fetch is queued first (its id is the
   * recording's, so a second word of it queues nothing), then the call says it is being fetched.
   * False when the call has a recording (or one on its way) already. */
  async ready(call: CallDoc, id: string, info: { duration: number | null; channels: number | null }, job: Omit<RecordingJob, 'callId'>): Promise<boolean> {
    if (call.recording && call.recording.status !== 'failed') return false;
    const domain = await this.c.domains.findOne({ _id: call.domainId }, { projection: { accountId: 1 } });
    if (!domain) return false;
    await this.outbox.enqueue(recordingMessage(domain.accountId, id, { callId: call._id, ...job }));
    const sid = id.startsWith('call-') ? null : id;
    const taken = await this.c.calls.updateOne({ _id: call._id, ...TAKEN }, { $set: { recording: { status: 'fetching', sid, ...info } } });
    return taken.modifiedCount > 0;
  }

  /** The audio itself, streamed in; null when the call has a recording already. */
  async upload(call: Pick<CallDoc, '_id'>, audio: Readable, contentType: string): Promise<StoredRecording | null> {
    const taken = await this.c.calls.updateOne({ _id: call._id, ...TAKEN }, { $set: { recording: { status: 'fetching', sid: null, duration: null, channels: null } } });
    if (!taken.modifiedCount) {
      audio.resume();
      return null;
    }
    try {
      const stored = await this.store.save(call._id, audio, contentType);
      await this.c.calls.updateOne({ _id: call._id }, { $set: { 'recording.status': 'stored', 'recording.fileId': stored.fileId, 'recording.size': stored.size, 'recording.contentType': stored.contentType, 'recording.storedAt': new Date() } });
      return stored;
    } catch (err) {
      await this.c.calls.updateOne({ _id: call._id }, { $set: { 'recording.status': 'failed', 'recording.error': `recording could not be stored: ${(err as Error).message}` } });
      throw err;
    }
  }
}

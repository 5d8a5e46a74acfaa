// A call's recording moves from the carrier's word that there is one (`fetching`) to `stored` or
// `failed`, and from `stored` to `deleted`. Each move is a call write (telephony/call-writes.ts: a
// compare-and-set of the call's revision), so the call's data API record and its `call` push follow.
// Every change of a call's recording goes through here.
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CallDoc, CallRecording } from '../telephony/documents.ts';
import type { StoredRecording } from './store.ts';

/** What the carrier says of a recording: its id and, when it says so, its length and channels. */
export type RecordingInfo = Pick<CallRecording, 'sid' | 'duration' | 'channels'>;

/** A call may take a recording when it has none, or only one that failed. */
const free = (r: CallRecording | undefined) => !r || r.status === 'failed';

export class RecordingStates {
  constructor(private readonly writes: CallWrites) {}

  /** The call is getting a recording; null when it has one (or one on its way) already. */
  take(callId: number, info: RecordingInfo): Promise<CallDoc | null> {
    return this.change(callId, (r) => (free(r) ? { status: 'fetching', ...info } : null));
  }

  /** The audio is in the store. Also when the call never said it was coming (a process that died
   * between the two, recordings.ts); null when the call has a stored or deleted one already. */
  stored(callId: number, file: StoredRecording, info: RecordingInfo | null, at = new Date()): Promise<CallDoc | null> {
    return this.change(callId, (r) =>
      free(r) || r?.status === 'fetching'
        ? { status: 'stored', ...(info ?? { sid: r?.sid ?? null, duration: r?.duration ?? null, channels: r?.channels ?? null }), fileId: file.fileId, size: file.size, contentType: file.contentType, storedAt: at }
        : null,
    );
  }

  /** The recording could not be had, and why (the call itself is unaffected). */
  failed(callId: number, reason: string): Promise<CallDoc | null> {
    return this.change(callId, (r) => (!r || r.status === 'fetching' ? { status: 'failed', sid: r?.sid ?? null, duration: r?.duration ?? null, channels: r?.channels ?? null, error: reason } : null));
  }

  /** The audio is going: the call says when and by whom (a member's id, or `retention`). The call
   * after, whose recording still names the file to delete; null when it had no stored recording. */
  deleted(callId: number, by: string, at = new Date()): Promise<CallDoc | null> {
    return this.change(callId, (r) => (r?.status === 'stored' ? { ...r, status: 'deleted', deletedAt: at, deletedBy: by } : null));
  }

  /** The carrier deleted its copy (the domain's `recording.deleteAtCarrier`). */
  deletedAtCarrier(callId: number, at = new Date()): Promise<CallDoc | null> {
    return this.change(callId, (r) => (r && (r.status === 'stored' || r.status === 'deleted') && !r.carrierDeletedAt ? { ...r, carrierDeletedAt: at } : null));
  }

  /** Sets the call's recording to what `next` makes of the current one (null: no change), retried
   * when another write of the call came between; the call after, or null. */
  private change(callId: number, next: (current: CallRecording | undefined) => CallRecording | null): Promise<CallDoc | null> {
    return this.writes.change(callId, (call) => {
      const recording = next(call.recording);
      return recording && { recording };
    });
  }
}

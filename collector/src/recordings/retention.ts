// Recordings deleted on schedule: each hour, a domain's recordings stored more than its
// `recordingRetentionDays` ago (365 unless it says otherwise; 0 keeps them) lose their audio; the
// call stays, and says when its recording was deleted and by what. A person deletes one the same way.
import type { Logger } from '../logger.ts';
import { Rounds } from '../rounds.ts';
import { DEFAULT_RECORDING_RETENTION_DAYS } from '../domains/recording-settings.ts';
import type { RecordingStates } from './states.ts';
import type { RecordingStore } from './store.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';

const EVERY_MS = 3_600_000;
/** Recordings deleted per domain per round: a first run on years of them goes on next hour. */
const PER_ROUND = 1000;

/** Deletes a call's recording (its audio; the call says when and by whom); false when it had none stored. */
export async function deleteRecording(states: RecordingStates, store: RecordingStore, callId: number, by: string, now = new Date()): Promise<boolean> {
  const call = await states.deleted(callId, by, now);
  if (!call?.recording?.fileId) return false;
  await store.delete(call.recording.fileId);
  return true;
}

export class RecordingRetention {
  private readonly rounds: Rounds;

  constructor(
    private readonly c: DomainCollections & TelephonyCollections,
    private readonly store: RecordingStore,
    private readonly states: RecordingStates,
    log?: Logger,
  ) {
    this.rounds = new Rounds(() => this.tick().then(() => undefined), 'deleting old recordings', log);
  }

  start(): void {
    this.rounds.start(EVERY_MS);
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** Deletes what is due at `now`; how many. */
  async tick(now = new Date()): Promise<number> {
    let deleted = 0;
    for await (const domain of this.c.domains.find({}, { projection: { recordingRetentionDays: 1 } })) {
      const days = domain.recordingRetentionDays ?? DEFAULT_RECORDING_RETENTION_DAYS;
      if (days === 0) continue;
      const due = await this.c.calls.find({ domainId: domain._id, 'recording.storedAt': { $lt: new Date(now.getTime() - days * 86_400_000) }, 'recording.status': 'stored' }, { projection: { _id: 1 } }).limit(PER_ROUND).toArray();
      for (const { _id } of due) if (await deleteRecording(this.states, this.store, _id, 'retention', now)) deleted++;
    }
    return deleted;
  }
}

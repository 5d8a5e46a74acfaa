// What a call's recording changing means for its transcript (a call reaction, house/writes.ts): a
// recording just stored, of a domain that transcribes, queues its transcript in the outbox (once:
// the message's id is the call's); a recording deleted (by a person, retention, or a person's erase)
// takes its transcript with it.
import type { CallDoc } from '../telephony/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { Outbox } from '../webhooks/outbox.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import { transcriptMessage } from './transcriber.ts';
import type { TranscriptStore } from './transcript-store.ts';

export class TranscriptQueue {
  private readonly outbox: Outbox;

  constructor(
    private readonly c: DomainCollections & WebhookCollections,
    /** Whether an engine is configured (TRANSCRIBE_URL): without one, nothing is queued. */
    private readonly engineConfigured: boolean,
    private readonly store: () => TranscriptStore,
  ) {
    this.outbox = new Outbox(c);
  }

  async changed(before: CallDoc | null, after: CallDoc): Promise<void> {
    const was = before?.recording?.status;
    const now = after.recording?.status;
    if (now === 'deleted' && was !== 'deleted' && after.transcript && after.transcript.status !== 'deleted') return this.store().delete(after._id);
    if (now !== 'stored' || was === 'stored' || !this.engineConfigured) return;
    const domain = await this.c.domains.findOne({ _id: after.domainId }, { projection: { accountId: 1, transcription: 1 } });
    if (domain?.transcription?.enabled) await this.outbox.enqueue(transcriptMessage(domain.accountId, after._id));
  }
}

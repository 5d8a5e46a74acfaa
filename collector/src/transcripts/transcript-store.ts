// Where a made transcript goes: its turns and spotted phrases in `transcripts`, its words in the
// search index, the call's own word of it (a call write, so the data API record and the `call` push
// follow), and the account's `transcript` push. Deleted the same way, with the recording.
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CallDoc, CallTranscript, TelephonyCollections } from '../telephony/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import { OptInPushes } from '../webhooks/opt-in-push.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { TranscriptCollections, TranscriptDoc, TranscriptWordDoc } from './documents.ts';
import { wordsOf } from './words.ts';
import { heardByOf } from './spotting.ts';

/** Words indexed per call at most (a 60-minute call says a few thousand distinct ones). */
const MAX_INDEXED_WORDS = 20_000;
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The index key of a word of a call: see TranscriptWordDoc. */
export const wordKey = (domainId: string, word: string, speaker: 'c' | 'a' | 'x', startedAt: number, callId: number) => `${domainId}|${word}|${speaker}|${pad(startedAt, 13)}|${pad(callId, 15)}`;

/** The index entries of a transcript: each word once per speaker, and once as said by anyone. */
export function wordEntries(t: Pick<TranscriptDoc, '_id' | 'domainId' | 'startedAt' | 'turns'>): TranscriptWordDoc[] {
  const keys = new Set<string>();
  for (const turn of t.turns) {
    for (const word of wordsOf(turn.text)) {
      keys.add(wordKey(t.domainId, word, 'x', t.startedAt.getTime(), t._id));
      if (turn.speaker) keys.add(wordKey(t.domainId, word, turn.speaker === 'caller' ? 'c' : 'a', t.startedAt.getTime(), t._id));
    }
  }
  return [...keys].slice(0, MAX_INDEXED_WORDS).map((_id) => ({ _id, callId: t._id }));
}

export class TranscriptStore {
  private readonly pushes: OptInPushes;

  constructor(
    private readonly c: TranscriptCollections & TelephonyCollections & DomainCollections & TeamCollections & WebhookCollections,
    private readonly writes: CallWrites,
  ) {
    this.pushes = new OptInPushes(c);
  }

  /** Keeps a transcript (again, if it was made before: the words are replaced), then the call says so. */
  async save(t: TranscriptDoc, keyPhrases: string[]): Promise<void> {
    await this.c.transcripts.replaceOne({ _id: t._id }, t, { upsert: true });
    await this.c.transcriptWords.deleteMany({ callId: t._id });
    const entries = wordEntries(t);
    for (let i = 0; i < entries.length; i += 1000) await this.c.transcriptWords.insertMany(entries.slice(i, i + 1000), { ordered: false });
    const call = await this.setState(t._id, () => ({ status: 'ready', keyPhrases, heardBy: heardByOf(t.spotted), at: t.madeAt }));
    if (call) await this.push(call, t, keyPhrases);
  }

  /** The call says its transcript could not be made, and why; false when it has one. */
  async failed(callId: number, reason: string, at = new Date()): Promise<boolean> {
    return (await this.setState(callId, (current) => (current?.status === 'ready' ? null : { status: 'failed', keyPhrases: [], at, error: reason }))) !== null;
  }

  /** Deletes the call's transcript and its words (with its recording); the call says when. */
  async delete(callId: number, at = new Date()): Promise<void> {
    await Promise.all([this.c.transcripts.deleteOne({ _id: callId }), this.c.transcriptWords.deleteMany({ callId })]);
    await this.setState(callId, (current) => (current && current.status !== 'deleted' ? { status: 'deleted', keyPhrases: [], at } : null));
  }

  /** A domain's transcripts after call `after`, in call order (the re-spotting's batches), read a
   * few at a time: an hour-long call's turns are a large document, and reading hundreds at once
   * would hold the event loop while they are decoded. */
  batchAfter(domainId: string, after: number, limit: number): AsyncIterable<Pick<TranscriptDoc, '_id' | 'turns'>> {
    return this.c.transcripts.find({ domainId, _id: { $gt: after } }, { sort: { _id: 1 }, limit, projection: { turns: 1 }, batchSize: 4 });
  }

  /** New labels heard, after the domain's key phrases changed (transcriber.ts, `respot`). */
  async respotted(callId: number, spotted: TranscriptDoc['spotted'], keyPhrases: string[]): Promise<void> {
    await this.c.transcripts.updateOne({ _id: callId }, { $set: { spotted } });
    const heardBy = heardByOf(spotted);
    await this.setState(callId, (current) => (current?.status === 'ready' && JSON.stringify([current.keyPhrases, current.heardBy]) !== JSON.stringify([keyPhrases, heardBy]) ? { ...current, keyPhrases, heardBy } : null));
  }

  /** Sets the call's transcript to what `next` makes of it (null: no change), as a call write retried
   * when another write came between; the call after, or null. */
  private setState(callId: number, next: (current: CallTranscript | undefined) => CallTranscript | null): Promise<CallDoc | null> {
    return this.writes.change(callId, (call) => {
      const transcript = next(call.transcript);
      return transcript && { transcript };
    });
  }

  /** The account's `transcript` push, when it asked for it: the call's id, its text, turns and labels. */
  private async push(call: CallDoc, t: TranscriptDoc, keyPhrases: string[]): Promise<void> {
    const domain = await this.c.domains.findOne({ _id: call.domainId }, { projection: { accountId: 1 } });
    const receiver = domain && (await this.pushes.receiverOf(domain.accountId, 'transcript'));
    if (!receiver) return;
    const transcript = { callId: call._id, transcript: t.text, key_phrases: keyPhrases, turns: t.turns, spotted: t.spotted.map(({ label, phrase, speaker, at }) => ({ label, phrase, speaker, at })), language: t.language };
    await this.pushes.send(receiver, `call:${call._id}`, { callId: call._id, type: 'transcript', view: null, cart: null, order: null, transcript });
  }
}

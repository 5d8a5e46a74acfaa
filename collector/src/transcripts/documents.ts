// Transcripts of calls' recordings (transcripts/): each call's turns and the phrases spotted in them,
// and the index of words said that the calls log searches: the shapes and indexes of their documents
// (house/all-collections.ts gathers every family's). The call itself says where its transcript is
// (`CallDoc.transcript`, telephony/documents.ts).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { IndexPlan } from '../db/index-plan.ts';

/** Who said a turn: the caller (the first channel of a dual-channel recording), whoever answered,
 * or null in a mono recording. */
export type Speaker = 'caller' | 'agent' | null;

export interface Turn {
  speaker: Speaker;
  /** Seconds from the recording's start. */
  start: number;
  end: number;
  text: string;
}

/** A key phrase (domain settings `keyPhrases`) heard in a turn. */
export interface SpottedPhrase {
  label: string;
  /** The phrase of the label that was heard, as the domain wrote it. */
  phrase: string;
  /** The turn it was heard in (its index in `turns`). */
  turn: number;
  speaker: Speaker;
  at: number;
}

export interface TranscriptDoc {
  _id: number; // the call's id
  domainId: string;
  /** The call's start: the search looks within the period shown. */
  startedAt: Date;
  turns: Turn[];
  /** Ours: each turn's words' times, `[start, end, start, end, …]`, to cut its captions at words
   * (captions.ts); absent on transcripts made before they were kept. */
  wordTimes?: number[][];
  spotted: SpottedPhrase[];
  /** The turns as the data API shows them, one a line: `caller: …`, `agent: …` (mono: the words alone). */
  text: string;
  language: string | null;
  /** The engine (`local`, or the host of TRANSCRIBE_URL) and model that made it. */
  engine: string;
  model: string;
  /** The audio's length, and the time the engine took, for the real-time factor. */
  audioSeconds: number;
  tookMs: number;
  madeAt: Date;
  /** Made for the demo's history (demo/), not by an engine. */
  demo?: true;
}

/** One word said in one call, by one speaker (`c`aller, `a`gent) or by anyone (`x`):
 * `_id` = `<domainId>|<word>|<c|a|x>|<call start ms, 13 digits>|<call id, 15 digits>`, so a word's
 * calls of a period are one range of `_id`, newest last, on any MongoDB (no text index needed). */
export interface TranscriptWordDoc {
  _id: string;
  callId: number;
}

export interface TranscriptCollections {
  transcripts: Collection<TranscriptDoc>;
  transcriptWords: Collection<TranscriptWordDoc>;
}

export function transcriptCollections(db: Db): TranscriptCollections {
  return collectionsNamed<TranscriptCollections>(db, { transcripts: 'transcripts', transcriptWords: 'transcript_words' });
}

export const transcriptIndexes: IndexPlan = {
  // A period's transcripts; a domain's in call order (spotted again when its phrases change).
  transcripts: [[{ domainId: 1, startedAt: 1 }], [{ domainId: 1, _id: 1 }]],
  // A call's words go with its transcript.
  transcriptWords: [[{ callId: 1 }]],
};

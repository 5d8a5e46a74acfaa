// The calls log's search by words said: `price`, `"book an appointment"`, `caller: "how much"`,
// `agent:refund`. Every word must have been said (by that speaker, when one is named), a quoted
// phrase as written, within the period shown. Plain MongoDB on any server: the words' index
// (transcript_words) is ranges of `_id`, read newest first a time window at a time; a phrase is then
// checked in the calls' turns.
// Bounded whatever is typed: at most 200 characters, MAX_TERMS words, SEARCH_BOUNDS.maxRead index entries read,
// no regular expression built from it.
import type { Speaker, TranscriptCollections, TranscriptDoc, Turn } from './documents.ts';
import { wordKey } from './transcript-store.ts';
import { wordsOf } from './words.ts';

export const MAX_QUERY_LENGTH = 200;
const MAX_TERMS = 10;

export interface TranscriptQuery {
  speaker: Exclude<Speaker, null> | null;
  /** Each term's words: one for a word, several for a quoted phrase. */
  terms: string[][];
}

export class SearchRefused extends Error {}

/** Reads what a person typed; refused when it is too long or has no word. */
export function parseQuery(q: string): TranscriptQuery {
  if (q.length > MAX_QUERY_LENGTH) throw new SearchRefused(`q must be at most ${MAX_QUERY_LENGTH} characters`);
  let rest = q.trim();
  let speaker: TranscriptQuery['speaker'] = null;
  const lower = rest.toLowerCase();
  for (const who of ['caller', 'agent'] as const) {
    if (lower.startsWith(`${who}:`)) {
      speaker = who;
      rest = rest.slice(who.length + 1);
    }
  }
  const terms: string[][] = [];
  // Quoted parts are phrases, the rest single words.
  rest.split('"').forEach((part, i) => {
    const words = wordsOf(part);
    if (i % 2 === 1 && words.length > 0) terms.push(words);
    else for (const word of words) terms.push([word]);
  });
  if (terms.length === 0) throw new SearchRefused('q must have a word to look for');
  if (terms.flat().length > MAX_TERMS) throw new SearchRefused(`q may have at most ${MAX_TERMS} words`);
  return { speaker, terms };
}

/** The first turn where the query was heard, to show under the call. */
export type MatchLine = Pick<Turn, 'speaker' | 'start' | 'text'>;

export interface SearchAnswer {
  /** The calls found, newest first. */
  callIds: number[];
  /** `maxRead` index entries were read before the end of the period: a shorter period finds the rest. */
  stopped: boolean;
}

const speakerCode = (speaker: TranscriptQuery['speaker']) => (speaker === 'caller' ? 'c' : speaker === 'agent' ? 'a' : 'x');

/** Whether words say a term: its words in a row. */
const says = (words: string[], term: string[]) => words.some((_, i) => term.every((w, j) => words[i + j] === w));

/** A call's turn that says the query: every term in one turn, else the first turn with the first term
 * (each term said in some turn by the speaker named). Each turn's words are read once. */
function matchOf(t: Pick<TranscriptDoc, 'turns'>, query: TranscriptQuery): Turn | null {
  const turns = t.turns.filter((turn) => !query.speaker || turn.speaker === query.speaker).map((turn) => ({ turn, words: wordsOf(turn.text) }));
  const all = turns.find(({ words }) => query.terms.every((term) => says(words, term)));
  if (all) return all.turn;
  if (!query.terms.every((term) => turns.some(({ words }) => says(words, term)))) return null;
  return turns.find(({ words }) => says(words, query.terms[0]!))?.turn ?? null;
}

/** The line each call of `callIds` says the query in (the calls a page shows): their turns read once. */
export async function matchLines(c: TranscriptCollections, query: TranscriptQuery, callIds: number[]): Promise<Map<number, MatchLine>> {
  const docs = callIds.length ? await c.transcripts.find({ _id: { $in: callIds } }, { projection: { turns: 1 } }).toArray() : [];
  const lines = new Map<number, MatchLine>();
  for (const doc of docs) {
    const turn = matchOf(doc, query);
    if (turn) lines.set(doc._id, { speaker: turn.speaker, start: turn.start, text: turn.text });
  }
  return lines;
}

/** Where a walk through the words' index stands: a call's start and id (a key without its word). */
interface Position {
  at: number;
  callId: number;
}

const before = (a: Position, b: Position) => a.at < b.at || (a.at === b.at && a.callId < b.callId);
/** A word's index entry's position: its `_id` ends `|<start ms, 13 digits>|<call id, 15 digits>`. */
const positionOf = (key: string): Position => ({ at: Number(key.slice(-29, -16)), callId: Number(key.slice(-15)) });

/** The domain's calls of [from, to) whose transcripts say the query, newest first, at most `limit`.
 * The period is walked newest first in windows: every word's entries of a window read as one range
 * each, the calls in all of them kept (a quoted phrase then checked in their turns). A window is
 * sized from the last one's entries to read about `windowEntries`: the cost of a range grows with its
 * width on some servers (the embedded one reads it whole even under a limit), so no range is wider
 * than the words' density asks, and a search stops as soon as it has `limit` calls. */
export async function searchTranscripts(c: TranscriptCollections, domainId: string, query: TranscriptQuery, from: Date, to: Date, limit: number, bounds: SearchBounds = SEARCH_BOUNDS): Promise<SearchAnswer> {
  const { firstWindowMs, windowEntries, maxGrowth, wordRead, maxRead } = bounds;
  const s = speakerCode(query.speaker);
  const words = [...new Set(query.terms.flat())];
  const phrases = query.terms.some((term) => term.length > 1);
  const keyAt = (word: string, p: Position) => wordKey(domainId, word, s, p.at, p.callId);
  const start: Position = { at: from.getTime(), callId: 0 };
  let upper: Position = { at: to.getTime(), callId: 0 };
  let span = Math.min(firstWindowMs, upper.at - start.at);
  let read = 0;
  const hits: number[] = [];
  while (hits.length < limit && before(start, upper)) {
    if (read >= maxRead) return { callIds: hits, stopped: true };
    let lower: Position = { at: Math.max(start.at, upper.at - span), callId: 0 };
    const lists = await Promise.all(
      words.map((word) => c.transcriptWords.find({ _id: { $gte: keyAt(word, lower), $lt: keyAt(word, upper) } }, { sort: { _id: -1 }, projection: { _id: 1 } }).limit(wordRead).toArray()),
    );
    // A word read up to wordRead ends the window where its reading stopped: older entries wait for the next one.
    for (const list of lists) {
      read += list.length;
      const last = list.length === wordRead ? positionOf(list.at(-1)!._id) : null;
      if (last && before(lower, last)) lower = last;
    }
    const inWindow = lists.map((list) => list.map((entry) => positionOf(entry._id)).filter((p) => !before(p, lower)));
    const others = inWindow.slice(1).map((list) => new Set(list.map((p) => p.callId)));
    const candidates = inWindow[0]!.map((p) => p.callId).filter((callId) => others.every((set) => set.has(callId)));
    if (phrases) await keepSaying(c, query, candidates, hits, limit);
    else hits.push(...candidates.slice(0, limit - hits.length));
    const entries = inWindow.reduce((n, list) => n + list.length, 0);
    const width = Math.max(1, upper.at - lower.at);
    span = Math.round(Math.min(width * maxGrowth, Math.max(1, (width * windowEntries) / Math.max(1, entries))));
    upper = lower;
  }
  return { callIds: hits, stopped: false };
}

/** Adds to `hits` the `candidates` whose turns say the query's phrases, newest first, up to `limit`:
 * the turns read a slice at a time, no more than the calls still missing, as most candidates say it. */
async function keepSaying(c: TranscriptCollections, query: TranscriptQuery, candidates: number[], hits: number[], limit: number): Promise<void> {
  for (let i = 0; i < candidates.length && hits.length < limit; ) {
    const slice = candidates.slice(i, i + Math.max(PHRASE_SLICE, limit - hits.length));
    i += slice.length;
    const said = await matchLines(c, query, slice);
    hits.push(...slice.filter((callId) => said.has(callId)).slice(0, limit - hits.length));
  }
}

/** Calls whose turns are read at least at once to check a phrase. */
const PHRASE_SLICE = 100;

export interface SearchBounds {
  /** The first window: a day (or the period, when shorter); the next ones follow the words' density. */
  firstWindowMs: number;
  /** Entries of all the words a window is sized to read. */
  windowEntries: number;
  /** How much wider a window may be than the last (a word absent from the last window is no measure). */
  maxGrowth: number;
  /** A word's entries read in one window at most: past it the window ends there. */
  wordRead: number;
  /** Entries read by one search at most; past it the answer says a shorter period finds the rest. */
  maxRead: number;
}

export const SEARCH_BOUNDS: SearchBounds = { firstWindowMs: 86_400_000, windowEntries: 5_000, maxGrowth: 8, wordRead: 10_000, maxRead: 60_000 };

// The calls log's search by words said: `price`, `"book an appointment"`, `caller: "how much"`,
// `agent:refund`. Every word must have been said (by that speaker, when one is named), a quoted
// phrase as written, within the period shown. Plain MongoDB on any server: the words' index
// (transcript_words) is ranges of `_id`, so the rarest word's calls are read in time order, a batch
// at a time checked for the other words in the batch's time window; a phrase is then checked in the
// calls' turns.
// Bounded whatever is typed: at most 200 characters, MAX_TERMS words, MAX_CHECKED calls looked at,
// no regular expression built from it.
import type { Speaker, TranscriptCollections, TranscriptDoc, Turn } from './documents.ts';
import { wordKey } from './transcript-store.ts';
import { wordsOf } from './words.ts';

export const MAX_QUERY_LENGTH = 200;
const MAX_TERMS = 10;
/** The calls of the rarest word looked at, at most; past it the answer says the search stopped. */
const MAX_CHECKED = 5_000;
/** A word's calls counted up to this many to find the rarest. */
const COUNT_LIMIT = 10_000;
const BATCH = 500;

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
  /** MAX_CHECKED calls were looked at before the end of the period: a shorter period finds the rest. */
  stopped: boolean;
}

const speakerCode = (speaker: TranscriptQuery['speaker']) => (speaker === 'caller' ? 'c' : speaker === 'agent' ? 'a' : 'x');

/** Whether a turn says every term (each phrase's words in a row). */
function turnSays(turn: Turn, query: TranscriptQuery): boolean {
  if (query.speaker && turn.speaker !== query.speaker) return false;
  const words = wordsOf(turn.text);
  return query.terms.every((term) => words.some((_, i) => term.every((w, j) => words[i + j] === w)));
}

/** A call's turn that says the query: every term in one turn, else the first turn with the first term. */
function matchOf(t: Pick<TranscriptDoc, 'turns'>, query: TranscriptQuery): Turn | null {
  const all = t.turns.find((turn) => turnSays(turn, query));
  if (all) return all;
  const terms = query.terms;
  if (!terms.every((term) => t.turns.some((turn) => turnSays(turn, { speaker: query.speaker, terms: [term] })))) return null;
  return t.turns.find((turn) => turnSays(turn, { speaker: query.speaker, terms: [terms[0]!] })) ?? null;
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

/** The domain's calls of [from, to) whose transcripts say the query, newest first, at most `limit`.
 * The index answers words alone (by speaker too); a quoted phrase is checked in the calls' turns. */
export async function searchTranscripts(c: TranscriptCollections, domainId: string, query: TranscriptQuery, from: Date, to: Date, limit: number): Promise<SearchAnswer> {
  const s = speakerCode(query.speaker);
  const words = [...new Set(query.terms.flat())];
  const range = (word: string) => ({ $gte: wordKey(domainId, word, s, from.getTime(), 0), $lt: wordKey(domainId, word, s, to.getTime(), 0) });
  const counts = await Promise.all(words.map((word) => c.transcriptWords.countDocuments({ _id: range(word) }, { limit: COUNT_LIMIT })));
  if (counts.some((n) => n === 0)) return { callIds: [], stopped: false };
  const rarest = words[counts.indexOf(Math.min(...counts))]!;
  const others = words.filter((w) => w !== rarest);
  const phrases = query.terms.some((term) => term.length > 1);
  const hits: number[] = [];
  let checked = 0;
  const cursor = c.transcriptWords.find({ _id: range(rarest) }, { sort: { _id: -1 }, projection: { _id: 1 }, batchSize: BATCH });
  let batch: { callId: number; at: number }[] = [];
  const settle = async () => {
    const candidates = await withEvery(c, domainId, s, others, batch);
    batch = [];
    if (candidates.length === 0) return;
    const said = phrases ? await matchLines(c, query, candidates.map((x) => x.callId)) : null;
    for (const { callId } of candidates) if ((!said || said.has(callId)) && hits.length < limit) hits.push(callId);
  };
  for await (const entry of cursor) {
    const [, , , at, id] = entry._id.split('|');
    batch.push({ callId: Number(id), at: Number(at) });
    checked++;
    if (batch.length >= BATCH) await settle();
    if (hits.length >= limit || checked >= MAX_CHECKED) break;
  }
  if (hits.length < limit) await settle();
  await cursor.close();
  return { callIds: hits, stopped: checked >= MAX_CHECKED && hits.length < limit };
}

/** Entries of another word read in a batch's time window at most, before its exact `_id`s are asked instead. */
const WINDOW_READ = 5_000;

/** The calls of `batch` whose index holds every other word too: the other word's entries in the
 * batch's time window read as one range (the rarest word was taken first, so the window usually
 * holds few more), or, past WINDOW_READ of them, the batch's exact `_id`s looked up. */
async function withEvery(c: TranscriptCollections, domainId: string, s: 'c' | 'a' | 'x', others: string[], batch: { callId: number; at: number }[]): Promise<{ callId: number; at: number }[]> {
  let left = batch;
  for (const word of others) {
    if (left.length === 0) break;
    const ats = left.map((x) => x.at);
    const window = { $gte: wordKey(domainId, word, s, Math.min(...ats), 0), $lte: wordKey(domainId, word, s, Math.max(...ats), 999_999_999_999_999) };
    const inWindow = await c.transcriptWords.find({ _id: window }, { projection: { callId: 1 } }).limit(WINDOW_READ + 1).toArray();
    const found = new Set(
      inWindow.length <= WINDOW_READ
        ? inWindow.map((d) => d.callId)
        : (await c.transcriptWords.find({ _id: { $in: left.map((x) => wordKey(domainId, word, s, x.at, x.callId)) } }, { projection: { callId: 1 } }).toArray()).map((d) => d.callId),
    );
    left = left.filter((x) => found.has(x.callId));
  }
  return left;
}

// The calls log's `q`: what a person typed, read and bounded (transcripts/search.ts), over the
// period the log shows; a refusal is the back end's 400.
import type { DomainDoc } from '../domains/documents.ts';
import { localDaysBetween } from '../domains/time-zone.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { DayRange } from '../reports/day-range.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import { matchLines, parseQuery, SearchRefused, searchTranscripts, type MatchLine, type SearchAnswer } from '../transcripts/search.ts';

/** The calls a search finds at most: the log pages through them. */
export const SEARCH_MAX_CALLS = 1000;

/** The calls of the range whose transcripts say `q`, newest first, and the lines that say it of the
 * calls a page shows; null when no `q` was given. */
export async function transcriptSearch(c: TranscriptCollections, domain: DomainDoc, range: DayRange, q: unknown): Promise<(SearchAnswer & { linesOf: (callIds: number[]) => Promise<Map<number, MatchLine>> }) | null> {
  if (q === undefined || q === '') return null;
  if (typeof q !== 'string') throw new ManageFailure(400, 'q must be given once');
  try {
    const query = parseQuery(q);
    const { $gte, $lt } = localDaysBetween(range.from, range.to, domain.timeZone);
    return { ...(await searchTranscripts(c, domain._id, query, $gte, $lt, SEARCH_MAX_CALLS)), linesOf: (callIds) => matchLines(c, query, callIds) };
  } catch (err) {
    if (err instanceof SearchRefused) throw new ManageFailure(400, err.message);
    throw err;
  }
}

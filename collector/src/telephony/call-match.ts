// How sure a call's attribution is: how many visits held the number (and code) in the reservation
// window before the call (the domain's default expiration), and a confidence:
// - `certain`: one visit held it in that window, and still held it when the call came;
// - `likely`: the visit holding it at the call is known, but the number changed hands in the window;
// - `possible`: nobody held it at the call (it came after the hold ended), somebody did shortly before;
// - `none`: nobody held it in the window.
// A pool's overflow number: `likely` with one visit shown it in the window, `possible` with several,
// `none` with none.
// Offline numbers are not matched to visits: null.
import type { CallDoc } from './documents.ts';
import { NumberPool } from '../tracking/pool.ts';
import { endOfSecond, type Route } from './routing.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';

export type MatchConfidence = 'certain' | 'likely' | 'possible' | 'none';
export type CallMatch = Pick<CallDoc, 'matchCandidates' | 'matchConfidence'>;

const NOT_MATCHED: CallMatch = { matchCandidates: null, matchConfidence: null };

/** An overflow number is shown to every visitor a full pool refuses: one of them in the window is
 * likely the caller, several only possibly. */
function overflowMatch(candidates: number): CallMatch {
  return { matchCandidates: candidates, matchConfidence: candidates === 0 ? 'none' : candidates === 1 ? 'likely' : 'possible' };
}

export async function matchOf(c: DomainCollections & TrackingCollections, route: Route, code: string | null, at: Date): Promise<CallMatch> {
  if (route.reason === 'overflow') return overflowMatch(route.overflowCandidates ?? 0);
  if (!route.domain || !route.number || route.number.usage === 'offline' || route.reason === 'blocked') return NOT_MATCHED;
  // As the route's lease: whatever happened during the call's second came before it.
  const held = await new NumberPool(c).holdersAround(route.number, code, endOfSecond(at), route.domain.defaultExpiration * 1000);
  const visits = new Set(held.filter((l) => l.visitId > 0).map((l) => l.visitId));
  const holdsNow = held.some((l) => l.visitId > 0 && l.expiresAt >= at);
  const matchConfidence: MatchConfidence = visits.size === 0 ? 'none' : !holdsNow ? 'possible' : visits.size === 1 ? 'certain' : 'likely';
  return { matchCandidates: visits.size, matchConfidence };
}

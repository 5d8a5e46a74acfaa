// The tracker's cookies, through js-cookie: `tracker_visit_id` (the collector's integer visitId,
// 30 minutes, renewed on every view), `tracker_visit_key` beside it (ours, issue 79: the visit's
// secret, which the collector asks for to continue the visit: a visit id alone starts a new one) and `tracker_visitor_id` (a random id of the browser, 13
// months, renewed on every visit, sent as `unique_visitor_id`: the collector links one visitor's
// visits with it); GA4's `_ga` and `_ga_<stream>` are read, never written.
// Until the visitor consents (`data-consent="pending"` on the tag), or after `consent(false)`, the
// visit is kept in memory only, for the page's life: nothing is written, and no visitor id is sent.
import Cookies from 'js-cookie';

const VISIT = 'tracker_visit_id';
const VISIT_KEY = 'tracker_visit_key';
const VISITOR = 'tracker_visitor_id';
const VISIT_DAYS = 1 / 48; // 30 minutes
const VISITOR_DAYS = 395; // 13 months

/** The visit as the collector last answered it (its /t/view answer): kept in memory for the page's life. */
let kept: Visit | undefined;
let visitor: string | undefined;
/** Set at start by main.ts (consent(false) for data-consent="pending"). */
let consented: boolean;

/** The visitor's answer to the site's consent banner: yes writes the visit's cookie from now on.
 * Called with false at start for `data-consent="pending"`: no cookie or storage until `consent(true)`. */
export function consent(granted: boolean): void {
  consented = granted;
  if (kept) keepVisit(kept); // writes only if granted
}

export const mayStore = () => consented;

// js-cookie's default path is `/`.
const set = (name: string, value: string | number, expires: number) => Cookies.set(name, value as string, { expires, sameSite: 'lax', secure: location.protocol > 'http:' }); // https: only

/** The visit to continue, or 0 on the first view of a session. */
export function currentVisitId(): number {
  return kept?.visitId || (consented && +Cookies.get(VISIT)!) || 0;
}

/** The visit's key, sent with the visit id (none: the collector starts a new visit). */
export const currentVisitKey = () => kept?.visitKey || (consented && Cookies.get(VISIT_KEY)) || '';

/** A visit and its key, as /t/view answers them. */
export interface Visit {
  visitId: number;
  visitKey?: string | null;
}

export function keepVisit(visit: Visit): void {
  kept = visit;
  if (!consented) return;
  set(VISIT, visit.visitId, VISIT_DAYS); // js-cookie writes a number as its digits
  set(VISIT_KEY, visit.visitKey!, VISIT_DAYS);
  // The visitor's id, its 13 months counted again at every view (so at every visit).
  if (visitor) set(VISITOR, visitor, VISITOR_DAYS);
}

/** The visitor's first-party id for the view, with consent only (the cookie is written by keepVisit);
 * and GA4's cookies when the site's GA4 set them (`_ga`, `_ga_<stream>`), under their names and as
 * they are: the browser door takes the client and session ids out of them (collector/src/browser/
 * ga-cookies.ts), so that the collector's GA4 events join the visitor's session. */
export function visitorFields(): Record<string, string> {
  if (!consented) return {};
  const jar = Cookies.get();
  const fields: Record<string, string> = {};
  // A page served over plain http has no crypto.randomUUID (secure contexts only): no visitor id then.
  if ((visitor = jar[VISITOR] || visitor || crypto.randomUUID?.())) fields.unique_visitor_id = visitor;
  for (const name in jar) if (/^_ga(_|$)/.test(name)) fields[name] = jar[name]!;
  return fields;
}

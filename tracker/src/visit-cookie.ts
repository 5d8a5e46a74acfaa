// The `tracker_visit_id` cookie: the collector's integer visitId, 30 minutes, renewed on every view.
import Cookies from 'js-cookie';

const NAME = 'tracker_visit_id';

/** The visit to continue, or 0 on the first view of a session. */
export function currentVisitId(): number {
  return +Cookies.get(NAME)! || 0;
}

export function keepVisit(visitId: number): void {
  Cookies.set(NAME, `${visitId}`, { expires: 1 / 48, sameSite: 'Lax', secure: location.protocol == 'https:' });
}

// The `tracker_visit_id` cookie: the collector's integer visitId, 30 minutes, renewed on every view.
// Until the visitor consents (`data-consent="pending"` on the tag), the visit is kept in memory
// only, for the page's life: nothing is written to cookies or storage.
const NAME = 'tracker_visit_id';

let inMemory = 0;
let consented = true;

/** `pending`: no cookie or storage until `consent(true)`. */
export function awaitConsent(): void {
  consented = false;
}

/** The visitor's answer to the site's consent banner: yes writes the visit's cookie from now on. */
export function consent(granted: boolean): void {
  consented = granted;
  if (granted && inMemory) keepVisit(inMemory);
}

export const mayStore = () => consented;

/** The visit to continue, or 0 on the first view of a session. */
export function currentVisitId(): number {
  return inMemory || (consented && +(/(?:^|; )tracker_visit_id=(\d+)/.exec(document.cookie)?.[1] as string)) || 0;
}

export function keepVisit(visitId: number): void {
  inMemory = visitId;
  if (consented) document.cookie = `${NAME}=${visitId};max-age=1800;path=/;samesite=lax${location.protocol == 'https:' ? ';secure' : ''}`;
}

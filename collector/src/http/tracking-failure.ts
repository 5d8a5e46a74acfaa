// A tracking request that ends without `OK`: the envelope turns it into `status` + `errorMessage`.
import type { TrackingProblem } from '@ringtrail/shared';

export class TrackingFailure extends Error {
  constructor(
    readonly status: TrackingProblem['status'],
    message: string,
    /** Ids of what was recorded anyway (a `/ospView` WARNING still records the view). */
    readonly ids: { visitId?: number; viewId?: number } = {},
    /** HTTP status and headers when not the envelope's defaults (the browser doors' 403 and 429). */
    readonly http: { status?: number; headers?: Record<string, string> } = {},
    /** Our own fields beside the envelope's (the browser door's `forms` on an exhausted pool). */
    readonly ours: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const NO_NUMBER_AVAILABLE = 'No tracking number available: the pool is exhausted';

/** Answered as an exhausted pool is (WARNING, the site's own numbers stay): the client address
 * already holds as many numbers as the domain's numbersPerAddress allows. */
export const ADDRESS_HOLDS_ITS_LIMIT = 'No tracking number available: this address already holds as many numbers as one address may';

// What every platform's client answers for a request of leads: sent (with the platform's id of the
// request), or failed: the HTTP status (null: no answer), the platform's words, whether to try again
// later (429, 5xx, no answer), whether the credentials were refused (401, 403), and the leads of the
// request the platform named as wrong, by their place in it.
export type SendOutcome =
  | { ok: true; id: string | null; rejected?: Map<number, string> }
  | { ok: false; status: number | null; message: string; retry: boolean; auth: boolean; rejected: Map<number, string> };

export function failureOf(status: number | null, message: string, rejected = new Map<number, string>()): SendOutcome {
  return { ok: false, status, message: message.slice(0, 500), retry: status === null || status === 429 || status >= 500, auth: status === 401 || status === 403, rejected };
}

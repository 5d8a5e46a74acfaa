// The back end's API from the browser: JSON in and out, the session's CSRF token on every change.
import { rememberPhoneDisplay } from './format.ts';

let csrfToken = '';

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The API's own words, its field path included (`allowedOrigins: at most 100 origins`). */
    readonly said: string,
  ) {
    super(inWords(said));
  }
}

/** Words the API says in its own terms, as a person reads them. */
const SAID: [RegExp, string][] = [[/is not an IANA time zone$/, 'not a time zone we know: pick one from the list']];

/** An error as a person reads it (issue 81): the field a form's input names in words
 * (`timeZone: …` -> `Time zone: …`). A path into a list (`actions.0.type: …`) stays as the API
 * says it: the rule editor and the API's own docs name its places so. */
export function inWords(message: string): string {
  const said = SAID.reduce((text, [pattern, words]) => text.replace(pattern, words), message);
  return said.replace(/^([a-z][A-Za-z]*): /, (_, field: string) => {
    const words = field.replace(/([a-z])([A-Z])/g, (__, a: string, b: string) => `${a} ${b.toLowerCase()}`);
    return `${words[0]!.toUpperCase()}${words.slice(1)}: `;
  });
}

/** JSON to and from the collector at `url`; an answer's `{error}` thrown as an ApiError. */
export async function fetchJson<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new ApiError(res.status, json?.error ?? `HTTP ${res.status}`);
  return json as T;
}

/** The management API, the session's CSRF token on every change. */
export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const json = await fetchJson<T & { phoneDisplay?: Record<string, string> }>(method, `/manage/api${path}`, body, method !== 'GET' ? { 'x-csrf-token': csrfToken } : {});
  rememberPhoneDisplay(json?.phoneDisplay);
  return json;
}

export const get = <T = any>(path: string) => api<T>('GET', path);

/** A file sent as it is (its own Content-Type), the session's CSRF token with it. */
export function upload<T = any>(path: string, file: File): Promise<T> {
  return fetch(`/manage/api${path}`, { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken, 'content-type': file.type || 'application/octet-stream' }, body: file }).then(async (res) => {
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new ApiError(res.status, json?.error ?? `HTTP ${res.status}`);
    return json as T;
  });
}

/** A path with a query string, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])));
  return search.size ? `${path}?${search}` : path;
}
